/**
 * Orchestration: ties the stages together into a sort of a file (or of pushed records) far larger
 * than memory. Input: a {@link dev.joule.io.pipeline.SortConfig} and an input file or records.
 * Output: a sorted, self-validated, atomically published file and an immutable
 * {@link dev.joule.io.pipeline.SortReport}.
 *
 * <p>Stages, in order: read input blocks ({@code io.input}, {@code io.block}) into a record arena
 * ({@code core.memory}), index and radix-sort it ({@code core.record}, {@code core.radix}), gather
 * it into a run file on a stripe ({@code core.gather}, {@code io.run}, {@code io.stripe}), then merge
 * the runs with a loser tree fed by prefetched blocks ({@code core.merge}) into the output
 * ({@code io.output}). The {@link dev.joule.io.pipeline.MergePlan} decides the merge passes.
 */
package dev.joule.io.pipeline;
