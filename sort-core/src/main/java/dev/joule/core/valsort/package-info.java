/**
 * Validation stage (after stage 6 of 6): checks that records are in key order and sums their
 * checksums, byte for byte as the reference valsort 1.5. Input: 100-byte records in ByteBuffers of
 * any chunking, or partition summaries. Output: an immutable {@link
 * dev.joule.core.valsort.ValsortSummary} (280-byte form readable and writable), consumed by {@code
 * joule valsort}, the sort pipeline's self-validation and the tests.
 *
 * <p>{@link dev.joule.core.valsort.StreamingValidator} validates one stream; {@link
 * dev.joule.core.valsort.SummaryCombiner} combines partition summaries ({@code valsort -s}); {@link
 * dev.joule.core.valsort.ParallelValidator} does both over a random-access source. {@link
 * dev.joule.core.valsort.RecordChecksum} is the order-independent checksum. Formats: {@code
 * docs/formats.md, Checksum to valsort}.
 */
package dev.joule.core.valsort;
