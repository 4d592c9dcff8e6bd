/**
 * Stage 5 of 6: feeds the merge with run blocks read ahead in the order it will consume them.
 * Input: sorted run files ({@code io.run}). Output: {@link dev.joule.core.merge.RunCursor}s over
 * prefetched blocks, merged by {@link dev.joule.io.prefetch.MergeSource} (schedule, prefetcher,
 * cursors and a {@code core.merge.TournamentTree} for one merge), which {@code io.pipeline} pulls
 * records from.
 *
 * <p>{@link dev.joule.io.prefetch.PrefetchSchedule} computes the consumption order from every
 * block's first key (STXXL's trigger-based schedule); {@link dev.joule.io.prefetch.BlockPrefetcher}
 * reads blocks in that order into a fixed {@link dev.joule.io.block.BlockPool}; {@link
 * dev.joule.io.prefetch.FileRunCursor} walks a key range of one run over those blocks; {@link
 * dev.joule.io.prefetch.RunFileView} gives {@code MergeSplitter} random access to a run file's
 * keys.
 *
 * <p>Layer 3 of 4 (stages).
 */
package dev.joule.io.prefetch;
