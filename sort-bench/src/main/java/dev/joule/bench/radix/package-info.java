/**
 * Benchmarks of stage 3, the radix run sorter ({@code core.radix}): radix against the JDK sort of
 * the same index, by threads and key shape, plus the A/B timing harness used when JMH's errors are
 * too wide on a shared machine.
 */
package dev.joule.bench.radix;
