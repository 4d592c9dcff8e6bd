/**
 * joule as Spark SQL's sort operator: {@link dev.joule.spark.sql.JouleExtensions} injects {@link
 * dev.joule.spark.sql.JouleSortRule}, which puts {@link dev.joule.spark.sql.JouleSortExec} in place
 * of {@code SortExec} when every sort key has a binary code; each partition's rows go into a joule
 * key/value session as their key ({@code SortKeyEncoder}, {@code ValueCode}) and their {@code
 * UnsafeRow} bytes, and come out as {@code UnsafeRow}s over joule's memory ({@code RowSort}), the
 * memory granted by the task's memory manager ({@link dev.joule.spark.executor.TaskMemoryGrant}).
 */
package dev.joule.spark.sql;
