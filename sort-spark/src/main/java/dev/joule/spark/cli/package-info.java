/**
 * The {@code joule-spark} command line (picocli): {@code sort} runs {@link
 * dev.joule.spark.SparkFileSort} after checking arguments, inputs and output before Spark starts.
 * Run by the {@code ./joule-spark} launcher or by {@code spark-submit}.
 */
package dev.joule.spark.cli;
