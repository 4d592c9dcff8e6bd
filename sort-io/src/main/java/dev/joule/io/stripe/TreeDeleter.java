package dev.joule.io.stripe;

import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Deletes a directory's contents recursively without ever following a symbolic link: a link is
 * removed as an entry, its target is untouched. Stateless.
 */
final class TreeDeleter {
  private TreeDeleter() {}

  /**
   * Deletes everything inside {@code dir} except the top-level entry named {@code keep}; returns
   * the errors.
   */
  static SortIOException deleteContents(Path dir, String keep) {
    SortIOException first = null;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path e : entries) {
        if (keep != null && e.getFileName().toString().equals(keep)) {
          continue;
        }
        first = add(first, deleteTree(e));
      }
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      first =
          add(first, new SortIOException("list directory", dir, SortIOException.reasonOf(e), e));
    }
    return first;
  }

  /** Deletes {@code p}: a directory (not a link to one) with its contents, or any other entry. */
  static SortIOException deleteTree(Path p) {
    SortIOException first = null;
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      first = deleteContents(p, null);
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      first = add(first, new SortIOException("delete", p, SortIOException.reasonOf(e), e));
    }
    return first;
  }

  static SortIOException add(SortIOException first, SortIOException next) {
    if (next == null) {
      return first;
    }
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }
}
