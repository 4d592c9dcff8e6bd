/**
 * Orchestration (API facade): ties the stages into a sort of a file, or of pushed records, far
 * larger than memory. Entry points: {@link dev.joule.io.pipeline.ExternalSorter} ({@code sort},
 * {@code plan}, {@code open}, {@code openPairs}), the sessions {@link
 * dev.joule.io.pipeline.RecordSession} and {@link dev.joule.io.pipeline.PairSession}, and {@link
 * dev.joule.io.pipeline.RecordCursor} for what they return.
 *
 * <p>One engine, two doors. {@code RunStore} owns a sort's runs: the radix sorter, the temp space,
 * the runs in input order and the input's checksum; it spills sorted chunks and outsized entries,
 * merges down by the plan, merges into an output file and streams ({@code io.merge}). {@code
 * FileSortJob} reads plan → one pass ({@code InMemorySortPhase}) or run formation ({@code
 * RunFormationPhase}, three arenas in flight) → merge down → merge into output → publish; {@code
 * SessionEngine} add → spill when full (its two {@code SessionChunk}s: one fills while the other is
 * written) → merge down → stream ({@code SessionCursor}).
 *
 * <p>Layer 4 of 4: may use every other package; nothing below calls back into it.
 */
package dev.joule.io.pipeline;
