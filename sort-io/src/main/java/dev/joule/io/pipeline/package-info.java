/**
 * Orchestration (API facade): ties the stages into a sort of a file, or of pushed records, far
 * larger than memory. Entry points: {@link dev.joule.io.pipeline.ExternalSorter} ({@code sort},
 * {@code plan}, {@code open}), {@link dev.joule.io.pipeline.SortSession} and {@link
 * dev.joule.io.pipeline.RecordCursor} for pushed records.
 *
 * <p>The phases, in pipeline order: {@code InMemorySortPhase} (the input fits the budget: stages
 * 1–3 and 6 in one pass) or {@code RunFormationPhase} (stages 1–4 with three arenas in flight),
 * then {@code MergePasses} (the plan's intermediate passes) and {@code MergePhase} (stages 5–6, the
 * final merge split over threads). {@code FileSortJob} runs one file sort; the session reuses the
 * same spill ({@code io.run.RunSpill}), passes and merge source ({@code io.prefetch.MergeSource}).
 *
 * <p>Layer 4 of 4: may use every other package; nothing below calls back into it.
 */
package dev.joule.io.pipeline;
