/**
 * Stage 2 of 5: the range splitters. Input: sort keys (user key and ordinal) sampled from the
 * splits, weighted by the records they stand for. Output: {@code partitions - 1} splitters at the
 * weighted quantiles and the Spark partitioners that use them, consumed by the map side in {@code
 * shuffle}.
 */
package dev.joule.spark.partition;
