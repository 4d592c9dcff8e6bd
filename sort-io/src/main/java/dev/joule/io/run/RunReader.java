package dev.joule.io.run;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.memory.Alignment;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockFile;
import dev.joule.io.error.CompressProgramException;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a run file in format v3 block by block, by position, verifying everything: {@link #open}
 * checks the size, the header CRC and fields and the footer CRC and its consistency with the file
 * size; {@link #readBlock} checks each block's CRC32C, used bytes, entry count and first key. Any
 * mismatch is a {@link CorruptRunException} naming the file, the offset and the expected and actual
 * values; I/O errors are {@code SortIOException}s.
 *
 * <p>Memory: the descriptor only; blocks are read into the caller's buffers (a 4096-aligned direct
 * buffer reads with O_DIRECT), with the entries contiguous from the buffer's position.
 *
 * <p>Thread-safety: {@link #readBlock} may be called from several threads at once (the merge's
 * prefetcher reads blocks in a computed order). The reader does not close the file.
 */
public final class RunReader {
  private final BlockFile file;
  private final RunDescriptor descriptor;
  private final RunCompression scratch; // where compressed blocks are read; null: heap copies

  private RunReader(BlockFile file, RunDescriptor descriptor, RunCompression scratch) {
    this.file = file;
    this.descriptor = descriptor;
    this.scratch = scratch;
  }

  /**
   * Opens and verifies the run in {@code file}. If {@code expected} is not null, the run's entry
   * layout must equal it. Compressed blocks are read through heap copies (tests, tools).
   */
  public static RunReader open(BlockFile file, EntryLayout expected) throws IOException {
    return open(file, expected, null);
  }

  /**
   * As {@link #open(BlockFile, EntryLayout)}; compressed blocks are read into scratch buffers of
   * {@code compression} (the sort's; null: heap copies), and their decompression time counted
   * there.
   */
  public static RunReader open(BlockFile file, EntryLayout expected, RunCompression compression)
      throws IOException {
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
    EntryLayout layout = headerLayout(path, h);
    if (expected != null && !expected.equals(layout)) {
      throw new CorruptRunException(
          path, RunLayout.H_KEY_PLACE, "run holds " + layout + ", expected " + expected);
    }
    int blockSize = h.getInt(RunLayout.H_BLOCK_SIZE);
    if (blockSize <= RunLayout.BLOCK_TRAILER
        || blockSize % Alignment.BYTES != 0
        || (layout.fixedSize() && RunLayout.payload(blockSize) < layout.fixedEntrySize())) {
      throw new CorruptRunException(path, RunLayout.H_BLOCK_SIZE, "bad block size " + blockSize);
    }
    int code = h.getInt(RunLayout.H_CODEC);
    BlockCodec codec = BlockCodec.ofCode(code, compression == null ? null : compression.codec());
    if (codec == null && code == BlockCodec.PROGRAM_CODE) {
      throw new SortIOException(
          "open run",
          path,
          "its blocks went through a compress program, and this reader was given none");
    }
    if (codec == null) {
      throw new CorruptRunException(
          path, RunLayout.H_CODEC, "unknown block codec " + h.getInt(RunLayout.H_CODEC));
    }
    return new RunReader(
        file, readFooter(file, size, layout, blockSize, codec, compression), compression);
  }

  private static EntryLayout headerLayout(Path path, ByteBuffer h) throws CorruptRunException {
    int place = h.getInt(RunLayout.H_KEY_PLACE);
    EntryLayout.KeyPlace[] places = EntryLayout.KeyPlace.values();
    if (place < 0 || place >= places.length) {
      throw new CorruptRunException(path, RunLayout.H_KEY_PLACE, "bad key place " + place);
    }
    try {
      return EntryLayout.of(
          places[place],
          h.getInt(RunLayout.H_RECORD_SIZE),
          h.getInt(RunLayout.H_KEY_OFFSET),
          h.getInt(RunLayout.H_KEY_LENGTH));
    } catch (IllegalArgumentException e) {
      throw new CorruptRunException(
          path, RunLayout.H_KEY_PLACE, "bad entry layout: " + e.getMessage());
    }
  }

  private static RunDescriptor readFooter(
      BlockFile file,
      long size,
      EntryLayout layout,
      int blockSize,
      BlockCodec codec,
      RunCompression compression)
      throws IOException {
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
    long entries = f.getLong(RunLayout.F_ENTRY_COUNT);
    int blocks = f.getInt(RunLayout.F_BLOCK_COUNT);
    int lastLength = f.getInt(RunLayout.F_LAST_LENGTH);
    int pages = f.getInt(RunLayout.F_PAGE_COUNT);
    if (!Arrays.equals(magic, RunLayout.FOOTER_MAGIC)
        || blocks < 0
        || pages < 0
        || entries < 0
        || len != RunLayout.footerLength(blocks, pages)
        || (pages > 0) != (RunLayout.pageTable(layout) && blocks > 0)) {
      throw new CorruptRunException(
          path,
          footerOffset,
          "inconsistent footer (" + entries + " entries in " + blocks + " blocks)");
    }
    int[] starting = new int[blocks];
    int[] firstKeyLength = new int[blocks];
    byte[][] firstKey = new byte[blocks][];
    int[] storedLength = new int[blocks];
    long sum = 0;
    int at = RunLayout.FOOTER_FIXED;
    for (int k = 0; k < blocks; k++, at += RunLayout.FOOTER_PER_BLOCK) {
      starting[k] = f.getInt(at);
      firstKeyLength[k] = f.getInt(at + 4);
      storedLength[k] = f.getInt(at + 8);
      int raw = k == blocks - 1 ? lastLength : blockSize;
      if (starting[k] < 0
          || firstKeyLength[k] < 0
          || storedLength[k] <= 0
          || storedLength[k] % Alignment.BYTES != 0
          || storedLength[k] > raw
          || (storedLength[k] < raw && !codec.compresses())) {
        throw new CorruptRunException(path, footerOffset + at, "bad block table entry " + k);
      }
      firstKey[k] = new byte[starting[k] == 0 ? 0 : Math.min(firstKeyLength[k], 64)];
      f.get(at + 12, firstKey[k]);
      sum += starting[k];
    }
    long[] pageEntry = pages == 0 ? null : new long[pages];
    int[] pageOffset = pages == 0 ? null : new int[pages];
    long[] pageRecordBytes = pages == 0 ? null : new long[pages];
    for (int p = 0; p < pages; p++, at += RunLayout.FOOTER_PER_PAGE) {
      int low = f.getInt(at);
      pageEntry[p] = p == 0 ? low & 0xFFFFFFFFL : RunLayout.unwrapEntryIndex(pageEntry[p - 1], low);
      pageOffset[p] = f.getInt(at + 4);
      pageRecordBytes[p] = f.getLong(at + 8);
    }
    RunDescriptor d =
        new RunDescriptor(
            file.parts(),
            layout,
            blockSize,
            entries,
            lastLength,
            f.getLong(RunLayout.F_SUM_HI),
            f.getLong(RunLayout.F_SUM_LO),
            starting,
            firstKeyLength,
            firstKey,
            pageEntry,
            pageOffset,
            pageRecordBytes,
            f.getLong(RunLayout.F_RECORD_BYTES),
            codec,
            storedLength,
            compression);
    boolean lastOk =
        blocks == 0
            ? lastLength == 0
            : lastLength > RunLayout.BLOCK_TRAILER
                && lastLength <= blockSize
                && lastLength % Alignment.BYTES == 0;
    long dataPages = d.rawBytes() / Alignment.BYTES; // the page table counts uncompressed pages
    if (sum != entries
        || !lastOk
        || d.footerOffset() != footerOffset
        || (pages > 0 && pages != dataPages)) {
      throw new CorruptRunException(
          path,
          footerOffset + RunLayout.F_LAST_LENGTH,
          "footer geometry does not match the file: "
              + sum
              + " entries in the block table for "
              + entries
              + ", data ends at "
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

  /** The verified geometry, counts, checksum and block first keys of the run. */
  public RunDescriptor descriptor() {
    return descriptor;
  }

  /** The temp stripe (device) that holds block {@code k}. */
  public int stripeOf(int k) {
    return file.stripeAt(descriptor.blockOffset(k));
  }

  /**
   * Reads block {@code k} into {@code dst} (which needs {@code descriptor().blockLength(k)} bytes
   * remaining) and verifies it. Returns {@code dst} with its position unchanged and its limit just
   * after the block's used bytes: whole entries, or one piece of an entry larger than a block
   * ({@link RunDescriptor#entriesStarting} is 1 for its first piece and 0 for the others).
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
    int count;
    int used;
    if (d.compressed(k)) {
      long cu = readCompressed(k, dst, start, offset);
      count = (int) (cu >>> 32);
      used = (int) cu;
    } else {
      int got = file.read(offset, dst);
      if (got != len) {
        throw new CorruptRunException(
            file.path(),
            offset + got,
            "block " + k + " ends early (read " + got + " of " + len + " bytes)");
      }
      ByteBuffer raw = dst.duplicate().order(ByteOrder.BIG_ENDIAN);
      count = trailer(k, raw, start + len, offset + len);
      used = raw.getInt(start + len - 12);
    }
    ByteBuffer b = dst.duplicate().order(ByteOrder.BIG_ENDIAN);
    if (count > 0) {
      EntryLayout layout = d.layout();
      int kl = layout.keyLength(b, start);
      byte[] key = d.firstKeyShared(k);
      int n = key.length;
      if (kl != d.firstKeyLength(k)
          || layout.keyDistance() + n > len
          || dev.joule.core.index.RecordIndex.compareBytes(
                  b, start + layout.keyDistance(), ByteBuffer.wrap(key), 0, n)
              != 0) {
        throw new CorruptRunException(
            file.path(), offset, "block " + k + " first key differs from the footer's");
      }
    }
    checkEntries(k, b, start, offset, count, used);
    dst.position(start).limit(start + used);
    return dst;
  }

  /**
   * Checks the trailer of block {@code k} that ends at index {@code end} of {@code b} (file offset
   * {@code endOffset}): the CRC32C of everything before it, the entry count against the footer's,
   * the used bytes against the block's uncompressed length. Returns the entry count.
   */
  private int trailer(int k, ByteBuffer b, int end, long endOffset) throws CorruptRunException {
    RunDescriptor d = descriptor;
    int stored = b.getInt(end - 4);
    int actual = RunLayout.crc(b, end - d.storedLength(k), end - 4);
    if (stored != actual) {
      throw new CorruptRunException(
          file.path(),
          endOffset - 4,
          "block " + k + " CRC32C",
          stored & 0xFFFFFFFFL,
          actual & 0xFFFFFFFFL);
    }
    int count = b.getInt(end - 8);
    if (count != d.entriesStarting(k)) {
      throw new CorruptRunException(
          file.path(), endOffset - 8, "block " + k + " entry count", d.entriesStarting(k), count);
    }
    int len = d.blockLength(k);
    int used = b.getInt(end - 12);
    if (used < 0 || used > len - RunLayout.BLOCK_TRAILER || (count > 0 && used == 0)) {
      throw new CorruptRunException(
          file.path(), endOffset - 12, "block " + k + " used bytes " + used + " of " + len);
    }
    return count;
  }

  /**
   * Reads compressed block {@code k} into {@code dst} from {@code start}, checks its trailer (the
   * CRC32C covers the stored bytes, so a damaged block never reaches the decompressor),
   * decompresses its entry data into a scratch buffer and copies that back over it. The scratch
   * buffer is held for the decompression and the copy only, not while the device reads (a few of
   * them serve every thread that reads blocks: the memory plan reserves them). Returns the entry
   * count (high 32 bits) and the used bytes (low 32 bits).
   */
  private long readCompressed(int k, ByteBuffer dst, int start, long offset) throws IOException {
    RunDescriptor d = descriptor;
    int len = d.blockLength(k);
    int s = d.storedLength(k);
    dst.limit(start + s);
    int got = file.read(offset, dst);
    dst.position(start).limit(start + len);
    if (got != s) {
      throw new CorruptRunException(
          file.path(),
          offset + got,
          "block " + k + " ends early (read " + got + " of " + s + " bytes)");
    }
    ByteBuffer in = dst.slice(start, s).order(ByteOrder.BIG_ENDIAN);
    int count = trailer(k, in, s, offset + s);
    int used = in.getInt(s - 12);
    int c = in.getInt(s - RunLayout.COMPRESSED_TRAILER);
    if (c <= 0 || c > s - RunLayout.COMPRESSED_TRAILER) {
      throw new CorruptRunException(
          file.path(),
          offset + s - RunLayout.COMPRESSED_TRAILER,
          "block " + k + " compressed length " + c + " of " + s);
    }
    int capacity = len - RunLayout.BLOCK_TRAILER;
    RunCompression.ScratchBuffer sb = scratch == null ? null : scratch.acquire(len);
    try {
      ByteBuffer out = sb == null ? ByteBuffer.allocate(capacity) : sb.buffer;
      long t0 = System.nanoTime();
      int n;
      try {
        n = d.codec().decompress(in, c, out, 0, capacity);
      } catch (IllegalArgumentException e) {
        throw new CorruptRunException(
            file.path(), offset, "block " + k + " does not decompress: " + e.getMessage());
      } catch (ProgramCodec.Failure f) {
        throw new CompressProgramException(
            f.getMessage(), "decompressing block " + k + " of", file.path(), f);
      }
      if (scratch != null) {
        scratch.decompressed(System.nanoTime() - t0);
      }
      if (n != used && d.codec().external()) {
        // the stored bytes passed their CRC32C: the program, not the run, is wrong
        throw new CompressProgramException(
            d.codec().programName() + " -d gave " + n + " bytes where " + used + " went in",
            "decompressing block " + k + " of",
            file.path(),
            null);
      }
      if (n != used) {
        throw new CorruptRunException(
            file.path(),
            offset + s - 12,
            "block " + k + " used bytes " + used + " differ from its " + n + " decompressed bytes");
      }
      dst.put(start, out, 0, n);
      return ((long) count << 32) | used;
    } finally {
      if (sb != null) {
        scratch.release(sb);
      }
    }
  }

  /**
   * The entries starting in block {@code k} must fill its used bytes exactly, except the first
   * piece of an entry larger than a block's payload, which fills the whole payload alone. Without
   * this, a block whose count, used bytes and entry lengths disagree (a writer's bug, or damage
   * written with a matching CRC) passes its CRC and sends the merge's cursor past the block's
   * entries: into garbage read as entries, or past the run's last block, where the cursor waited
   * forever for a block nobody reads.
   */
  private void checkEntries(int k, ByteBuffer b, int start, long offset, int count, int used)
      throws CorruptRunException {
    RunDescriptor d = descriptor;
    EntryLayout layout = d.layout();
    if (layout.fixedSize()) {
      if ((long) count * layout.fixedEntrySize() != used) {
        throw new CorruptRunException(
            file.path(),
            offset + d.blockLength(k) - 12,
            "block "
                + k
                + " used bytes "
                + used
                + " do not hold its "
                + count
                + " entries of "
                + layout.fixedEntrySize()
                + " bytes");
      }
      return;
    }
    if (count == 0) {
      return; // a continuation piece: FileRunCursor checks it against the entry's length
    }
    int end = start + used;
    int at = start;
    for (int e = 0; e < count; e++) {
      long length = entryLength(layout, b, at, end);
      if (length < 0 || at + length > end) {
        if (e == 0 && count == 1 && length > d.payload() && used == d.payload()) {
          return; // the first piece of an entry larger than a block
        }
        throw new CorruptRunException(
            file.path(),
            offset + (at - start),
            "block "
                + k
                + " entry "
                + e
                + " of "
                + count
                + (length < 0 ? " has an impossible length" : " of " + length + " bytes")
                + " runs past the block's "
                + used
                + " used bytes");
      }
      at += (int) length;
    }
    if (at != end) {
      throw new CorruptRunException(
          file.path(),
          offset + (at - start),
          "block "
              + k
              + " entries end at byte "
              + (at - start)
              + " of its "
              + used
              + " used bytes");
    }
  }

  /**
   * The length of the variable entry at {@code at}, or -1 if its header does not fit before {@code
   * end} or states a record or key longer than any entry holds.
   */
  private static long entryLength(EntryLayout layout, ByteBuffer b, int at, int end) {
    if (at + layout.keyDistance() > end) {
      return -1;
    }
    int record = layout.recordLength(b, at);
    int key = layout.storesKey() ? layout.keyLength(b, at) : 0;
    if (!layout.plausible(record, key)) {
      return -1;
    }
    return layout.entryLength(record, key);
  }

  /**
   * Reads every block in order into {@code scratch} (at least one block long) and checks the entry
   * count and the valsort checksum of the records against the footer. Returns the descriptor.
   */
  public RunDescriptor verifyAll(ByteBuffer scratch) throws IOException {
    RunDescriptor d = descriptor;
    EntryLayout layout = d.layout();
    RecordChecksum sum = new RecordChecksum();
    long entries = 0;
    ByteBuffer large = null; // an entry spanning blocks, assembled
    int largeLength = 0;
    for (int k = 0; k < d.blockCount(); k++) {
      ByteBuffer b = readBlock(k, scratch.clear());
      if (large != null) {
        large.put(b); // a continuation piece
        if (large.position() == largeLength) {
          sum.addRecord(large, layout.recordStart(large, 0), layout.recordLength(large, 0));
          large = null;
        }
        continue;
      }
      int at = b.position();
      for (int e = 0; e < d.entriesStarting(k); e++) {
        int elen = layout.entryLength(b, at);
        if (at + elen > b.limit()) { // the first piece of an entry larger than a block
          largeLength = elen;
          large = ByteBuffer.allocate(elen);
          large.put(b);
          entries++;
          break;
        }
        sum.addRecord(b, layout.recordStart(b, at), layout.recordLength(b, at));
        at += elen;
        entries++;
      }
    }
    if (entries != d.recordCount() || large != null || !sum.equals(d.checksum())) {
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
