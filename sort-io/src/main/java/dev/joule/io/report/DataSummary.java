package dev.joule.io.report;

/**
 * The valsort-style numbers of one side of a sort (its input or its output). A correct sort has
 * equal record counts, checksums and duplicate counts on both sides, and an ordered output.
 *
 * @param records number of records
 * @param checksum the sum of per-record CRC-32s, lower-case hex as valsort prints it
 * @param duplicates adjacent equal keys in sorted order (computed for the output; for the input it
 *     is the count the output must reproduce, or -1 when the input side cannot know it)
 * @param ordered whether the records were in key order (only meaningful for the output)
 */
public record DataSummary(long records, String checksum, long duplicates, boolean ordered) {
  void appendJson(JsonWriter w, String name) {
    w.beginObject(name)
        .field("records", records)
        .field("checksum", checksum)
        .field("duplicates", duplicates)
        .field("ordered", ordered)
        .endObject();
  }
}
