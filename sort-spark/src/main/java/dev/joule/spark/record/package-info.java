/**
 * Stage 3 of 5, the records' shape for the shuffle and the engine: a fixed-size record whose sort
 * key (the user's key, then the record's global ordinal) is contiguous and unique, so that
 * splitters can cut runs of equal keys anywhere and every partition's order is the stable one.
 * Input records of a fixed size get the ordinal inserted after their key; key/value pairs of any
 * length are padded to fixed size.
 */
package dev.joule.spark.record;
