package dev.joule.io.stripe;

import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The set of temp files a sort has created and not yet deleted, across all stripes (Lucene's {@code
 * TrackingDirectoryWrapper}). Files are registered right after their creation and removed when
 * deleted; {@link #deleteAll()} removes whatever is left, attempting every file even when some
 * deletions fail.
 *
 * <p>Memory: one entry per live temp file. Thread-safe (synchronized).
 */
public final class TempFileTracker {
  private final Set<Path> files = new LinkedHashSet<>();

  /** Registers a file the sort has just created. */
  public synchronized void track(Path file) {
    files.add(file);
  }

  /** Whether {@code file} is tracked. */
  public synchronized boolean isTracked(Path file) {
    return files.contains(file);
  }

  /** A snapshot of the live temp files, in creation order. */
  public synchronized List<Path> files() {
    return new ArrayList<>(files);
  }

  /**
   * Deletes one tracked file (without following a symlink that replaced it: {@link Files#delete}
   * removes the link itself) and stops tracking it. A file already gone counts as deleted.
   *
   * @throws SortIOException op {@code "delete"}; the file stays tracked so a later sweep retries
   */
  public void delete(Path file) throws SortIOException {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new SortIOException("delete", file, SortIOException.reasonOf(e), e);
    }
    synchronized (this) {
      files.remove(file);
    }
  }

  /**
   * Deletes every tracked file. Every file is attempted; the first failure is thrown with the rest
   * attached as suppressed exceptions.
   */
  public void deleteAll() throws SortIOException {
    SortIOException first = null;
    for (Path f : files()) {
      try {
        delete(f);
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

  /** Deletes every tracked file, adding any deletion error as suppressed to {@code primary}. */
  public void deleteAllSuppressing(Throwable primary) {
    try {
      deleteAll();
    } catch (SortIOException e) {
      primary.addSuppressed(e);
    }
  }

  static boolean isMissing(IOException e) {
    return e instanceof NoSuchFileException;
  }
}
