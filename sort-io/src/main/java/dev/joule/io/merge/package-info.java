/**
 * Stages 5–6 of 6: merges sorted runs, pulled in merge order from {@link
 * dev.joule.io.prefetch.MergeSource}s, into new runs or into the output. Input: the run files of
 * {@code io.run}. Output: runs (the intermediate passes of a {@link dev.joule.io.plan.MergePlan},
 * {@link dev.joule.io.merge.MergePasses} and {@link dev.joule.io.merge.IntermediateMerges}), the
 * output file ({@link dev.joule.io.merge.FinalMerge}, in parallel parts), or a stream of entries
 * for a session's cursor ({@link dev.joule.io.merge.Merges#stream}).
 *
 * <p>{@link dev.joule.io.merge.MergeBuffers} carves every merge's buffers from idle arenas first;
 * {@link dev.joule.io.merge.MergeLoop} is the one loop that moves entries, with progress and the
 * stop checks; {@link dev.joule.io.merge.MergeThreads} starts and joins the threads of a pass or of
 * a final merge's parts.
 *
 * <p>Layer 3 of 4 (stages).
 */
package dev.joule.io.merge;
