package dev.joule.io.input;

import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockReader;
import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.FileParts;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The file being sorted: opened once (DIRECT per policy), its size, modification time and file key
 * recorded, so that {@link #checkUnchanged(long)} can detect another process truncating, appending
 * to or rewriting it while it was read.
 *
 * <p>Memory: none beyond the channel(s). Thread-safety: {@link #file()} may be read concurrently
 * (positional); open/close by the owner.
 */
public final class InputFile implements AutoCloseable {
  private final BlockFile file;
  private final BasicFileAttributes before;

  private InputFile(BlockFile file, BasicFileAttributes before) {
    this.file = file;
    this.before = before;
  }

  /**
   * Opens {@code path} for reading. A directory or other non-regular file is refused before
   * anything else happens.
   *
   * @throws SortIOException op {@code "open"} naming the path
   */
  public static InputFile open(Path path, DirectIoPolicy policy, NoticeSink notices)
      throws SortIOException {
    return open(path, policy, notices, DeviceMeter.NONE);
  }

  /**
   * As {@link #open(Path, DirectIoPolicy, NoticeSink)}, counting every read of the input on {@code
   * meter} (the sort's timeline).
   *
   * @throws SortIOException op {@code "open"} naming the path
   */
  public static InputFile open(
      Path path, DirectIoPolicy policy, NoticeSink notices, DeviceMeter meter)
      throws SortIOException {
    BasicFileAttributes a = attributes(path);
    if (a.isDirectory()) {
      throw new SortIOException("open", path, "Is a directory");
    }
    if (!a.isRegularFile()) {
      throw new SortIOException(
          "open", path, "not a regular file (use a stream for pipes and devices)");
    }
    return new InputFile(BlockFile.openRead(FileParts.single(path, 0, meter), policy, notices), a);
  }

  private static BasicFileAttributes attributes(Path path) throws SortIOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class);
    } catch (IOException e) {
      throw new SortIOException("open", path, SortIOException.reasonOf(e), e);
    }
  }

  /** The open file, for positional reads. */
  public BlockFile file() {
    return file;
  }

  /** Size of the input when it was opened. */
  public long size() {
    return before.size();
  }

  /**
   * Fails unless the input is a whole number of {@code recordSize}-byte records; trailing bytes are
   * never dropped silently.
   */
  public void checkWholeRecords(int recordSize) throws SortIOException {
    long trailing = size() % recordSize;
    if (trailing != 0) {
      throw new SortIOException(
          "read",
          file.path(),
          "input size "
              + size()
              + " is not a multiple of record size "
              + recordSize
              + ": "
              + trailing
              + " trailing bytes at offset "
              + (size() - trailing));
    }
  }

  /**
   * Read-ahead over the whole input into caller buffers ({@link BlockReader}) on a thread of {@code
   * threads}; caller closes it.
   */
  public BlockReader reader(int transferSize, int maxInFlight, SortThreads threads) {
    return new BlockReader(file, 0, size(), transferSize, maxInFlight, threads);
  }

  /**
   * Fails with "input changed while being read" if {@code bytesRead} differs from the size at open,
   * or the size, modification time or file key differ now.
   */
  public void checkUnchanged(long bytesRead) throws SortIOException {
    BasicFileAttributes now = attributes(file.path());
    if (bytesRead != before.size()
        || now.size() != before.size()
        || !now.lastModifiedTime().equals(before.lastModifiedTime())
        || !Objects.equals(now.fileKey(), before.fileKey())) {
      throw new SortIOException(
          "read",
          file.path(),
          "input changed while being read (size "
              + before.size()
              + " at start, "
              + now.size()
              + " now, "
              + bytesRead
              + " bytes read)");
    }
  }

  @Override
  public void close() throws SortIOException {
    file.close();
  }
}
