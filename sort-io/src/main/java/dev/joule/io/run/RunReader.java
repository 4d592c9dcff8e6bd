package dev.joule.io.run;

import dev.joule.core.index.KeyPrefix;
import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.error.CorruptRunException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a run file in format v1 block by block, by position, verifying everything: {@link #open}
 * checks the size, the header CRC and fields and the footer CRC and its consistency with the file
 * size; {@link #readBlock} checks each block's CRC32C, record count and first-key prefix. Any
 * mismatch is a {@link CorruptRunException} naming the file, the offset and the expected and actual
 * values; I/O errors are {@code SortIOException}s.
 *
 * <p>Memory: the descriptor only; blocks are read into the caller's buffers (a 4096-aligned direct
 * buffer reads with O_DIRECT), with the records contiguous from the buffer's position.
 *
 * <p>Thread-safety: {@link #readBlock} may be called from several threads at once (the merge's
 * prefetcher reads blocks in a computed order). The reader does not close the file.
 */
public final class RunReader {
  private final BlockFile file;
  private final RunDescriptor descriptor;

  private RunReader(BlockFile file, RunDescriptor descriptor) {
    this.file = file;
    this.descriptor = descriptor;
  }

  /**
   * Opens and verifies the run in {@code file}. If {@code expected} is not null, the run's record
   * format must equal it.
   */
  public static RunReader open(BlockFile file, FixedLengthFormat expected) throws IOException {
    Path path = file.path();
    long size = file.size();
    if (size < RunLayout.HEADER_SIZE + Alignment.BYTES) {
      throw new CorruptRunException(
          path, size, "file is " + size + " bytes, shorter than header and footer");
    }
    if (size % Alignment.BYTES != 0) {
      throw new CorruptRunException(path, size, "file size " + size + " is not a multiple of 4096");
    }
    ByteBuffer h = readExactly(file, 0, RunLayout.HEADER_SIZE);
    int storedCrc = h.getInt(RunLayout.H_CRC);
    int actualCrc = RunLayout.crc(h, 0, RunLayout.H_CRC);
    if (storedCrc != actualCrc) {
      throw new CorruptRunException(
          path, RunLayout.H_CRC, "header CRC32C", storedCrc & 0xFFFFFFFFL, actualCrc & 0xFFFFFFFFL);
    }
    byte[] magic = new byte[8];
    h.get(0, magic);
    if (!Arrays.equals(magic, RunLayout.MAGIC)) {
      throw new CorruptRunException(path, 0, "not a joule run file (bad magic)");
    }
    if (h.getInt(RunLayout.H_VERSION) != RunLayout.VERSION) {
      throw new CorruptRunException(
          path,
          RunLayout.H_VERSION,
          "unsupported run format version " + h.getInt(RunLayout.H_VERSION));
    }
    FixedLengthFormat format = headerFormat(path, h);
    if (expected != null && !expected.equals(format)) {
      throw new CorruptRunException(
          path, RunLayout.H_RECORD_SIZE, "run holds " + format + ", expected " + expected);
    }
    int blockSize = h.getInt(RunLayout.H_BLOCK_SIZE);
    if (blockSize <= 0
        || blockSize % Alignment.BYTES != 0
        || RunLayout.recordsPerBlock(blockSize, format.recordSize()) < 1
        || h.getInt(RunLayout.H_RECORDS_PER_BLOCK)
            != RunLayout.recordsPerBlock(blockSize, format.recordSize())) {
      throw new CorruptRunException(path, RunLayout.H_BLOCK_SIZE, "bad block size " + blockSize);
    }
    return new RunReader(file, readFooter(file, size, format, blockSize));
  }

  private static FixedLengthFormat headerFormat(Path path, ByteBuffer h)
      throws CorruptRunException {
    try {
      return RecordFormat.fixed(
          h.getInt(RunLayout.H_RECORD_SIZE),
          KeySpec.bytes(h.getInt(RunLayout.H_KEY_OFFSET), h.getInt(RunLayout.H_KEY_LENGTH)));
    } catch (IllegalArgumentException e) {
      throw new CorruptRunException(
          path, RunLayout.H_RECORD_SIZE, "bad record format: " + e.getMessage());
    }
  }

  private static RunDescriptor readFooter(
      BlockFile file, long size, FixedLengthFormat format, int blockSize) throws IOException {
    Path path = file.path();
    ByteBuffer t = readExactly(file, size - RunLayout.FOOTER_TRAILER, RunLayout.FOOTER_TRAILER);
    long footerOffset = t.getLong(0);
    int len = t.getInt(8);
    if (len < Alignment.BYTES
        || len % Alignment.BYTES != 0
        || footerOffset != size - len
        || footerOffset < RunLayout.HEADER_SIZE) {
      throw new CorruptRunException(
          path,
          size - RunLayout.FOOTER_TRAILER,
          "footer trailer says footer at "
              + footerOffset
              + " of length "
              + len
              + " in a file of "
              + size
              + " bytes");
    }
    ByteBuffer f = readExactly(file, footerOffset, len);
    int stored = f.getInt(len - 4);
    int actual = RunLayout.crc(f, 0, len - 4);
    if (stored != actual) {
      throw new CorruptRunException(
          path, size - 4, "footer CRC32C", stored & 0xFFFFFFFFL, actual & 0xFFFFFFFFL);
    }
    byte[] magic = new byte[8];
    f.get(0, magic);
    long records = f.getLong(RunLayout.F_RECORD_COUNT);
    int blocks = f.getInt(RunLayout.F_BLOCK_COUNT);
    int lastLength = f.getInt(RunLayout.F_LAST_LENGTH);
    int rpb = RunLayout.recordsPerBlock(blockSize, format.recordSize());
    long expectBlocks = records < 0 ? -1 : (records + rpb - 1) / rpb;
    if (!Arrays.equals(magic, RunLayout.FOOTER_MAGIC)
        || blocks != expectBlocks
        || len != RunLayout.footerLength(blocks)) {
      throw new CorruptRunException(
          path,
          footerOffset,
          "inconsistent footer (" + records + " records in " + blocks + " blocks)");
    }
    int expectLast =
        blocks == 0
            ? 0
            : RunLayout.lastBlockLength(
                records - (long) (blocks - 1) * rpb, format.recordSize(), blockSize);
    long[] firsts = new long[blocks];
    for (int k = 0; k < blocks; k++) {
      firsts[k] = f.getLong(RunLayout.FOOTER_FIXED + 8 * k);
    }
    RunDescriptor d =
        new RunDescriptor(
            path,
            format,
            blockSize,
            records,
            lastLength,
            f.getLong(RunLayout.F_SUM_HI),
            f.getLong(RunLayout.F_SUM_LO),
            firsts);
    if (lastLength != expectLast || d.footerOffset() != footerOffset) {
      throw new CorruptRunException(
          path,
          footerOffset + RunLayout.F_LAST_LENGTH,
          "footer geometry does not match the file: data ends at "
              + d.footerOffset()
              + ", footer at "
              + footerOffset);
    }
    return d;
  }

  private static ByteBuffer readExactly(BlockFile file, long position, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.BIG_ENDIAN);
    int got = file.read(position, b);
    if (got != n) {
      throw new CorruptRunException(
          file.path(), position + got, "file ends early (read " + got + " of " + n + " bytes)");
    }
    return b.clear();
  }

  /** The verified geometry, counts, checksum and block first-key prefixes of the run. */
  public RunDescriptor descriptor() {
    return descriptor;
  }

  /**
   * Reads block {@code k} into {@code dst} (which needs {@code descriptor().blockLength(k)} bytes
   * remaining) and verifies it. Returns {@code dst} with its position unchanged and its limit just
   * after the block's records, which are contiguous from the position.
   */
  public ByteBuffer readBlock(int k, ByteBuffer dst) throws IOException {
    RunDescriptor d = descriptor;
    int len = d.blockLength(k);
    if (dst.remaining() < len) {
      throw new IllegalArgumentException(
          "block " + k + " needs " + len + " bytes, buffer has " + dst.remaining());
    }
    long offset = d.blockOffset(k);
    int start = dst.position();
    dst.limit(start + len);
    int got = file.read(offset, dst);
    if (got != len) {
      throw new CorruptRunException(
          file.path(),
          offset + got,
          "block " + k + " ends early (read " + got + " of " + len + " bytes)");
    }
    ByteBuffer b = dst.duplicate().order(ByteOrder.BIG_ENDIAN);
    int stored = b.getInt(start + len - 4);
    int actual = RunLayout.crc(b, start, start + len - 4);
    if (stored != actual) {
      throw new CorruptRunException(
          file.path(),
          offset + len - 4,
          "block " + k + " CRC32C",
          stored & 0xFFFFFFFFL,
          actual & 0xFFFFFFFFL);
    }
    int count = b.getInt(start + len - 8);
    if (count != d.recordsInBlock(k)) {
      throw new CorruptRunException(
          file.path(),
          offset + len - 8,
          "block " + k + " record count",
          d.recordsInBlock(k),
          count);
    }
    KeySpec key = d.format().key();
    long prefix = KeyPrefix.of(b, start + key.offset(), key.length());
    if (prefix != d.firstKeyPrefix(k)) {
      throw new CorruptRunException(
          file.path(), offset, "block " + k + " first-key prefix", d.firstKeyPrefix(k), prefix);
    }
    dst.position(start).limit(start + count * d.format().recordSize());
    return dst;
  }

  /**
   * Reads every block in order into {@code scratch} (at least one block long) and checks the record
   * count and valsort checksum against the footer. Returns the descriptor.
   */
  public RunDescriptor verifyAll(ByteBuffer scratch) throws IOException {
    RunDescriptor d = descriptor;
    RecordChecksum sum = new RecordChecksum();
    long records = 0;
    int rs = d.format().recordSize();
    for (int k = 0; k < d.blockCount(); k++) {
      ByteBuffer b = readBlock(k, scratch.clear());
      int n = (b.limit() - b.position()) / rs;
      sum.addRecords(b, b.position(), n, rs); // one view per block, not a slice per record
      records += n;
    }
    if (records != d.recordCount() || !sum.equals(d.checksum())) {
      throw new CorruptRunException(
          file.path(),
          d.footerOffset() + RunLayout.F_SUM_LO,
          "valsort checksum of records",
          d.checksum().lo(),
          sum.lo());
    }
    return d;
  }
}
