/**
 * Stage 5 of 5: the parts. Each reduce task writes and validates its part (and valsort summary)
 * under its attempt's name; the driver validates all parts together against the input's count and
 * checksum and publishes them with {@code _SUCCESS} in one directory rename, or removes everything
 * on failure.
 */
package dev.joule.spark.output;
