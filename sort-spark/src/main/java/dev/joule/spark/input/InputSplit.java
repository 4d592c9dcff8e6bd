package dev.joule.spark.input;

import java.io.Serializable;

/**
 * A range of whole records of one input file: what one map task reads. A plain class rather than a
 * record: Spark's Kryo 4 cannot serialize records.
 */
public final class InputSplit implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int index;
  private final String path;
  private final long firstRecord;
  private final long records;
  private final long firstOrdinal;

  /**
   * @param index the split's position in the plan (input order)
   * @param path the qualified file path (a Hadoop URI)
   * @param firstRecord the range's first record within the file
   * @param records records in the range
   * @param firstOrdinal the global ordinal of the first record: its position in the concatenation
   *     of all inputs, which breaks ties between equal keys
   */
  public InputSplit(int index, String path, long firstRecord, long records, long firstOrdinal) {
    this.index = index;
    this.path = path;
    this.firstRecord = firstRecord;
    this.records = records;
    this.firstOrdinal = firstOrdinal;
  }

  public int index() {
    return index;
  }

  public String path() {
    return path;
  }

  public long firstRecord() {
    return firstRecord;
  }

  public long records() {
    return records;
  }

  public long firstOrdinal() {
    return firstOrdinal;
  }
}
