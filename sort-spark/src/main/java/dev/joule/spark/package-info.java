/**
 * The sort on Apache Spark, for inputs that outgrow one machine: sampled range splitters over (key,
 * global ordinal), a shuffle by partition id, joule's off-heap engine inside every partition, and
 * {@code part-NNNNN} files with their valsort summaries published at once with {@code _SUCCESS}.
 * {@link dev.joule.spark.SparkFileSort} is the file job (and, with {@code --engine spark}, its
 * baseline on Spark's own sort); {@link dev.joule.spark.JouleSpark} sorts pair RDDs and Datasets by
 * a binary key for Spark programs. The stages, in pipeline order: {@code input}, {@code partition},
 * {@code record} and {@code shuffle}, {@code executor}, {@code output}.
 */
package dev.joule.spark;
