/**
 * Benchmarks of stage 5, the merge ({@code core.merge}): the loser tree against a {@code
 * PriorityQueue} of cursors, by fan-in.
 */
package dev.joule.bench.merge;
