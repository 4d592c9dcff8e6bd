/**
 * Benchmarks of the block I/O stage ({@code dev.joule.io.block}): sequential throughput through the
 * block layer next to {@code dd} (see {@code sort-bench/scripts/io-bench.sh}).
 */
package dev.joule.bench.io;
