/**
 * Benchmarks of the gather step ({@code core.gather}): sorted records into a destination buffer,
 * against one sequential {@code ByteBuffer.put} of the same bytes.
 */
package dev.joule.bench.gather;
