/**
 * Stage 3 of 6: sorts one arena's {@code RecordIndex} in place, stably, by the full record key.
 * Input: an index built by {@code core.record} over a filled arena. Output: the same index in key
 * order (equal keys in input order), read by {@code core.gather} or a merge cursor.
 */
package dev.joule.core.radix;
