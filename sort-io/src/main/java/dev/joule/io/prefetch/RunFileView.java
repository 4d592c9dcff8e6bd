package dev.joule.io.prefetch;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.memory.Alignment;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockFile;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * <p>A search first narrows its window by the blocks' first keys in the footer ({@link
 * #searchFrom}, {@link #searchTo}), so that it reads the block that holds the probe's place, not
 * one per step of a binary search over the whole run: the split of 9 compressed runs of a keyed CSV
 * read 100 MB beyond the runs' 170 MB on a 125 MiB/s temp disk (sort-bench/README.md "Run
 * compression").
 *
 * <p>A block stored compressed is read whole instead, through {@link RunReader#readBlock}
 * (verified), the last one kept decoded on the heap; the raw blocks of the same run are read by
 * pages. Reading every block of a compressed run whole made the split of a final merge in parts
 * read 4 MiB per probe of runs {@code auto} had kept raw (binary gensort records: 1 GB on a 125
 * MiB/s temp disk took 20.7 s against 16.6 s uncompressed, sort-bench/README.md "Run compression").
 *
 * <p>Memory: at most {@link #MAX_PAGES} heap pages of 4096 bytes (and, for a run with compressed
 * blocks, one heap block) plus one borrowed aligned buffer, the copy of the last entry of up to 64
 * KiB read, and a 64 KiB chunk while an entry larger than that is compared in place. A larger entry
 * that must be copied (a probe, or a compare with a tie breaker) is held in the {@link LastEntry}
 * that all views of one split share, under its lock: at most one such copy exists per split, even
 * while the views of a split are searched at once (a probe's own key and record copies come beside
 * it, for as long as the splitter holds the probe).
 *
 * <p>Threads: one thread at a time per view (the splitter hands views between threads with a
 * happens-before edge); the views of one split may be used at once. The file is borrowed; its
 * positional reads are thread-safe.
 */
public final class RunFileView implements SortedRunView {
  /** Cached pages per view: 256 × 4 KiB = 1 MiB, more than a k-way split converging touches. */
  public static final int MAX_PAGES = 256;

  private static final int PAGE = Alignment.BYTES;

  /**
   * Entries longer than this are compared with a probe where they lie, a chunk of {@link
   * #STREAM_CHUNK} bytes at a time, instead of as a copy: lines larger than an arena
   * (ParsedSortTest, 6 MiB lines: the split took 18 s copying each probed line whole).
   */
  private static final int STREAM_ABOVE = 64 << 10;

  private static final int STREAM_CHUNK = 64 << 10;
  private final BlockFile file;
  private final RunDescriptor d;
  private final EntryLayout layout;
  private final TieBreaker tie;
  private final ByteBuffer page; // aligned, PAGE bytes
  private final Map<Long, byte[]> cache = new HashMap<>();
  private final LastEntry last;
  private RunReader reader; // compressed runs: opened on first need
  private ByteBuffer decoded; // compressed runs: the last block read, uncompressed
  private int decodedBlock = -1;
  private int[] starts; // the blocks in which entries start, made on the first search
  private long blocksDecoded; // compressed blocks read whole, for tests
  private long smallIndex = -1; // this view's last copied entry of up to STREAM_ABOVE bytes
  private ByteBuffer smallEntry;

  /**
   * The one copy of an entry over 64 KiB the views of a split keep between probes: the splitter
   * probes a run that holds a single line larger than an arena at that entry in both searches of
   * every round, and reading those megabytes again for each probe made the split of
   * ParsedSortTest's 6 MiB lines take 18 s. One slot for all views, not one per view: k views each
   * holding such a line would hold k of them, beyond the budget (the splitter's memory is not
   * counted). Its lock is held while such a copy is read and compared.
   */
  public static final class LastEntry {
    private RunFileView view;
    private long index;
    private ByteBuffer entry;
  }

  /**
   * A view of run {@code d} stored in {@code file}, reading pages into {@code pageBuffer}, ordered
   * with {@code tie} among equal keys (null: none).
   */
  public RunFileView(BlockFile file, RunDescriptor d, ByteBuffer pageBuffer, TieBreaker tie) {
    this(file, d, pageBuffer, tie, new LastEntry());
  }

  /** As the other constructor, sharing {@code last} with the other views of the same split. */
  public RunFileView(
      BlockFile file, RunDescriptor d, ByteBuffer pageBuffer, TieBreaker tie, LastEntry last) {
    this.last = last;
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
    if (smallIndex == index) {
      return MergeOrder.compareToProbe(smallEntry, 0, layout, probe, tie);
    }
    long[] at = locate(index);
    int block = (int) at[0];
    int offset = (int) at[1];
    int length = entryLength(block, offset);
    if (length <= STREAM_ABOVE) { // the common case takes no lock
      return MergeOrder.compareToProbe(
          keepSmall(index, block, offset, length), 0, layout, probe, tie);
    }
    if (tie == null) {
      synchronized (last) {
        if (last.view == this && last.index == index) { // a probe's entry, compared next
          return MergeOrder.compareToProbe(last.entry, 0, layout, probe, null);
        }
      }
      return compareInPlace(block, offset, probe);
    }
    synchronized (last) {
      return MergeOrder.compareToProbe(
          keepLarge(index, block, offset, length), 0, layout, probe, tie);
    }
  }

  /**
   * {@link MergeOrder#compareToProbe} without a tie breaker for the large entry at {@code offset}
   * of {@code block}, read a chunk at a time from the pages and only as far as the keys agree: a
   * probe of a line larger than an arena against another such line decides on its first bytes,
   * unless the lines are equal.
   */
  private int compareInPlace(int block, int offset, Probe probe) {
    int keyLength = layout.keyLength(header(block, offset), 0);
    byte[] key = probe.key();
    int n = Math.min(keyLength, key.length);
    byte[] chunk = new byte[Math.min(n, STREAM_CHUNK)];
    for (int done = 0; done < n; done += chunk.length) {
      int m = Math.min(chunk.length, n - done);
      read(block, offset, layout.keyStart(0) + done, chunk, m);
      int c = Arrays.compareUnsigned(chunk, 0, m, key, done, done + m);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(keyLength, key.length);
  }

  /**
   * Past every block whose first key sorts before the probe's: their first entries sort before it,
   * and so do all entries before them.
   */
  @Override
  public long searchFrom(long from, long to, Probe probe) {
    int b = firstBlockAfter(probe, false);
    long f = b == 0 ? from : d.firstEntryOf(starts[b - 1]) + 1;
    return Math.min(Math.max(from, f), to);
  }

  /**
   * Up to the first block whose first key sorts after the probe's: that entry and all after it sort
   * after the probe.
   */
  @Override
  public long searchTo(long from, long to, Probe probe) {
    int b = firstBlockAfter(probe, true);
    long t = b == starts.length ? to : d.firstEntryOf(starts[b]);
    return Math.max(from, Math.min(to, t));
  }

  /**
   * The first of the blocks in which entries start whose first key sorts after the probe's ({@code
   * strictly}) or not before it, as far as the footer tells; their count if none.
   */
  private int firstBlockAfter(Probe probe, boolean strictly) {
    int[] s = starts();
    int lo = 0;
    int hi = s.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = d.compareFirstKeyTo(s[mid], probe.key());
      if (strictly ? c > 0 : c >= 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private int[] starts() {
    if (starts == null) {
      int n = 0;
      int[] s = new int[d.blockCount()];
      for (int k = 0; k < s.length; k++) {
        if (d.entriesStarting(k) > 0) {
          s[n++] = k;
        }
      }
      starts = Arrays.copyOf(s, n);
    }
    return starts;
  }

  /** Compressed blocks this view read whole so far. */
  long blocksDecoded() {
    return blocksDecoded;
  }

  @Override
  public Probe probe(long index) {
    if (smallIndex == index) {
      return MergeOrder.probeOf(smallEntry, 0, layout, tie != null);
    }
    long[] at = locate(index);
    int block = (int) at[0];
    int offset = (int) at[1];
    int length = entryLength(block, offset);
    if (length <= STREAM_ABOVE) {
      return MergeOrder.probeOf(keepSmall(index, block, offset, length), 0, layout, tie != null);
    }
    synchronized (last) {
      return MergeOrder.probeOf(keepLarge(index, block, offset, length), 0, layout, tie != null);
    }
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

  /** Where entry {@code index} starts: {block, offset in its payload}. */
  private long[] locate(long index) {
    long[] at = d.locate(index);
    int block = (int) at[0];
    int offset = (int) at[1];
    for (long i = at[2]; i < index; i++) {
      offset = next(block, offset);
    }
    return new long[] {block, offset};
  }

  /** A heap copy of the small entry {@code index}, kept as this view's last one. */
  private ByteBuffer keepSmall(long index, int block, int offset, int length) {
    byte[] bytes = new byte[length];
    read(block, offset, bytes, length);
    smallEntry = ByteBuffer.wrap(bytes);
    smallIndex = index;
    return smallEntry;
  }

  /**
   * A heap copy of the large entry {@code index}: the split's {@link LastEntry} if it holds it,
   * else read into it in place of the copy it held. Called holding the slot's lock.
   */
  private ByteBuffer keepLarge(long index, int block, int offset, int length) {
    if (last.view == this && last.index == index) {
      return last.entry;
    }
    last.view = null;
    last.entry = null; // at most one large copy held while the next is read
    byte[] bytes = new byte[length];
    read(block, offset, bytes, length);
    last.entry = ByteBuffer.wrap(bytes);
    last.index = index;
    last.view = this;
    return last.entry;
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
    read(block, offset, 0, dst, n);
  }

  /**
   * Copies {@code n} bytes of the entry data that starts at {@code offset} of {@code block}, from
   * its byte {@code skip} on, into {@code dst}.
   */
  private void read(int block, int offset, int skip, byte[] dst, int n) {
    int payload = d.payload();
    int done = 0;
    int b = block;
    int o = offset;
    if (skip < payload - offset) {
      o += skip;
    } else {
      int rest = skip - (payload - offset);
      b += 1 + rest / payload;
      o = rest % payload;
    }
    while (done < n) {
      int m = Math.min(n - done, payload - o);
      if (d.compressed(b)) { // a raw block of a compressed run is read by pages as any other
        copyDecoded(b, o, dst, done, m);
      } else {
        copy(d.blockOffset(b) + o, dst, done, m);
      }
      done += m;
      b++;
      o = 0;
    }
  }

  /**
   * Copies from block {@code b} of a run whose blocks may be compressed: the block is read and
   * verified whole ({@link RunReader#readBlock}, so here unlike the pages of a raw run it is
   * checked) and kept decoded until another block is needed.
   */
  private void copyDecoded(int b, int o, byte[] dst, int at, int n) {
    try {
      if (decodedBlock != b) {
        if (reader == null) {
          reader = RunReader.open(file, layout, d.compression());
          decoded = ByteBuffer.allocate(d.blockSize());
        }
        decodedBlock = -1;
        reader.readBlock(b, decoded.clear());
        blocksDecoded++;
        decoded.clear(); // an entry header near the end may be read with the padding after it
        decodedBlock = b;
      }
      decoded.get(o, dst, at, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
