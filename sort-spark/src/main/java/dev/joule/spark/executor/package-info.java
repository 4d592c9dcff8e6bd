/**
 * Stage 4 of 5, in the reduce tasks: joule's engine sorts each partition (the session API), with
 * memory from the executor's budget, temp runs striped over the executor's local directories and
 * one thread per task core. The only package that uses joule's pipeline API ({@link
 * dev.joule.spark.executor.JouleEngine}). Output: the sorted wrapped records, to {@code output}.
 */
package dev.joule.spark.executor;
