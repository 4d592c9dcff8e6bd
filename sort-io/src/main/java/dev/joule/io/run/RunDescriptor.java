package dev.joule.io.run;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.file.Path;

/**
 * What the merge needs to know about one run file without reading its data: the record format, the
 * block geometry, the record count, the valsort checksum of its records, and the first-key prefix
 * of every block (the STXXL "trigger" from which the prefetcher computes the order in which the
 * merge will need the blocks).
 *
 * <p>Memory: one {@code long} per block. Immutable and thread-safe.
 */
public final class RunDescriptor {
  private final Path path;
  private final FixedLengthFormat format;
  private final int blockSize;
  private final int recordsPerBlock;
  private final long recordCount;
  private final int lastBlockLength;
  private final long checksumHi;
  private final long checksumLo;
  private final long[] firstKeyPrefixes;

  RunDescriptor(
      Path path,
      FixedLengthFormat format,
      int blockSize,
      long recordCount,
      int lastBlockLength,
      long checksumHi,
      long checksumLo,
      long[] firstKeyPrefixes) {
    this.path = path;
    this.format = format;
    this.blockSize = blockSize;
    this.recordsPerBlock = RunLayout.recordsPerBlock(blockSize, format.recordSize());
    this.recordCount = recordCount;
    this.lastBlockLength = lastBlockLength;
    this.checksumHi = checksumHi;
    this.checksumLo = checksumLo;
    this.firstKeyPrefixes = firstKeyPrefixes.clone();
  }

  /** The run file. */
  public Path path() {
    return path;
  }

  /** Record size and key of the records in the run. */
  public FixedLengthFormat format() {
    return format;
  }

  /** Bytes of a full data block (a multiple of 4096); the largest buffer a block read needs. */
  public int blockSize() {
    return blockSize;
  }

  /** Records in every block but the last. */
  public int recordsPerBlock() {
    return recordsPerBlock;
  }

  /** Records in the whole run. */
  public long recordCount() {
    return recordCount;
  }

  /** Number of data blocks. */
  public int blockCount() {
    return firstKeyPrefixes.length;
  }

  /** The valsort checksum (sum of per-record CRC-32) of the run's records. */
  public RecordChecksum checksum() {
    return RecordChecksum.of(checksumHi, checksumLo);
  }

  /** File offset of block {@code k}. */
  public long blockOffset(int k) {
    return RunLayout.HEADER_SIZE + (long) k * blockSize;
  }

  /** Bytes of block {@code k} on disk (a multiple of 4096). */
  public int blockLength(int k) {
    return k == blockCount() - 1 ? lastBlockLength : blockSize;
  }

  /** Records in block {@code k}. */
  public int recordsInBlock(int k) {
    if (k < 0 || k >= blockCount()) {
      throw new IndexOutOfBoundsException("block " + k + " of " + blockCount());
    }
    return k == blockCount() - 1
        ? (int) (recordCount - (long) k * recordsPerBlock)
        : recordsPerBlock;
  }

  /** The {@link dev.joule.core.index.KeyPrefix} of the first record of block {@code k}. */
  public long firstKeyPrefix(int k) {
    return firstKeyPrefixes[k];
  }

  /** Offset of the footer region: the end of the data blocks. */
  public long footerOffset() {
    return blockCount() == 0
        ? RunLayout.HEADER_SIZE
        : blockOffset(blockCount() - 1) + lastBlockLength;
  }

  /** Total file size. */
  public long fileSize() {
    return footerOffset() + RunLayout.footerLength(blockCount());
  }

  @Override
  public String toString() {
    return "run "
        + path
        + " ("
        + recordCount
        + " records in "
        + blockCount()
        + " blocks of "
        + blockSize
        + ")";
  }
}
