package dev.joule.io.run;

import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.KeyPrefix;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writes one sorted run in format v1 (see the package documentation): records are laid out straight
 * into the write-behind buffers (one copy, the gather from the arena), each block gets its record
 * count and CRC32C when it is full, and {@link #finish()} writes the last block and the footer with
 * the record count, the valsort checksum and every block's first-key prefix.
 *
 * <p>The writer does not check that records arrive sorted (the run sorter's tests do); it does not
 * fsync: a run file is only useful to the sort that writes it, which restarts from the input after
 * a crash.
 *
 * <p>Memory: the {@link BlockWriter}'s pool buffers (each at least one block) plus one {@code long}
 * per block. Not thread-safe: one thread adds records. The writer does not close the file.
 */
public final class RunWriter implements AutoCloseable {
  private final BlockFile file;
  private final FixedLengthFormat format;
  private final int blockSize;
  private final int recordSize;
  private final int recordsPerBlock;
  private final BlockWriter out;
  private final RecordChecksum checksum = new RecordChecksum();
  private long[] prefixes = new long[16];
  private int blockCount;
  private long recordCount;
  private ByteBuffer block; // the block being filled, a slice of a pool buffer
  private int inBlock;
  private boolean finished;

  /**
   * Starts a run in the new, empty {@code file}; {@code blockSize} must be a multiple of 4096, hold
   * at least one record plus the 8-byte block trailer, and fit in one buffer of {@code pool}.
   */
  public RunWriter(
      BlockFile file, FixedLengthFormat format, int blockSize, BlockPool pool, int maxInFlight)
      throws IOException {
    if (blockSize % Alignment.BYTES != 0 || blockSize <= 0) {
      throw new IllegalArgumentException(
          "block size must be a positive multiple of 4096: " + blockSize);
    }
    if (RunLayout.recordsPerBlock(blockSize, format.recordSize()) < 1) {
      throw new IllegalArgumentException(
          "block size " + blockSize + " cannot hold a record of " + format.recordSize());
    }
    if (blockSize > pool.bufferSize()) {
      throw new IllegalArgumentException(
          "block size " + blockSize + " exceeds pool buffers of " + pool.bufferSize());
    }
    this.file = file;
    this.format = format;
    this.blockSize = blockSize;
    this.recordSize = format.recordSize();
    this.recordsPerBlock = RunLayout.recordsPerBlock(blockSize, recordSize);
    this.out = new BlockWriter(file, pool, maxInFlight);
    try {
      out.write(header(format, blockSize));
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
  }

  static ByteBuffer header(FixedLengthFormat format, int blockSize) {
    ByteBuffer h = ByteBuffer.allocate(RunLayout.HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
    h.put(RunLayout.MAGIC)
        .putInt(RunLayout.H_VERSION, RunLayout.VERSION)
        .putInt(RunLayout.H_HEADER_SIZE, RunLayout.HEADER_SIZE)
        .putInt(RunLayout.H_RECORD_SIZE, format.recordSize())
        .putInt(RunLayout.H_KEY_OFFSET, format.key().offset())
        .putInt(RunLayout.H_KEY_LENGTH, format.key().length())
        .putInt(RunLayout.H_BLOCK_SIZE, blockSize)
        .putInt(
            RunLayout.H_RECORDS_PER_BLOCK,
            RunLayout.recordsPerBlock(blockSize, format.recordSize()));
    h.putInt(RunLayout.H_CRC, RunLayout.crc(h, 0, RunLayout.H_CRC));
    return h.clear();
  }

  /**
   * Appends the records in {@code records} from its position to its limit (a whole number of
   * records); the position advances to the limit.
   */
  public void add(ByteBuffer records) throws IOException {
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    if (records.remaining() % recordSize != 0) {
      throw new IllegalArgumentException(
          records.remaining() + " bytes is not a whole number of " + recordSize + "-byte records");
    }
    int keyOffset = format.key().offset();
    int keyLength = format.key().length();
    while (records.hasRemaining()) {
      if (block == null) {
        block = out.reserve(blockSize);
        inBlock = 0;
        if (blockCount == prefixes.length) {
          prefixes = Arrays.copyOf(prefixes, blockCount * 2);
        }
        prefixes[blockCount++] = KeyPrefix.of(records, records.position() + keyOffset, keyLength);
      }
      int n = Math.min(recordsPerBlock - inBlock, records.remaining() / recordSize);
      int from = records.position();
      checksum.addRecords(records, from, n, recordSize);
      block.put(inBlock * recordSize, records, from, n * recordSize);
      records.position(from + n * recordSize);
      inBlock += n;
      recordCount += n;
      if (inBlock == recordsPerBlock) {
        sealBlock(blockSize);
      }
    }
  }

  /**
   * Appends the records of entries {@code [from, to)} of a sorted {@code index}, gathered straight
   * into the write-behind blocks (the one copy from the arena; no staging buffer). The index's
   * format must be this run's.
   */
  public void add(RecordIndex index, int from, int to, RecordGatherer gatherer) throws IOException {
    add(index, from, to, gatherer, null);
  }

  /**
   * As {@link #add(RecordIndex, int, int, RecordGatherer)}, with the valsort checksum of exactly
   * these records already known ({@code known}, e.g. taken from the arena before sorting: the same
   * records in another order), which saves a CRC-32 pass over the run. If {@code known} were wrong
   * the footer would disagree with the data, which {@link RunReader#verifyAll} and the sort's
   * self-validation both detect. {@code null} computes it.
   */
  public void add(
      RecordIndex index, int from, int to, RecordGatherer gatherer, RecordChecksum known)
      throws IOException {
    if (known != null) {
      checksum.add(known);
    }
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    int keyOffset = format.key().offset();
    int keyLength = format.key().length();
    while (from < to) {
      if (block == null) {
        block = out.reserve(blockSize);
        inBlock = 0;
        if (blockCount == prefixes.length) {
          prefixes = Arrays.copyOf(prefixes, blockCount * 2);
        }
        blockCount++;
      }
      int n = Math.min(recordsPerBlock - inBlock, to - from);
      int at = inBlock * recordSize;
      gatherer.gather(index, from, from + n, block.position(at));
      if (inBlock == 0) {
        prefixes[blockCount - 1] = KeyPrefix.of(block, keyOffset, keyLength);
      }
      if (known == null) {
        checksum.addRecords(block, at, n, recordSize);
      }
      block.position(0);
      from += n;
      inBlock += n;
      recordCount += n;
      if (inBlock == recordsPerBlock) {
        sealBlock(blockSize);
      }
    }
  }

  /** Zeroes the padding, writes the block trailer and releases the block to the writer. */
  private void sealBlock(int length) {
    int used = inBlock * recordSize;
    for (int i = used; i < length - RunLayout.BLOCK_TRAILER; i++) {
      block.put(i, (byte) 0); // pool buffers are reused: padding must not leak old bytes
    }
    block.order(ByteOrder.BIG_ENDIAN);
    block.putInt(length - 8, inBlock);
    block.putInt(length - 4, RunLayout.crc(block, 0, length - 4));
    block = null;
  }

  /**
   * Writes the last block and the footer and waits until everything is written. Returns the run's
   * descriptor. The file stays open.
   */
  public RunDescriptor finish() throws IOException {
    if (finished) {
      throw new IllegalStateException("run " + file.path() + " is finished");
    }
    finished = true;
    int lastLength = blockSize; // a full last block was sealed at full size in add()
    if (block != null) {
      lastLength = RunLayout.lastBlockLength(inBlock, recordSize, blockSize);
      out.retract(blockSize - lastLength);
      sealBlock(lastLength);
    }
    long[] firsts = Arrays.copyOf(prefixes, blockCount);
    RunDescriptor d =
        new RunDescriptor(
            file.path(),
            format,
            blockSize,
            recordCount,
            blockCount == 0 ? 0 : lastLength,
            checksum.hi(),
            checksum.lo(),
            firsts);
    out.write(footer(d));
    out.finish(false);
    out.close();
    return d;
  }

  private static ByteBuffer footer(RunDescriptor d) {
    int len = RunLayout.footerLength(d.blockCount());
    ByteBuffer f = ByteBuffer.allocate(len).order(ByteOrder.BIG_ENDIAN);
    f.put(RunLayout.FOOTER_MAGIC)
        .putLong(RunLayout.F_RECORD_COUNT, d.recordCount())
        .putLong(RunLayout.F_SUM_HI, d.checksum().hi())
        .putLong(RunLayout.F_SUM_LO, d.checksum().lo())
        .putInt(RunLayout.F_BLOCK_COUNT, d.blockCount())
        .putInt(
            RunLayout.F_LAST_LENGTH, d.blockCount() == 0 ? 0 : d.blockLength(d.blockCount() - 1));
    for (int k = 0; k < d.blockCount(); k++) {
      f.putLong(RunLayout.FOOTER_FIXED + 8 * k, d.firstKeyPrefix(k));
    }
    f.putLong(len - 16, d.footerOffset());
    f.putInt(len - 8, len);
    f.putInt(len - 4, RunLayout.crc(f, 0, len - 4));
    return f.clear();
  }

  /**
   * Stops the write-behind thread and returns its buffers (after a failure; {@link #finish()} does
   * it on success).
   */
  @Override
  public void close() throws IOException {
    out.close();
  }
}
