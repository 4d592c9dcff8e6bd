package dev.joule.io.run;

import dev.joule.core.memory.Alignment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** Constants and arithmetic of run format v1 (see the package documentation). Stateless. */
final class RunLayout {
  static final byte[] MAGIC = "JOULERUN".getBytes(StandardCharsets.US_ASCII);
  static final byte[] FOOTER_MAGIC = "JRUNFOOT".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int HEADER_SIZE = 4096;

  /** Bytes at the end of every block: record count and CRC32C. */
  static final int BLOCK_TRAILER = 8;

  /** Fixed fields at the start of the footer, before the first-key prefixes. */
  static final int FOOTER_FIXED = 40;

  /** Trailer at the end of the footer region: footer offset, region length, CRC32C. */
  static final int FOOTER_TRAILER = 16;

  // header field offsets
  static final int H_VERSION = 8;
  static final int H_HEADER_SIZE = 12;
  static final int H_RECORD_SIZE = 16;
  static final int H_KEY_OFFSET = 20;
  static final int H_KEY_LENGTH = 24;
  static final int H_BLOCK_SIZE = 28;
  static final int H_RECORDS_PER_BLOCK = 32;
  static final int H_CRC = HEADER_SIZE - 4;

  // footer field offsets
  static final int F_RECORD_COUNT = 8;
  static final int F_SUM_HI = 16;
  static final int F_SUM_LO = 24;
  static final int F_BLOCK_COUNT = 32;
  static final int F_LAST_LENGTH = 36;

  private RunLayout() {}

  static int recordsPerBlock(int blockSize, int recordSize) {
    return (blockSize - BLOCK_TRAILER) / recordSize;
  }

  /**
   * Length of a last block holding {@code records}: a full block keeps its size, a partial one
   * shrinks.
   */
  static int lastBlockLength(long records, int recordSize, int blockSize) {
    if (records == recordsPerBlock(blockSize, recordSize)) {
      return blockSize;
    }
    return (int) Alignment.roundUp(records * recordSize + BLOCK_TRAILER);
  }

  static int footerLength(int blockCount) {
    return (int) Alignment.roundUp(FOOTER_FIXED + 8L * blockCount + FOOTER_TRAILER);
  }

  /** CRC32C of {@code [from, to)} of {@code b} (absolute indices; {@code b} is not modified). */
  static int crc(ByteBuffer b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b.duplicate().limit(to).position(from));
    return (int) c.getValue();
  }
}
