package dev.joule.spark.output;

import java.io.Serializable;

/**
 * What one reduce task wrote: its part file (and valsort summary) under the attempt's name, and the
 * numbers the driver validates across parts before it publishes anything. A plain class rather than
 * a record: Spark's Kryo 4 cannot serialize records.
 */
public final class PartResult implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int partition;
  private final String partFile;
  private final String summaryFile;
  private final long records;
  private final long checksumHi;
  private final long checksumLo;
  private final long unordered;
  private final long duplicates;
  private final byte[] firstKey;
  private final byte[] lastKey;
  private final byte[] summary;
  private final long writeMillis;
  private final long syncMillis;

  /**
   * @param partition the partition index (the part's number)
   * @param partFile the attempt's part file (a Hadoop path)
   * @param summaryFile the attempt's 280-byte valsort summary file, or null when the layout is not
   *     gensort's
   * @param records records written
   * @param checksumHi upper 64 bits of the part's checksum (sum of the records' CRC-32s)
   * @param checksumLo lower 64 bits of the checksum
   * @param unordered records whose key is smaller than the previous record's (0 when sorted)
   * @param duplicates records whose key equals the previous record's
   * @param firstKey the first record's key, or null for an empty part
   * @param lastKey the last record's key, or null for an empty part
   * @param summary the valsort summary (280 bytes), or null when empty or not gensort's layout
   * @param writeMillis the time from the first record handed to the writer to the synced part
   * @param syncMillis the part of it spent waiting for the file system to make the part durable
   */
  public PartResult(
      int partition,
      String partFile,
      String summaryFile,
      long records,
      long checksumHi,
      long checksumLo,
      long unordered,
      long duplicates,
      byte[] firstKey,
      byte[] lastKey,
      byte[] summary,
      long writeMillis,
      long syncMillis) {
    this.partition = partition;
    this.partFile = partFile;
    this.summaryFile = summaryFile;
    this.records = records;
    this.checksumHi = checksumHi;
    this.checksumLo = checksumLo;
    this.unordered = unordered;
    this.duplicates = duplicates;
    this.firstKey = firstKey;
    this.lastKey = lastKey;
    this.summary = summary;
    this.writeMillis = writeMillis;
    this.syncMillis = syncMillis;
  }

  public int partition() {
    return partition;
  }

  public String partFile() {
    return partFile;
  }

  public String summaryFile() {
    return summaryFile;
  }

  public long records() {
    return records;
  }

  public long checksumHi() {
    return checksumHi;
  }

  public long checksumLo() {
    return checksumLo;
  }

  public long unordered() {
    return unordered;
  }

  public long duplicates() {
    return duplicates;
  }

  public byte[] firstKey() {
    return firstKey;
  }

  public byte[] lastKey() {
    return lastKey;
  }

  public byte[] summary() {
    return summary;
  }

  public long writeMillis() {
    return writeMillis;
  }

  public long syncMillis() {
    return syncMillis;
  }
}
