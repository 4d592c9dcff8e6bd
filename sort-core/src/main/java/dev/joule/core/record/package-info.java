/**
 * Stage 2 of 6: describes records and indexes a filled arena for sorting. Input: a filled {@code
 * RecordArena} from {@code core.memory} and a {@link dev.joule.core.record.RecordFormat}. Output: a
 * {@link dev.joule.core.record.RecordIndex} (key prefixes plus record addresses in packed {@code
 * long}s), sorted in place by {@code core.radix} and read in order by {@code core.gather}.
 */
package dev.joule.core.record;
