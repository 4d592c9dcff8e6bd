package dev.joule.io.pipeline;

/**
 * What a {@link SortSession} has done so far, for a platform's operator metrics (Spark's sort time,
 * spill size and peak memory). A snapshot: each call to {@link SortSession#stats()} makes a new
 * one.
 *
 * @param sortNanos wall time spent sorting chunks in memory (the radix sort of each chunk, on
 *     whichever thread sorted it), in nanoseconds
 * @param spilledRuns runs written by spills and full chunks (not by intermediate merges)
 * @param spilledBytes the entry bytes of those runs (keys, values and their framing, before the run
 *     files' headers and checksums)
 * @param mergePasses merge passes run before the final merge (0 when the runs are merged at once or
 *     nothing was spilled)
 * @param mergedBytes entry bytes written by those passes
 * @param peakMemoryBytes {@link SortSession#peakMemoryBytes()}
 */
public record SessionStats(
    long sortNanos,
    int spilledRuns,
    long spilledBytes,
    int mergePasses,
    long mergedBytes,
    long peakMemoryBytes) {}
