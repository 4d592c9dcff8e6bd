/**
 * Test-data stage (before stage 1 of 6): generates Sort Benchmark input records byte for byte as
 * the reference gensort 1.5, plus the legacy gensort 1.2 / Hadoop TeraGen layout. Input: a mode, a
 * 128-bit first record number and a count. Output: 100-byte records in caller-supplied ByteBuffers,
 * consumed by the CLI's {@code joule gensort} and by tests and benchmarks of every later stage.
 *
 * <p>{@link dev.joule.core.gensort.GensortGenerator} generates sequentially on one thread; {@link
 * dev.joule.core.gensort.ParallelGensort} cuts a range into blocks for several threads. Formats:
 * {@code docs/formats.md, Generator to Checksum}.
 */
package dev.joule.core.gensort;
