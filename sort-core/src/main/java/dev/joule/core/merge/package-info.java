/**
 * Stage 5 of 6: merges sorted runs into one stable key order. Input: one {@link
 * dev.joule.core.merge.RunCursor} per sorted run (in-memory {@link
 * dev.joule.core.merge.ByteBufferRunCursor} here, file-backed cursors from {@code io.prefetch}).
 * Output: the records in merge order, pulled one at a time from a {@link
 * dev.joule.core.merge.TournamentTree} and copied out by {@code io.output}.
 *
 * <p>The merge order is total and stable: key bytes (unsigned, lexicographic), then run index
 * (earlier runs hold earlier input), then position in the run. {@link
 * dev.joule.core.merge.MergeSplitter} cuts the runs into key ranges in exactly that order, so that
 * merging the ranges in parallel and concatenating them gives the same bytes as one merge.
 *
 * <p>No file I/O and no allocation per record: cursors lend their buffers, the tree keeps primitive
 * arrays of prefixes and cursor ids.
 */
package dev.joule.core.merge;
