package dev.joule.spark;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The reference C {@code valsort}'s rules for 100-byte records with 10-byte keys, written for the
 * tests from docs/formats.md (sections "valsort", "Summary file" and its {@code -s} rules) and not
 * from joule's {@code StreamingValidator} or {@code SummaryCombiner}, which the Spark job uses: a
 * record-by-record pass, the 280-byte summary's layout, and the fold of partition summaries.
 *
 * @param firstUnordered 0-based index of the first record whose key is below its predecessor's (0:
 *     none)
 * @param unordered records whose key is below their predecessor's
 * @param records records
 * @param duplicates records whose key equals their predecessor's
 * @param checksum the sum of every record's CRC-32 (zlib's), modulo 2^128
 * @param first the first record, in hexadecimal
 * @param last the last record, in hexadecimal
 */
record ReferenceValsort(
    BigInteger firstUnordered,
    BigInteger unordered,
    BigInteger records,
    BigInteger duplicates,
    BigInteger checksum,
    String first,
    String last) {
  static final int RECORD = 100;
  static final int KEY = 10;
  static final int SUMMARY = 280;
  private static final BigInteger MOD = BigInteger.ONE.shiftLeft(128);
  private static final HexFormat HEX = HexFormat.of();

  /** Whether every record is in order. */
  boolean ordered() {
    return unordered.signum() == 0;
  }

  /** valsort of {@code data}, a whole number (at least one) of records. */
  static ReferenceValsort of(byte[] data) {
    if (data.length == 0 || data.length % RECORD != 0) {
      throw new IllegalArgumentException(data.length + " bytes are no whole, non-empty records");
    }
    long n = data.length / RECORD;
    long unordered = 0;
    long firstUnordered = 0;
    long duplicates = 0;
    BigInteger sum = BigInteger.ZERO;
    CRC32 crc = new CRC32();
    for (long i = 0; i < n; i++) {
      int at = (int) (i * RECORD);
      crc.reset();
      crc.update(data, at, RECORD);
      sum = sum.add(BigInteger.valueOf(crc.getValue()));
      if (i > 0) {
        int c = compareKeys(data, at - RECORD, data, at);
        if (c == 0) {
          duplicates++;
        } else if (c > 0) {
          if (unordered == 0) {
            firstUnordered = i;
          }
          unordered++;
        }
      }
    }
    return new ReferenceValsort(
        BigInteger.valueOf(firstUnordered),
        BigInteger.valueOf(unordered),
        BigInteger.valueOf(n),
        BigInteger.valueOf(duplicates),
        sum.mod(MOD),
        HEX.formatHex(data, 0, RECORD),
        HEX.formatHex(data, data.length - RECORD, data.length));
  }

  /**
   * The summaries in {@code sums} (concatenated 280-byte summaries, as {@code cat part*.sum} makes
   * them): little-endian 64-bit words, each 16-byte counter its upper word first.
   */
  static List<ReferenceValsort> parse(byte[] sums) {
    if (sums.length % SUMMARY != 0) {
      throw new IllegalArgumentException("partial partition summary found at end");
    }
    ByteBuffer b = ByteBuffer.wrap(sums).order(ByteOrder.LITTLE_ENDIAN);
    ReferenceValsort[] all = new ReferenceValsort[sums.length / SUMMARY];
    for (int k = 0; k < all.length; k++) {
      int at = k * SUMMARY;
      all[k] =
          new ReferenceValsort(
              u128(b, at),
              u128(b, at + 16),
              u128(b, at + 32),
              u128(b, at + 48),
              u128(b, at + 64),
              HEX.formatHex(sums, at + 80, at + 180),
              HEX.formatHex(sums, at + 180, at + 280));
    }
    return List.of(all);
  }

  private static BigInteger u128(ByteBuffer b, int at) {
    BigInteger hi = new BigInteger(Long.toUnsignedString(b.getLong(at)));
    BigInteger lo = new BigInteger(Long.toUnsignedString(b.getLong(at + 8)));
    return hi.shiftLeft(64).or(lo);
  }

  /**
   * {@code valsort -s}: the summaries of consecutive partitions folded into the summary of their
   * concatenation. Counts and checksums add; at each boundary the last key so far and the next
   * partition's first key count a duplicate when equal and an unordered record when descending; the
   * first unordered index becomes global, the earliest kept.
   */
  static ReferenceValsort combine(List<ReferenceValsort> parts) {
    ReferenceValsort acc = parts.get(0);
    for (ReferenceValsort p : parts.subList(1, parts.size())) {
      BigInteger unordered = acc.unordered.add(p.unordered);
      BigInteger duplicates = acc.duplicates.add(p.duplicates);
      BigInteger firstUnordered = acc.firstUnordered;
      boolean none = acc.unordered.signum() == 0;
      int c = compareKeys(HEX.parseHex(acc.last), 0, HEX.parseHex(p.first), 0);
      if (c == 0) {
        duplicates = duplicates.add(BigInteger.ONE);
      } else if (c > 0) {
        unordered = unordered.add(BigInteger.ONE);
        if (none) {
          firstUnordered = acc.records;
          none = false;
        }
      }
      if (none && p.unordered.signum() > 0) {
        firstUnordered = acc.records.add(p.firstUnordered);
      }
      acc =
          new ReferenceValsort(
              firstUnordered,
              unordered,
              acc.records.add(p.records),
              duplicates,
              acc.checksum.add(p.checksum).mod(MOD),
              acc.first,
              p.last);
    }
    return acc;
  }

  private static int compareKeys(byte[] a, int at, byte[] b, int bt) {
    return Arrays.compareUnsigned(a, at, at + KEY, b, bt, bt + KEY);
  }

  @Override
  public String toString() {
    return "records "
        + records
        + ", checksum "
        + checksum.toString(16)
        + ", duplicates "
        + duplicates
        + ", unordered "
        + unordered
        + " (first "
        + firstUnordered
        + ")";
  }
}
