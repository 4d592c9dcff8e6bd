package dev.joule.io.prefetch;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.memory.Alignment;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockFile;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Random access to the entries of a run file for {@code core.merge.MergeSplitter}: entry i is found
 * from the descriptor ({@link RunDescriptor#locate}: arithmetic for fixed-size entries, the page
 * table and a scan within one page for variable ones) and read from the 4096-byte pages that hold
 * it, through a small page cache (the splitter's binary searches keep probing the same few pages as
 * they converge).
 *
 * <p>Pages are read without block verification (the merge verifies every block it reads); a corrupt
 * page could only misplace a cut, and a misplaced cut shows up in the final merge's self-validation
 * (order, count and checksum), so it cannot publish a wrong output. Entry lengths are the
 * exception: one that points outside the run's blocks is a {@link CorruptRunException} here, since
 * reading by it would fail with an index error or allocate up to 2 GiB for one entry.
 *
 * <p>Memory: at most {@link #MAX_PAGES} heap pages of 4096 bytes plus one borrowed aligned buffer,
 * and a copy of the last entry read. Not thread-safe (one splitter thread). The file is borrowed.
 */
public final class RunFileView implements SortedRunView {
  /** Cached pages per view: 256 × 4 KiB = 1 MiB, more than a k-way split converging touches. */
  public static final int MAX_PAGES = 256;

  private static final int PAGE = Alignment.BYTES;
  private final BlockFile file;
  private final RunDescriptor d;
  private final EntryLayout layout;
  private final TieBreaker tie;
  private final ByteBuffer page; // aligned, PAGE bytes
  private final Map<Long, byte[]> cache = new HashMap<>();
  private long lastIndex = -1;
  private ByteBuffer last;

  /**
   * A view of run {@code d} stored in {@code file}, reading pages into {@code pageBuffer}, ordered
   * with {@code tie} among equal keys (null: none).
   */
  public RunFileView(BlockFile file, RunDescriptor d, ByteBuffer pageBuffer, TieBreaker tie) {
    this.file = file;
    this.d = d;
    this.layout = d.layout();
    this.tie = tie;
    this.page = pageBuffer;
  }

  @Override
  public long size() {
    return d.recordCount();
  }

  @Override
  public int compare(long index, Probe probe) {
    ByteBuffer e = entry(index);
    return MergeOrder.compareToProbe(e, 0, layout, probe, tie);
  }

  @Override
  public Probe probe(long index) {
    return MergeOrder.probeOf(entry(index), 0, layout, tie != null);
  }

  /**
   * Record bytes (without keys and headers) of the entries before entry {@code index}: where the
   * output of a part of a parallel merge that starts at {@code index} of this run begins, less the
   * framing. From the page table's sums, then a scan of the headers within one page.
   */
  public long recordBytesBefore(long index) {
    if (index >= d.recordCount()) {
      return d.recordBytes();
    }
    if (layout.fixedSize()) {
      return index * layout.recordSize();
    }
    long sum = d.recordBytesBeforeLocated(index);
    long[] at = d.locate(index);
    int block = (int) at[0];
    int offset = (int) at[1];
    for (long i = at[2]; i < index; i++) {
      sum += layout.recordLength(header(block, offset), 0);
      offset = next(block, offset);
    }
    return sum;
  }

  /** Offset of the entry after the one at {@code offset} of {@code block}, in the same block. */
  private int next(int block, int offset) {
    long n = (long) offset + entryLength(block, offset);
    if (n >= d.payload()) {
      throw corrupt(block, offset, "an entry runs past its block, where more entries should start");
    }
    return (int) n;
  }

  /**
   * A heap copy of entry {@code index}, from index 0. The last one is kept: the splitter probes a
   * run that holds one line larger than an arena at its only index in every round, and reading
   * those megabytes again each time made such a split take seconds (ParsedSortTest's 6 MiB lines:
   * 18 s).
   */
  private ByteBuffer entry(long index) {
    if (index == lastIndex) {
      return last;
    }
    last = null; // at most one copy held while the next is read
    lastIndex = -1;
    long[] at = d.locate(index);
    int block = (int) at[0];
    int offset = (int) at[1];
    for (long i = at[2]; i < index; i++) {
      offset = next(block, offset);
    }
    int len = entryLength(block, offset);
    byte[] bytes = new byte[len];
    read(block, offset, bytes, len);
    last = ByteBuffer.wrap(bytes);
    lastIndex = index;
    return last;
  }

  /**
   * The length of the entry at {@code offset} of {@code block}, from its header; one that would end
   * past the run's last block is corrupt.
   */
  private int entryLength(int block, int offset) {
    if (layout.fixedSize()) {
      return layout.fixedEntrySize();
    }
    ByteBuffer head = header(block, offset);
    int record = layout.recordLength(head, 0);
    int key = layout.storesKey() ? layout.keyLength(head, 0) : 0;
    long room = (long) (d.blockCount() - block) * d.payload() - offset;
    if (!layout.plausible(record, key) || layout.entryLength(record, key) > room) {
      throw corrupt(
          block,
          offset,
          "an entry of record length " + record + " and key length " + key + " does not fit");
    }
    return layout.entryLength(record, key);
  }

  private UncheckedIOException corrupt(int block, int offset, String what) {
    return new UncheckedIOException(
        new CorruptRunException(
            file.path(), d.blockOffset(block) + offset, "block " + block + ": " + what));
  }

  /**
   * The header (record and key lengths) of the variable entry at {@code offset} of {@code block}.
   */
  private ByteBuffer header(int block, int offset) {
    byte[] head = new byte[8]; // the longest header: record and key lengths
    int n = (int) Math.min(head.length, (long) d.payload() - offset);
    read(block, offset, head, n);
    return ByteBuffer.wrap(head);
  }

  /**
   * Copies {@code n} bytes of the entry data that starts at {@code offset} of {@code block} into
   * {@code dst}: an entry larger than a block continues at the start of the following blocks.
   */
  private void read(int block, int offset, byte[] dst, int n) {
    int payload = d.payload();
    int done = 0;
    int b = block;
    int o = offset;
    while (done < n) {
      int m = Math.min(n - done, payload - o);
      copy(d.blockOffset(b) + o, dst, done, m);
      done += m;
      b++;
      o = 0;
    }
  }

  private void copy(long pos, byte[] dst, int at, int n) {
    int done = 0;
    while (done < n) {
      long p = pos + done;
      byte[] pg = page(p / PAGE);
      int in = (int) (p % PAGE);
      int m = Math.min(n - done, PAGE - in);
      System.arraycopy(pg, in, dst, at + done, m);
      done += m;
    }
  }

  private byte[] page(long pageNo) {
    byte[] p = cache.get(pageNo);
    if (p != null) {
      return p;
    }
    if (cache.size() >= MAX_PAGES) {
      cache.clear();
    }
    try {
      page.clear().limit(PAGE); // a larger buffer must not read past the page
      int got = file.read(pageNo * PAGE, page);
      if (got <= 0) {
        throw new CorruptRunException(
            file.path(), pageNo * PAGE, "run file ends before page " + pageNo);
      }
      p = new byte[PAGE];
      page.flip().get(p, 0, got);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    cache.put(pageNo, p);
    return p;
  }
}
