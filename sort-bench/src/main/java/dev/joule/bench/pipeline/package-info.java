/**
 * End-to-end timing of {@code io.pipeline.ExternalSorter} from a main, for profiling a whole sort
 * without the CLI; the comparison with GNU sort is {@code sort-bench/scripts/compare-gnu-sort.sh}.
 */
package dev.joule.bench.pipeline;
