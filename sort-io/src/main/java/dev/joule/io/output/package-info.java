/**
 * Stage 6 of 6: writes and publishes the output. Input: sorted records in batches (from the
 * one-pass gather or the final merge). Output: the published file. {@link
 * dev.joule.io.output.BatchWriter} hands out record space inside the write-behind buffers and feeds
 * {@link dev.joule.io.output.OutputValidator} (valsort's checks, compared with the input's at the
 * end); {@link dev.joule.io.output.AtomicOutput} writes under a hidden temporary name in the
 * output's own directory, forces it, renames it atomically over the final name and fsyncs the
 * directory, so the final name only ever holds the previous complete file or the new one.
 *
 * <p>Layer 3 of 4 (stages).
 */
package dev.joule.io.output;
