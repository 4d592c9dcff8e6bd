package dev.joule.io.fs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Unguessable parts of file names (temporary outputs, per-sort directories), from the kernel's
 * random source where there is one. {@link SecureRandom}'s first use loads the JDK's security
 * providers, 30-35 ms of a cold JVM (JDK 17, 2 vCPU): a tenth of a small sort's wall time. Reading
 * 16 bytes of {@code /dev/urandom} gives the same quality at a fraction of that; without it (not
 * Linux, no access) SecureRandom serves. The names' safety does not rest on them: every such file
 * or directory is created exclusively ({@code CREATE_NEW}, {@code mkdir}); unguessable names keep
 * others from taking them first. Thread-safe.
 */
public final class RandomNames {
  private static final Path URANDOM = Path.of("/dev/urandom");
  private static volatile SecureRandom fallback;

  private RandomNames() {}

  /** A random (version 4) UUID, as {@link UUID#randomUUID()} but from the source above. */
  public static String uuid() {
    byte[] b = new byte[16];
    fill(b);
    b[6] = (byte) ((b[6] & 0x0f) | 0x40); // version 4
    b[8] = (byte) ((b[8] & 0x3f) | 0x80); // IETF variant
    ByteBuffer w = ByteBuffer.wrap(b);
    return new UUID(w.getLong(), w.getLong()).toString();
  }

  /** 64 random bits. */
  public static long nextLong() {
    byte[] b = new byte[8];
    fill(b);
    return ByteBuffer.wrap(b).getLong();
  }

  private static void fill(byte[] b) {
    try (InputStream in = Files.newInputStream(URANDOM)) {
      if (in.readNBytes(b, 0, b.length) == b.length) {
        return;
      }
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      // no kernel source here: the JDK's
    }
    SecureRandom r = fallback;
    if (r == null) {
      r = new SecureRandom();
      fallback = r;
    }
    r.nextBytes(b);
  }
}
