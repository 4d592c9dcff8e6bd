/**
 * Stage 2 of 6: indexes a filled arena for sorting. Input: a filled {@code RecordArena} from {@code
 * core.memory} and a {@code core.record.RecordFormat}. Output: a {@link
 * dev.joule.core.index.RecordIndex} (normalized key prefixes, {@link
 * dev.joule.core.index.KeyPrefix}, plus record addresses in packed {@code long}s), sorted in place
 * by {@code core.radix} and read in order by {@code core.gather}.
 */
package dev.joule.core.index;
