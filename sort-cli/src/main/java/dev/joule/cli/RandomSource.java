package dev.joule.cli;

import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The salt of {@code -R}: 16 bytes, as GNU sort takes them, from the start of {@code
 * --random-source=FILE} (so that the same FILE gives the same order, GNU's own), or else from the
 * system's random generator. Read only when a key orders by {@code -R}, as GNU does. Stateless.
 */
final class RandomSource {
  /** Bytes of salt: GNU seeds its MD5 state with one digest's worth. */
  static final int SALT_BYTES = 16;

  private static final Path URANDOM = Path.of("/dev/urandom");

  private RandomSource() {}

  /** The salt from {@code file}, or from the system when it is null. */
  static byte[] salt(String file) throws SortIOException {
    if (file != null) {
      return read(Path.of(file));
    }
    if (Files.isReadable(URANDOM)) {
      // not SecureRandom: its first use loads the JDK's security providers (docs/decisions/D20)
      return read(URANDOM);
    }
    byte[] salt = new byte[SALT_BYTES];
    new SecureRandom().nextBytes(salt);
    return salt;
  }

  private static byte[] read(Path file) throws SortIOException {
    InputStream in;
    try {
      in = Files.newInputStream(file);
    } catch (IOException e) {
      throw new SortIOException("open", file, SortIOException.reasonOf(e), e);
    }
    try (in) {
      byte[] salt = in.readNBytes(SALT_BYTES);
      if (salt.length < SALT_BYTES) {
        throw new SortIOException(
            "read", file, "end of file (--random-source needs at least " + SALT_BYTES + " bytes)");
      }
      return salt;
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("read", file, SortIOException.reasonOf(e), e);
    }
  }
}
