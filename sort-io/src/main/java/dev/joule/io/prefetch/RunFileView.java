package dev.joule.io.prefetch;

import dev.joule.core.memory.Alignment;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockFile;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.run.RunDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Random access to the keys of a run file for {@code core.merge.MergeSplitter}: the key of record i
 * is read from the 4096-byte page that holds it, through a small page cache (the splitter's binary
 * searches keep probing the same few pages as they converge).
 *
 * <p>Pages are read without block verification (the merge verifies every block it reads); a corrupt
 * page could only misplace a cut, and a misplaced cut shows up in the final merge's self-validation
 * (order, count and checksum), so it cannot publish a wrong output.
 *
 * <p>Memory: at most {@link #MAX_PAGES} heap pages of 4096 bytes plus one borrowed aligned buffer.
 * Not thread-safe (one splitter thread). The file is borrowed.
 */
public final class RunFileView implements SortedRunView {
  /** Cached pages per view: 256 × 4 KiB = 1 MiB, more than a k-way split converging touches. */
  public static final int MAX_PAGES = 256;

  private static final int PAGE = Alignment.BYTES;
  private final BlockFile file;
  private final RunDescriptor d;
  private final ByteBuffer page; // aligned, PAGE bytes
  private final Map<Long, byte[]> cache = new HashMap<>();
  private final byte[] key;

  /** A view of run {@code d} stored in {@code file}, reading pages into {@code pageBuffer}. */
  public RunFileView(BlockFile file, RunDescriptor d, ByteBuffer pageBuffer) {
    this.file = file;
    this.d = d;
    this.page = pageBuffer;
    this.key = new byte[d.format().key().length()];
  }

  @Override
  public long size() {
    return d.recordCount();
  }

  @Override
  public int compare(long index, Probe probe) {
    copyKey(index, key);
    return Arrays.compareUnsigned(key, probe.key());
  }

  @Override
  public Probe probe(long index) {
    byte[] k = new byte[key.length];
    copyKey(index, k);
    return new Probe(k, null);
  }

  private void copyKey(long index, byte[] dst) {
    int rpb = d.recordsPerBlock();
    int b = (int) (index / rpb);
    long at =
        d.blockOffset(b) + (index % rpb) * d.format().recordSize() + d.format().key().offset();
    int done = 0;
    while (done < key.length) {
      long pos = at + done;
      byte[] p = page(pos / PAGE);
      int in = (int) (pos % PAGE);
      int n = Math.min(key.length - done, PAGE - in);
      System.arraycopy(p, in, dst, done, n);
      done += n;
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
      page.clear();
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
