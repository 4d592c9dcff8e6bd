package dev.joule.io.fs;

import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes directory entries durable: after a create or rename, the parent directory must be fsynced
 * too, or a crash can lose the new name even though the file's data was forced.
 *
 * <p>Stateless and thread-safe.
 */
public final class Durability {
  private Durability() {}

  /**
   * Fsyncs directory {@code dir} by opening it for reading and forcing the channel. Returns {@code
   * false} when the platform or file system refuses to open or force a directory (some do: the JDK
   * on Windows, some FUSE and network file systems); that is tolerated because the rename itself
   * already happened and there is nothing better to do. Any other failure is thrown.
   *
   * @throws SortIOException op {@code "fsync directory"}, naming {@code dir}
   */
  public static boolean forceDirectory(Path dir) throws SortIOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (UnsupportedOperationException e) {
      return false; // this platform cannot open a directory as a channel: tolerated, see javadoc
    } catch (IOException e) {
      if (refuses(e)) {
        return false;
      }
      throw new SortIOException("fsync directory", dir, SortIOException.reasonOf(e), e);
    }
    try (ch) {
      ch.force(true);
      return true;
    } catch (IOException e) {
      if (refuses(e)) {
        return false;
      }
      throw new SortIOException("fsync directory", dir, SortIOException.reasonOf(e), e);
    }
  }

  /** EISDIR, EINVAL or ENOTSUP: the file system does not open or fsync directories. */
  private static boolean refuses(IOException e) {
    String r = SortIOException.reasonOf(e);
    return r.contains("Is a directory")
        || r.contains("Invalid argument")
        || r.contains("not supported");
  }
}
