/**
 * Stage 1 of 5: the input. On the driver, the files are checked and cut into splits of whole
 * records, each with the global ordinal of its first record; in the tasks, splits are read in
 * blocks (checksummed on the way) and sampled. Output: splits for the sampling job and the map
 * tasks, and the input's count and checksum for the final validation.
 */
package dev.joule.spark.input;
