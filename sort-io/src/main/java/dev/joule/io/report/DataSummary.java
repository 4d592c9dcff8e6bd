package dev.joule.io.report;

import dev.joule.core.valsort.RecordChecksum;

/**
 * The valsort-style numbers of one side of a sort (its input or its output). A correct sort has
 * equal record counts, checksums and duplicate counts on both sides, and an ordered output.
 *
 * @param records number of records
 * @param checksum the sum of per-record CRCs, lower-case hex as valsort prints it
 * @param checksumKind {@code crc32}: valsort's sum of CRC-32s (a file sort's, comparable with
 *     {@code joule valsort}); {@code crc32c}: a sort session's own sum of CRC-32Cs (the sort of a
 *     stream), which only the two sides of the same sort can be compared by
 * @param duplicates adjacent equal keys in sorted order (computed for the output; for the input it
 *     is the count the output must reproduce, or -1 when the input side cannot know it)
 * @param ordered whether the records were in key order (only meaningful for the output)
 */
public record DataSummary(
    long records, String checksum, String checksumKind, long duplicates, boolean ordered) {
  /** valsort's kind of sum. */
  public static final String CRC32 = "crc32";

  /** A session's own kind of sum. */
  public static final String CRC32C = "crc32c";

  /** Numbers with valsort's kind of checksum. */
  public DataSummary(long records, String checksum, long duplicates, boolean ordered) {
    this(records, checksum, CRC32, duplicates, ordered);
  }

  /** Numbers with {@code sum}'s value and kind. */
  public static DataSummary of(long records, RecordChecksum sum, long duplicates, boolean ordered) {
    return new DataSummary(
        records, sum.toHex(), sum.isCastagnoli() ? CRC32C : CRC32, duplicates, ordered);
  }

  void appendJson(JsonWriter w, String name) {
    w.beginObject(name)
        .field("records", records)
        .field("checksum", checksum)
        .field("checksumKind", checksumKind)
        .field("duplicates", duplicates)
        .field("ordered", ordered)
        .endObject();
  }
}
