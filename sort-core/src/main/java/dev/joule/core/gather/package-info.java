/**
 * Stage 4 of 6: copies the records of a sorted arena, in key order, into a writer's buffer. Input:
 * a {@code RecordIndex} sorted by {@code core.radix} over its arena. Output: consecutive records in
 * a destination {@link java.nio.ByteBuffer} owned by {@code io.run} or {@code io.output}.
 */
package dev.joule.core.gather;
