package dev.joule.io.block;

import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.fs.Failures;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.Arrays;

/**
 * One open file for positional block I/O: a plain file, or a file block-striped over several
 * segment files on different devices ({@link FileParts}, {@link StripeMap}). Each segment has a
 * DIRECT channel for aligned transfers (when the policy and file system allow it) plus a buffered
 * channel, opened lazily, for everything unaligned — the tail of a file whose size is not a
 * multiple of 4096, heap or unaligned buffers, and the remainder after a short transfer.
 *
 * <p>Algorithm: a transfer uses the DIRECT channel iff the file position, the buffer address and
 * the length are all multiples of 4096 (the JDK demands all three); otherwise the largest aligned
 * prefix goes direct and the rest buffered. O_DIRECT writes invalidate the page-cache range they
 * cover, so mixing the two channels stays coherent. A transfer that crosses a stripe unit is cut at
 * the unit's end, each piece going to its own segment. Every {@code read}/{@code write} loops until
 * the whole buffer is transferred (or EOF), so short transfers are invisible to callers. Errors
 * name the segment that failed, which is the device's path.
 *
 * <p>Memory: no buffers of its own. Thread-safety: positional transfers may run concurrently from
 * several threads (several readers may share one file, several writers fill disjoint ranges);
 * {@link #force()} and {@link #close()} are synchronized. Fsyncgate rule: after a failed {@code
 * force()} every later {@code force()} fails without calling the OS again, because the kernel may
 * already have dropped the dirty pages.
 */
public final class BlockFile implements AutoCloseable {
  private final FileParts parts;
  private final SegmentFile[] segments;
  private final StripeMap map; // null: one segment, no mapping

  private BlockFile(FileParts parts, SegmentFile[] segments) {
    this.parts = parts;
    this.segments = segments;
    this.map = parts.map();
  }

  /** Opens an existing plain file for reading. */
  public static BlockFile openRead(Path path, DirectIoPolicy policy, NoticeSink notices)
      throws SortIOException {
    return openRead(FileParts.single(path), policy, notices);
  }

  /** Opens every segment of an existing (possibly striped) file for reading. */
  public static BlockFile openRead(FileParts parts, DirectIoPolicy policy, NoticeSink notices)
      throws SortIOException {
    SegmentFile[] opened = new SegmentFile[parts.segments()];
    try {
      for (int i = 0; i < opened.length; i++) {
        opened[i] = SegmentFile.openRead(parts.paths().get(i), policy, notices);
        opened[i].meter(parts.meter(i));
      }
    } catch (SortIOException | RuntimeException e) {
      Failures.closeAllAfter(e, Arrays.asList(opened));
      throw e;
    }
    return new BlockFile(parts, opened);
  }

  /**
   * Creates a new plain file for writing (and reading back) with {@code CREATE_NEW} and {@code
   * NOFOLLOW_LINKS}: an existing file or planted symlink at {@code path} is an error, never
   * followed or truncated. {@code attrs} are applied at creation (e.g. POSIX mode 0600), so the
   * umask can only narrow them.
   */
  public static BlockFile createNew(
      Path path, DirectIoPolicy policy, NoticeSink notices, FileAttribute<?>... attrs)
      throws SortIOException {
    return new BlockFile(
        FileParts.single(path),
        new SegmentFile[] {SegmentFile.createNew(path, policy, notices, attrs)});
  }

  /**
   * Creates every segment of a new (possibly striped) file as {@link #createNew(Path,
   * DirectIoPolicy, NoticeSink, FileAttribute[])} does; {@code created} is told each segment's path
   * as soon as it exists (so the caller can track it for deletion even if a later one fails).
   */
  public static BlockFile createNew(
      FileParts parts,
      DirectIoPolicy policy,
      NoticeSink notices,
      java.util.function.Consumer<Path> created,
      FileAttribute<?>... attrs)
      throws SortIOException {
    SegmentFile[] made = new SegmentFile[parts.segments()];
    try {
      for (int i = 0; i < made.length; i++) {
        Path p = parts.paths().get(i);
        made[i] = SegmentFile.createNew(p, policy, notices, attrs);
        made[i].meter(parts.meter(i));
        created.accept(p);
      }
    } catch (SortIOException | RuntimeException e) {
      Failures.closeAllAfter(e, Arrays.asList(made));
      throw e;
    }
    return new BlockFile(parts, made);
  }

  /** The file this object reads or writes (its first segment when striped). */
  public Path path() {
    return parts.path();
  }

  /** Every segment's path and the striping. */
  public FileParts parts() {
    return parts;
  }

  /** The segment that holds byte {@code position} (0 for a plain file). */
  public int segmentAt(long position) {
    return map == null ? 0 : map.segment(position);
  }

  /** The stripe (temp device) that holds byte {@code position}. */
  public int stripeAt(long position) {
    return parts.stripeAt(position);
  }

  /** Whether aligned transfers bypass the page cache (on every segment). */
  public boolean isDirect() {
    for (SegmentFile s : segments) {
      if (!s.isDirect()) {
        return false;
      }
    }
    return true;
  }

  /** The current size of the file. */
  public long size() throws SortIOException {
    if (map == null) {
      return segments[0].size();
    }
    long[] lengths = new long[segments.length];
    for (int i = 0; i < lengths.length; i++) {
      lengths[i] = segments[i].size();
    }
    return map.length(lengths);
  }

  /**
   * Reads from {@code position} into {@code dst} until {@code dst} is full or the file ends;
   * returns the number of bytes read ({@code dst}'s position advances by that much).
   *
   * @throws SortIOException op {@code "read"}, naming the segment
   */
  public int read(long position, ByteBuffer dst) throws SortIOException {
    if (map == null) {
      return segments[0].read(position, dst);
    }
    int total = 0;
    int limit = dst.limit();
    try {
      while (dst.hasRemaining()) {
        long pos = position + total;
        int piece = (int) Math.min(dst.remaining(), map.contiguous(pos));
        dst.limit(dst.position() + piece);
        int n = segments[map.segment(pos)].read(map.segmentOffset(pos), dst);
        dst.limit(limit);
        total += n;
        if (n < piece) {
          break; // that segment ends here, so the file does
        }
      }
    } finally {
      dst.limit(limit);
    }
    return total;
  }

  /**
   * Writes all of {@code src} at {@code position} ({@code src}'s position advances to its limit).
   *
   * @throws SortIOException op {@code "write"}, for example with "No space left on device", naming
   *     the segment
   */
  public void write(long position, ByteBuffer src) throws SortIOException {
    if (map == null) {
      segments[0].write(position, src);
      return;
    }
    int limit = src.limit();
    try {
      long pos = position;
      while (src.hasRemaining()) {
        int piece = (int) Math.min(src.remaining(), map.contiguous(pos));
        src.limit(src.position() + piece);
        segments[map.segment(pos)].write(map.segmentOffset(pos), src);
        src.limit(limit);
        pos += piece;
      }
    } finally {
      src.limit(limit);
    }
  }

  /** Cuts the file to {@code size} bytes. */
  public void truncate(long size) throws SortIOException {
    if (map == null) {
      segments[0].truncate(size);
      return;
    }
    for (int i = 0; i < segments.length; i++) {
      segments[i].truncate(map.segmentLength(i, size));
    }
  }

  /**
   * Forces data and metadata of every segment to its device. After one failure, never calls the OS
   * again for that segment (fsyncgate): the dirty pages may already be gone, and a second fsync
   * that succeeds would falsely report the data durable.
   *
   * @throws SortIOException op {@code "fsync"}
   */
  public void force() throws SortIOException {
    for (SegmentFile s : segments) {
      s.force();
    }
  }

  /**
   * Closes every segment's channels. Idempotent. A close failure is reported (a deferred write-back
   * error may surface only here); the first is thrown, later ones suppressed.
   *
   * @throws SortIOException op {@code "close"}
   */
  @Override
  public void close() throws SortIOException {
    SortIOException first = null;
    for (SegmentFile s : segments) {
      try {
        s.close();
      } catch (SortIOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return segments.length == 1 ? segments[0].toString() : Arrays.toString(segments);
  }
}
