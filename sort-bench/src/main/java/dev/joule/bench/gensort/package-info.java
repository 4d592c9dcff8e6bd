/**
 * Benchmarks of the gensort generator ({@code core.gensort}): records per second per thread,
 * binary, ASCII and skewed, against the CRC-32 checksum alone.
 */
package dev.joule.bench.gensort;
