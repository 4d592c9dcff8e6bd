package dev.joule.io.run;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.memory.Alignment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** Constants and arithmetic of run format v3 (see the package documentation). Stateless. */
final class RunLayout {
  static final byte[] MAGIC = "JOULERUN".getBytes(StandardCharsets.US_ASCII);
  static final byte[] FOOTER_MAGIC = "JRUNFOOT".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 3;
  static final int HEADER_SIZE = 4096;

  /** Bytes at the end of every block: used bytes, entries starting in it, CRC32C. */
  static final int BLOCK_TRAILER = 12;

  /**
   * Bytes at the end of a compressed block: the compressed length, then the raw block's used bytes,
   * entry count, and the CRC32C of the stored bytes.
   */
  static final int COMPRESSED_TRAILER = 16;

  /** Fixed fields at the start of the footer, before the per-block table. */
  static final int FOOTER_FIXED = 56;

  /** Bytes of a block's first key kept in the footer (the prefetch schedule's trigger). */
  static final int FIRST_KEY_BYTES = 64;

  /**
   * Per-block footer entry: entries starting in the block, first key length, the block's stored
   * length, first key bytes.
   */
  static final int FOOTER_PER_BLOCK = 12 + FIRST_KEY_BYTES;

  /**
   * Per-page footer entry (variable-size entries): first entry starting there, its offset, and the
   * record bytes of all entries before it.
   */
  static final int FOOTER_PER_PAGE = 16;

  /** Trailer at the end of the footer region: footer offset, region length, CRC32C. */
  static final int FOOTER_TRAILER = 16;

  /** Offset of a page without an entry start in the page table. */
  static final int NO_ENTRY = -1;

  // header field offsets
  static final int H_VERSION = 8;
  static final int H_HEADER_SIZE = 12;
  static final int H_KEY_PLACE = 16;
  static final int H_RECORD_SIZE = 20;
  static final int H_KEY_OFFSET = 24;
  static final int H_KEY_LENGTH = 28;
  static final int H_BLOCK_SIZE = 32;
  static final int H_CODEC = 36;
  static final int H_CRC = HEADER_SIZE - 4;

  // footer field offsets
  static final int F_ENTRY_COUNT = 8;
  static final int F_SUM_HI = 16;
  static final int F_SUM_LO = 24;
  static final int F_BLOCK_COUNT = 32;
  static final int F_LAST_LENGTH = 36;
  static final int F_PAGE_COUNT = 40;
  static final int F_RECORD_BYTES = 48;

  private RunLayout() {}

  /** Entry bytes a block of {@code blockSize} holds. */
  static int payload(int blockSize) {
    return blockSize - BLOCK_TRAILER;
  }

  /** Length on disk of a last block whose entries use {@code used} bytes: rounded to pages. */
  static int lastBlockLength(int used, int blockSize) {
    return (int) Math.min(blockSize, Alignment.roundUp((long) used + BLOCK_TRAILER));
  }

  /** Footer bytes for the given tables: a long, since a forged footer may claim any counts. */
  static long footerLength(int blockCount, int pageCount) {
    return Alignment.roundUp(
        FOOTER_FIXED
            + (long) FOOTER_PER_BLOCK * blockCount
            + (long) FOOTER_PER_PAGE * pageCount
            + FOOTER_TRAILER);
  }

  /**
   * A page row's entry index from the low 32 bits the file keeps and the previous row's index: the
   * indexes never decrease and grow by far less than 2^32 from one page to the next (a 4096-byte
   * page starts at most 512 entries), so the unsigned difference of the low bits is the exact step.
   * Runs of up to 2^31 − 1 entries have the same bytes as if the field were the whole index.
   */
  static long unwrapEntryIndex(long previous, int low) {
    return previous + ((low - previous) & 0xFFFFFFFFL);
  }

  /** Whether entries of {@code layout} need the page table (they vary in size). */
  static boolean pageTable(EntryLayout layout) {
    return !layout.fixedSize();
  }

  /** The header field encoding of a layout's key place. */
  static int placeCode(EntryLayout layout) {
    return layout.place().ordinal();
  }

  /** CRC32C of {@code [from, to)} of {@code b} (absolute indices; {@code b} is not modified). */
  static int crc(ByteBuffer b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b.duplicate().limit(to).position(from));
    return (int) c.getValue();
  }
}
