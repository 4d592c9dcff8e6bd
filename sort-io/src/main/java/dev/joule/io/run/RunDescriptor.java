package dev.joule.io.run;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.KeyPrefix;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.FileParts;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the merge needs to know about one run file without reading its data: the entry layout, the
 * block geometry, the entry count, the valsort checksum of its records, and per block the number of
 * entries that start in it and the first {@value RunLayout#FIRST_KEY_BYTES} bytes of its first key
 * (the STXXL "trigger" from which the prefetcher computes the order in which the merge will need
 * the blocks). For entries of varying size it also holds the page table that finds entry {@code i}
 * without reading the blocks before it ({@link #locate}).
 *
 * <p>Memory: about 90 bytes per block plus 8 per 4096-byte page of variable-size entries. Immutable
 * and thread-safe.
 */
public final class RunDescriptor {
  private final FileParts parts;
  private final EntryLayout layout;
  private final int blockSize;
  private final long entryCount;
  private final int lastBlockLength;
  private final long checksumHi;
  private final long checksumLo;
  private final int[] entriesStarting;
  private final long[] firstEntry; // index of the first entry starting at or after block k
  private final int[] firstKeyLength;
  private final byte[][] firstKey; // at most FIRST_KEY_BYTES each
  private final long[] firstKeyPrefix;
  private final long[] pageEntry; // variable-size entries only, else null
  private final int[] pageOffset;
  private final long[] pageRecordBytes;
  private final long recordBytes;
  private final BlockCodec codec;
  private final int[] storedLength; // per block: bytes on disk
  private final long[] storedOffset; // per block, and the footer's offset at [blockCount]
  private final RunCompression compression; // the sort's, for scratch buffers; null: none

  RunDescriptor(
      FileParts parts,
      EntryLayout layout,
      int blockSize,
      long entryCount,
      int lastBlockLength,
      long checksumHi,
      long checksumLo,
      int[] entriesStarting,
      int[] firstKeyLength,
      byte[][] firstKey,
      long[] pageEntry,
      int[] pageOffset,
      long[] pageRecordBytes,
      long recordBytes,
      BlockCodec codec,
      int[] storedLength,
      RunCompression compression) {
    this.parts = parts;
    this.codec = codec;
    this.compression = compression;
    this.storedLength = storedLength.clone();
    this.layout = layout;
    this.blockSize = blockSize;
    this.entryCount = entryCount;
    this.lastBlockLength = lastBlockLength;
    this.checksumHi = checksumHi;
    this.checksumLo = checksumLo;
    this.entriesStarting = entriesStarting.clone();
    this.firstKeyLength = firstKeyLength.clone();
    this.firstKey = firstKey.clone();
    this.pageEntry = pageEntry == null ? null : pageEntry.clone();
    this.pageOffset = pageOffset == null ? null : pageOffset.clone();
    this.pageRecordBytes = pageRecordBytes == null ? null : pageRecordBytes.clone();
    this.recordBytes = recordBytes;
    int n = entriesStarting.length;
    this.storedOffset = new long[n + 1];
    storedOffset[0] = RunLayout.HEADER_SIZE;
    for (int k = 0; k < n; k++) {
      storedOffset[k + 1] = storedOffset[k] + storedLength[k];
    }
    this.firstEntry = new long[n + 1];
    this.firstKeyPrefix = new long[n];
    for (int k = 0; k < n; k++) {
      firstEntry[k + 1] = firstEntry[k] + entriesStarting[k];
      byte[] key = firstKey[k];
      firstKeyPrefix[k] = KeyPrefix.of(key, 0, Math.min(firstKeyLength[k], key.length));
    }
  }

  /** The run file (its first segment when striped). */
  public Path path() {
    return parts.path();
  }

  /** Every segment of the run file and its striping. */
  public FileParts parts() {
    return parts;
  }

  /** How entries (records and their keys) are laid out in the run. */
  public EntryLayout layout() {
    return layout;
  }

  /** Bytes of a full data block (a multiple of 4096); the largest buffer a block read needs. */
  public int blockSize() {
    return blockSize;
  }

  /** Entry bytes a full block holds. */
  public int payload() {
    return RunLayout.payload(blockSize);
  }

  /** Entries in the whole run. */
  public long recordCount() {
    return entryCount;
  }

  /** Number of data blocks. */
  public int blockCount() {
    return entriesStarting.length;
  }

  /** The valsort checksum (sum of per-record CRC-32) of the run's records. */
  public RecordChecksum checksum() {
    return RecordChecksum.of(checksumHi, checksumLo);
  }

  /** File offset of block {@code k}: blocks follow each other as stored (compressed or not). */
  public long blockOffset(int k) {
    return storedOffset[k];
  }

  /**
   * Bytes of block {@code k} uncompressed (a multiple of 4096): what a buffer needs to read it. A
   * block stored raw has this length on disk too.
   */
  public int blockLength(int k) {
    return k == blockCount() - 1 ? lastBlockLength : blockSize;
  }

  /** Bytes of block {@code k} on disk (a multiple of 4096, at most {@link #blockLength}). */
  public int storedLength(int k) {
    return storedLength[k];
  }

  /** Whether block {@code k} is stored compressed. */
  public boolean compressed(int k) {
    return storedLength[k] < blockLength(k);
  }

  /** The codec the run's blocks may be compressed with ({@link BlockCodec#NONE} if none). */
  public BlockCodec codec() {
    return codec;
  }

  /** The sort's run compression (its scratch buffers and counters), or null. */
  public RunCompression compression() {
    return compression;
  }

  /** Bytes of all the data blocks on disk. */
  public long storedBytes() {
    return storedOffset[blockCount()] - RunLayout.HEADER_SIZE;
  }

  /** Bytes of all the data blocks uncompressed. */
  public long rawBytes() {
    int n = blockCount();
    return n == 0 ? 0 : (long) (n - 1) * blockSize + lastBlockLength;
  }

  /** Entries whose first byte is in block {@code k} (0 for the continuation of a large entry). */
  public int entriesStarting(int k) {
    return entriesStarting[k];
  }

  /** Index of the first entry that starts in block {@code k} or later. */
  public long firstEntryOf(int k) {
    return firstEntry[k];
  }

  /** The block in which entry {@code i} starts ({@code 0 <= i < recordCount()}). */
  public int blockOf(long i) {
    int lo = 0;
    int hi = blockCount() - 1;
    while (lo < hi) { // the last block k with firstEntry[k] <= i and entries starting in it
      int mid = (lo + hi + 1) >>> 1;
      if (firstEntry[mid] <= i) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (entriesStarting[lo] == 0) {
      lo--; // continuation blocks share their firstEntry with the next entry's block
    }
    return lo;
  }

  /**
   * Where entry {@code i} starts: {@code {block, offset in the block}} for fixed-size entries, or
   * the nearest entry at or before it whose position is known, {@code {block, offset, its index}},
   * for variable ones (the caller skips the entries between, all in the same 4096-byte page).
   */
  public long[] locate(long i) {
    if (i < 0 || i >= entryCount) {
      throw new IndexOutOfBoundsException("entry " + i + " of " + entryCount);
    }
    if (pageEntry == null) {
      int per = layout.fixedEntrySize() == 0 ? 1 : payload() / layout.fixedEntrySize();
      return new long[] {i / per, (i % per) * layout.fixedEntrySize(), i};
    }
    // The last page whose (first starting, or next) entry index is at or before i: page indices
    // never decrease, and a page without a start carries the next entry's index, so that page
    // holds i's start or an earlier start in the same page.
    int lo = 0;
    int hi = pageEntry.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (pageEntry[mid] <= i) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (pageOffset[lo] == RunLayout.NO_ENTRY) {
      lo--;
    }
    long data = (long) lo * dev.joule.core.memory.Alignment.BYTES + pageOffset[lo];
    return new long[] {data / blockSize, data % blockSize, pageEntry[lo]};
  }

  /** The {@link KeyPrefix} of the first key starting in block {@code k} (0 if none starts). */
  public long firstKeyPrefix(int k) {
    return firstKeyPrefix[k];
  }

  /** Length of the first key starting in block {@code k} (the full key, not what is kept). */
  public int firstKeyLength(int k) {
    return firstKeyLength[k];
  }

  /**
   * The first {@value RunLayout#FIRST_KEY_BYTES} bytes (or fewer) of block {@code k}'s first key.
   */
  public byte[] firstKey(int k) {
    return firstKey[k].clone();
  }

  byte[] firstKeyShared(int k) {
    return firstKey[k];
  }

  /**
   * Compares the first key of block {@code k} with that of block {@code j} of {@code other} as far
   * as the footers keep them, in the merge's key order (unsigned bytes, a key that is a prefix of
   * another first). Zero when the keys are equal, and also when both are longer than the {@value
   * RunLayout#FIRST_KEY_BYTES} bytes kept and those agree: the footer cannot tell such keys apart.
   * Does not allocate.
   */
  public int compareFirstKeys(int k, RunDescriptor other, int j) {
    byte[] a = firstKey[k];
    byte[] b = other.firstKey[j];
    int la = firstKeyLength[k];
    int lb = other.firstKeyLength[j];
    int c = Arrays.compareUnsigned(a, 0, Math.min(la, a.length), b, 0, Math.min(lb, b.length));
    if (c != 0) {
      return c;
    }
    // Equal kept bytes: a key of exactly FIRST_KEY_BYTES is a prefix of a longer one, so it goes
    // first; between two longer keys the bytes after the kept ones are unknown, so they tie.
    int cap = RunLayout.FIRST_KEY_BYTES + 1;
    return Integer.compare(Math.min(la, cap), Math.min(lb, cap));
  }

  /**
   * Compares the first key of block {@code k} with {@code key} (a whole key) in the merge's key
   * order, as far as the footer tells: negative or positive only when the keys differ within the
   * {@value RunLayout#FIRST_KEY_BYTES} bytes kept or in length where the kept bytes are the whole
   * first key; zero when they are equal, and when the footer cannot tell (a longer first key that
   * agrees with {@code key} on the bytes kept). Does not allocate.
   */
  public int compareFirstKeyTo(int k, byte[] key) {
    byte[] a = firstKey[k];
    int la = firstKeyLength[k];
    int kept = Math.min(la, a.length);
    int m = Math.min(kept, key.length);
    int c = Arrays.compareUnsigned(a, 0, m, key, 0, m);
    if (c != 0) {
      return c;
    }
    if (kept == la) { // the whole first key: a prefix of the other goes first
      return Integer.compare(la, key.length);
    }
    // the first key is longer than the bytes kept: it follows a key that ends within them
    return key.length <= kept ? 1 : 0;
  }

  /** Bytes of all the run's records (without keys and headers). */
  public long recordBytes() {
    return recordBytes;
  }

  /**
   * Record bytes of the entries before the first one that {@link #locate} names for entry {@code i}
   * (its third element); for fixed-size records the record bytes before entry {@code i}.
   */
  public long recordBytesBeforeLocated(long i) {
    if (pageEntry == null) {
      return i * layout.recordSize();
    }
    long[] at = locate(i);
    long data = at[0] * blockSize + at[1];
    return pageRecordBytes[(int) (data / dev.joule.core.memory.Alignment.BYTES)];
  }

  long[] pageRecordBytes() {
    return pageRecordBytes;
  }

  long[] pageEntries() {
    return pageEntry;
  }

  int[] pageOffsets() {
    return pageOffset;
  }

  /** Number of 4096-byte pages in the page table (0 for fixed-size entries). */
  int pageCount() {
    return pageEntry == null ? 0 : pageEntry.length;
  }

  /**
   * Bytes of entries in the run: exact for fixed-size entries; for variable ones the data blocks'
   * size (entries plus block padding), which is what merge plans weigh runs by.
   */
  public long dataBytes() {
    int es = layout.fixedEntrySize();
    return es > 0 ? entryCount * es : rawBytes();
  }

  /** Offset of the footer region: the end of the data blocks. */
  public long footerOffset() {
    return storedOffset[blockCount()];
  }

  /** Total file size. */
  public long fileSize() {
    return footerOffset() + RunLayout.footerLength(blockCount(), pageCount());
  }

  @Override
  public String toString() {
    return "run "
        + parts
        + " ("
        + entryCount
        + " entries in "
        + blockCount()
        + " blocks of "
        + blockSize
        + ", "
        + layout
        + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RunDescriptor d
        && d.parts.equals(parts)
        && d.entryCount == entryCount
        && d.checksumHi == checksumHi
        && d.checksumLo == checksumLo
        && Arrays.equals(d.entriesStarting, entriesStarting);
  }

  @Override
  public int hashCode() {
    return parts.hashCode() * 31 + Long.hashCode(entryCount);
  }
}
