/**
 * Stage 3 of 5, the map side: every record wrapped with its ordinal and routed by the splitters.
 * For joule's engine, wrapped records travel in chunks keyed by partition id, so Spark moves bytes
 * and never compares keys; for the Spark engine, as (sort key, rest) pairs for Spark's partitioner
 * and sort. Output: the shuffle, read by the reduce tasks in {@code executor}.
 */
package dev.joule.spark.shuffle;
