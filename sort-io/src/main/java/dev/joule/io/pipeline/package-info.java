/**
 * Orchestration: ties the stages together into a sort of a file (or of pushed records) far larger
 * than memory. Input: a {@link dev.joule.io.pipeline.SortConfig} and an input file or records.
 * Output: a sorted, self-validated, atomically published file and an immutable {@link
 * dev.joule.io.pipeline.SortReport}.
 *
 * <p>Stages, in order: read input blocks ({@code io.input}, {@code io.block}) into a record arena
 * ({@code core.memory}), index and radix-sort it ({@code core.record}, {@code core.radix}), gather
 * it into a run file on a stripe ({@code core.gather}, {@code io.run}, {@code io.stripe}), then
 * merge the runs with a loser tree fed by prefetched blocks ({@code core.merge}) into the output
 * ({@code io.output}). The {@link dev.joule.io.pipeline.MergePlan} decides the merge passes.
 *
 * <p>Entry points: {@link dev.joule.io.pipeline.ExternalSorter} ({@code sort}, {@code plan}, {@code
 * open}); {@link dev.joule.io.pipeline.SortPlan} (one or two passes, run size, fan-in, memory per
 * phase); {@link dev.joule.io.pipeline.SortSession} and {@link dev.joule.io.pipeline.RecordCursor}
 * for pushed records. Phases: {@code InMemorySortPhase}, {@code RunFormationPhase} (stages 1–4,
 * three arenas in flight), {@code MergePhase} (stages 5–6, prefetched, split over threads). Every
 * output is validated while it is written ({@code OutputValidator}); a mismatch is a {@link
 * dev.joule.io.pipeline.SortValidationException} and nothing is published. An interrupt cancels:
 * {@link dev.joule.io.pipeline.SortCancelledException}.
 */
package dev.joule.io.pipeline;
