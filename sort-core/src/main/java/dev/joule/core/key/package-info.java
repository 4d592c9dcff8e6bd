/**
 * Sort keys as bytes (API): {@link dev.joule.core.key.KeyEncoder} builds binary sort keys from
 * typed values for callers; {@link dev.joule.core.key.SortKey} describes a record's key (byte
 * ranges, binary numbers, GNU sort's text keys and options) and {@link
 * dev.joule.core.key.KeyNormalizer} compiles it into the engine's normalized keys, whose unsigned
 * byte order is the key's order; {@link dev.joule.core.key.TextFields} and {@link
 * dev.joule.core.key.GnuSortKeys} locate and parse GNU {@code -k} keys.
 */
package dev.joule.core.key;
