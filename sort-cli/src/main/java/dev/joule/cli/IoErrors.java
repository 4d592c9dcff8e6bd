package dev.joule.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Turns an {@link IOException} into the short cause text that C tools print through
 * {@code perror} ("No such file or directory"), so messages read {@code tool: cannot open PATH:
 * cause} whatever exception type NIO chose. Stateless.
 */
final class IoErrors {
  private IoErrors() {}

  /** The cause of {@code e} in {@code strerror} wording where NIO's type tells it. */
  static String cause(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "File exists";
    }
    if (e instanceof NotDirectoryException) {
      return "Not a directory";
    }
    if (e instanceof FileSystemException && ((FileSystemException) e).getReason() != null) {
      return ((FileSystemException) e).getReason();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
