/**
 * Stage 3 of 5, the records' shape for the shuffle and the engine: every record or pair gets a sort
 * key that is the user's key, then its global ordinal, and so is unique, so that splitters can cut
 * runs of equal keys anywhere and every partition's order is the stable one. Input records of a
 * fixed size get the ordinal inserted after their key ({@link
 * dev.joule.spark.record.OrdinalRecordLayout}); key/value pairs of any length get an engine key
 * encoded by joule's {@code KeyEncoder} ({@link dev.joule.spark.record.PairKey}) and travel as
 * length-prefixed entries ({@link dev.joule.spark.record.PairEntries}).
 */
package dev.joule.spark.record;
