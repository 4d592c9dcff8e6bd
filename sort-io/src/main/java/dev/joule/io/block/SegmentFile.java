package dev.joule.io.block;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One open segment file of a {@link BlockFile} (the whole file when it is not striped), for
 * positional block I/O: a DIRECT channel for aligned transfers (when the policy and file system
 * allow it) plus a buffered channel, opened lazily, for everything unaligned — the tail of a file
 * whose size is not a multiple of 4096, heap or unaligned buffers, and the remainder after a short
 * transfer.
 *
 * <p>Algorithm: a transfer uses the DIRECT channel iff the file position, the buffer address and
 * the length are all multiples of {@link Alignment#BYTES} (the JDK demands all three); otherwise
 * the largest aligned prefix goes direct and the rest buffered. O_DIRECT writes invalidate the
 * page-cache range they cover, so mixing the two channels stays coherent. Every {@code read}/{@code
 * write} loops until the whole buffer is transferred (or EOF), so short transfers are invisible to
 * callers.
 *
 * <p>Memory: no buffers of its own. Thread-safety: positional transfers may run concurrently from
 * several threads (several readers may share one file); {@link #force()} and {@link #close()} are
 * synchronized. Fsyncgate rule: after a failed {@code force()} every later {@code force()} fails
 * without calling the OS again, because the kernel may already have dropped the dirty pages.
 */
final class SegmentFile implements AutoCloseable {

  /**
   * O_DIRECT: {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} of module jdk.unsupported, looked
   * up by name. javac 21 and later warn about every compile-time use of that class under {@code
   * --release 17}, unconditionally, and the build treats warnings as errors. Null on a JDK without
   * it, which then opens files as if the file system refused O_DIRECT.
   */
  private static final class Direct {
    static final OpenOption OPTION = lookUp();

    private static OpenOption lookUp() {
      try {
        Class<?> type = Class.forName("com.sun.nio.file.ExtendedOpenOption");
        for (Object constant : type.getEnumConstants()) {
          if (((Enum<?>) constant).name().equals("DIRECT")) {
            return (OpenOption) constant;
          }
        }
      } catch (ClassNotFoundException e) {
        // not a JDK with the extension: no O_DIRECT
      }
      return null;
    }
  }

  private final Path path;
  private final FileChannel direct; // null when not using DIRECT
  private final Set<OpenOption> bufferedOptions;
  private volatile FileChannel buffered;
  private DeviceMeter meter = DeviceMeter.NONE; // set before the file is shared
  private boolean forceFailed;
  private boolean closed;

  private SegmentFile(
      Path path, FileChannel direct, FileChannel buffered, Set<OpenOption> bufferedOptions) {
    this.path = path;
    this.direct = direct;
    this.buffered = buffered;
    this.bufferedOptions = bufferedOptions;
  }

  /** Opens an existing file for reading. */
  static SegmentFile openRead(Path path, DirectIoPolicy policy, NoticeSink notices)
      throws SortIOException {
    return open(path, policy, notices, Set.of(StandardOpenOption.READ), new FileAttribute<?>[0]);
  }

  /**
   * Creates a new file for writing (and reading back) with {@code CREATE_NEW} and {@code
   * NOFOLLOW_LINKS}: an existing file or planted symlink at {@code path} is an error, never
   * followed or truncated. {@code attrs} are applied at creation (e.g. POSIX mode 0600), so the
   * umask can only narrow them.
   */
  static SegmentFile createNew(
      Path path, DirectIoPolicy policy, NoticeSink notices, FileAttribute<?>... attrs)
      throws SortIOException {
    return open(
        path,
        policy,
        notices,
        Set.of(
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE_NEW,
            LinkOption.NOFOLLOW_LINKS),
        attrs);
  }

  private static SegmentFile open(
      Path path,
      DirectIoPolicy policy,
      NoticeSink notices,
      Set<OpenOption> options,
      FileAttribute<?>[] attrs)
      throws SortIOException {
    boolean creating = options.contains(StandardOpenOption.CREATE_NEW);
    // After the first open created the file, the second channel must open it, not create it again.
    Set<OpenOption> reopen = new HashSet<>(options);
    reopen.remove(StandardOpenOption.CREATE_NEW);
    FileChannel first;
    if (policy == DirectIoPolicy.OFF) {
      first = openChannel(path, options, attrs);
      return new SegmentFile(path, null, first, Set.copyOf(reopen));
    }
    Set<OpenOption> directOptions = new HashSet<>(options);
    try {
      if (Direct.OPTION == null) {
        throw new UnsupportedOperationException("this JDK has no O_DIRECT open option");
      }
      directOptions.add(Direct.OPTION);
      first = FileChannel.open(path, directOptions, attrs);
    } catch (UnsupportedOperationException | IOException e) {
      IOException io = e instanceof IOException x ? x : new IOException(e.getMessage(), e);
      if (!refusesDirect(io)) {
        throw new SortIOException(
            creating ? "create" : "open", path, SortIOException.reasonOf(io), io);
      }
      if (policy == DirectIoPolicy.ON) {
        throw new SortIOException(
            "open (direct I/O)",
            path,
            "file system does not support direct I/O: " + SortIOException.reasonOf(io),
            io);
      }
      // Names the directory, not the file, so that NoticeSink.distinct reports it once per
      // directory.
      notices.notice(
          "direct I/O not supported in "
              + path.toAbsolutePath().getParent()
              + " ("
              + SortIOException.reasonOf(io)
              + "); using buffered I/O");
      // Some file systems create the file before refusing O_DIRECT; reopen that empty file rather
      // than failing on CREATE_NEW. NOFOLLOW_LINKS still refuses a symlink planted meanwhile.
      boolean leftBehind =
          creating && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && sizeIsZero(path);
      first = openChannel(path, leftBehind ? reopen : options, attrs);
      return new SegmentFile(path, null, first, Set.copyOf(reopen));
    }
    return new SegmentFile(path, first, null, Set.copyOf(reopen));
  }

  /**
   * Whether an open failure means "this file system does not do O_DIRECT" (EINVAL from open(2), or
   * the JDK's UnsupportedOperationException) rather than a real error such as ENOENT, EACCES or
   * EEXIST, which must not be hidden by a fallback.
   */
  private static boolean refusesDirect(IOException e) {
    String r = SortIOException.reasonOf(e);
    return e.getCause() instanceof UnsupportedOperationException
        || r.contains("Invalid argument")
        || r.contains("not supported")
        || r.contains("Operation not supported");
  }

  private static boolean sizeIsZero(Path path) {
    try {
      return Files.size(path) == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static FileChannel openChannel(
      Path path, Set<OpenOption> options, FileAttribute<?>[] attrs) throws SortIOException {
    try {
      return FileChannel.open(path, options, attrs);
    } catch (IOException e) {
      String op = options.contains(StandardOpenOption.CREATE_NEW) ? "create" : "open";
      throw new SortIOException(op, path, SortIOException.reasonOf(e), e);
    }
  }

  private FileChannel bufferedChannel() throws SortIOException {
    FileChannel b = buffered;
    if (b == null) {
      synchronized (this) {
        b = buffered;
        if (b == null) {
          if (closed) {
            throw new SortIOException("open", path, "file is closed");
          }
          b = openChannel(path, bufferedOptions, new FileAttribute<?>[0]);
          buffered = b;
        }
      }
    }
    return b;
  }

  /** Counts this segment's transfers on {@code m} (the device it lives on). */
  void meter(DeviceMeter m) {
    this.meter = m;
  }

  /** The file this object reads or writes. */
  Path path() {
    return path;
  }

  /** Whether aligned transfers bypass the page cache. */
  boolean isDirect() {
    return direct != null;
  }

  /** The current size of the file. */
  long size() throws SortIOException {
    try {
      return direct != null ? direct.size() : bufferedChannel().size();
    } catch (SortIOException e) {
      throw e; // opening the buffered channel failed: already names its op
    } catch (IOException e) {
      throw new SortIOException("stat", path, SortIOException.reasonOf(e), e);
    }
  }

  /**
   * Number of bytes in {@code [position, position + len)} that may go through the DIRECT channel.
   */
  private int alignedPrefix(long position, ByteBuffer b) {
    if (direct == null
        || !b.isDirect()
        || position % Alignment.BYTES != 0
        || b.alignmentOffset(b.position(), Alignment.BYTES) != 0) {
      return 0;
    }
    return b.remaining() & -Alignment.BYTES;
  }

  /**
   * Reads from {@code position} into {@code dst} until {@code dst} is full or the file ends;
   * returns the number of bytes read ({@code dst}'s position advances by that much).
   *
   * @throws SortIOException op {@code "read"}
   */
  int read(long position, ByteBuffer dst) throws SortIOException {
    int total = 0;
    long started = meter.start();
    try {
      while (dst.hasRemaining()) {
        long pos = position + total;
        int aligned = alignedPrefix(pos, dst);
        int n;
        if (aligned > 0) {
          int limit = dst.limit();
          dst.limit(dst.position() + aligned);
          try {
            n = direct.read(dst, pos);
          } finally {
            dst.limit(limit);
          }
        } else {
          n = bufferedChannel().read(dst, pos);
        }
        if (n <= 0) {
          break; // -1 is EOF; 0 bytes into a non-empty buffer also means nothing more to read
        }
        total += n;
      }
    } catch (SortIOException e) {
      meter.failed();
      throw e; // opening the buffered channel failed: already names its op
    } catch (IOException e) {
      meter.failed();
      throw new SortIOException("read", path, SortIOException.reasonOf(e), e);
    } catch (RuntimeException | Error e) {
      meter.failed();
      throw e;
    }
    meter.read(total, started);
    return total;
  }

  /**
   * Writes all of {@code src} at {@code position} ({@code src}'s position advances to its limit).
   *
   * @throws SortIOException op {@code "write"}, for example with "No space left on device"
   */
  void write(long position, ByteBuffer src) throws SortIOException {
    long pos = position;
    long started = meter.start();
    try {
      while (src.hasRemaining()) {
        int aligned = alignedPrefix(pos, src);
        int n;
        if (aligned > 0) {
          int limit = src.limit();
          src.limit(src.position() + aligned);
          try {
            n = direct.write(src, pos);
          } finally {
            src.limit(limit);
          }
        } else {
          n = bufferedChannel().write(src, pos);
        }
        pos += n;
      }
    } catch (SortIOException e) {
      meter.failed();
      throw e; // opening the buffered channel failed: already names its op
    } catch (IOException e) {
      meter.failed();
      throw new SortIOException("write", path, SortIOException.reasonOf(e), e);
    } catch (RuntimeException | Error e) {
      meter.failed();
      throw e;
    }
    meter.wrote(pos - position, started);
  }

  /** Cuts the file to {@code size} bytes. */
  void truncate(long size) throws SortIOException {
    try {
      (direct != null ? direct : bufferedChannel()).truncate(size);
    } catch (SortIOException e) {
      throw e; // opening the buffered channel failed: already names its op
    } catch (IOException e) {
      throw new SortIOException("truncate", path, SortIOException.reasonOf(e), e);
    }
  }

  /**
   * Forces data and metadata of both channels to the device. After one failure, never calls the OS
   * again (fsyncgate): the dirty pages may already be gone, and a second fsync that succeeds would
   * falsely report the data durable.
   *
   * @throws SortIOException op {@code "fsync"}
   */
  synchronized void force() throws SortIOException {
    if (forceFailed) {
      throw new SortIOException(
          "fsync", path, "an earlier fsync of this file failed; its data may be lost");
    }
    try {
      if (direct != null) {
        direct.force(true);
      }
      if (buffered != null) {
        buffered.force(true);
      }
    } catch (IOException e) {
      forceFailed = true;
      throw new SortIOException("fsync", path, SortIOException.reasonOf(e), e);
    }
  }

  /**
   * Closes both channels. Idempotent. A close failure is reported (a deferred write-back error may
   * surface only here).
   *
   * @throws SortIOException op {@code "close"}
   */
  @Override
  public synchronized void close() throws SortIOException {
    if (closed) {
      return;
    }
    closed = true;
    List<IOException> errors = new ArrayList<>(2);
    for (FileChannel ch : Arrays.asList(direct, buffered)) {
      if (ch == null) {
        continue;
      }
      try {
        ch.close();
      } catch (IOException e) {
        errors.add(e);
      }
    }
    if (!errors.isEmpty()) {
      SortIOException e =
          new SortIOException(
              "close", path, SortIOException.reasonOf(errors.get(0)), errors.get(0));
      for (int i = 1; i < errors.size(); i++) {
        e.addSuppressed(errors.get(i));
      }
      throw e;
    }
  }

  @Override
  public String toString() {
    return path + (direct != null ? " (direct)" : " (buffered)");
  }
}
