package dev.joule.io;

import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Shared helpers for sort-io tests: seeded data, digests, directory listings. */
public final class IoTestSupport {
  private IoTestSupport() {}

  private static final long SEED = TestSeed.of(IoTestSupport.class, 0x5EED_1234L);

  /**
   * The seed of the I/O tests ({@link TestSeed}: fixed, or {@code -Djoule.test.seed=...}), printed
   * on failure by the caller.
   */
  public static long seed() {
    return SEED;
  }

  /** Whether files in {@code dir} are opened for direct I/O ({@code DirectIoPolicy.AUTO}). */
  public static boolean takesDirectIo(Path dir) throws IOException {
    Path f = Files.createTempFile(dir, "direct", ".probe");
    try {
      Files.write(f, new byte[4096]);
      try (BlockFile b = BlockFile.openRead(f, DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
        return b.isDirect();
      }
    } finally {
      Files.delete(f);
    }
  }

  public static byte[] randomBytes(long seed, int n) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  public static String sha256(Path p) throws IOException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** Every entry below {@code dir} (excluding {@code dir}), as relative paths. */
  public static List<String> listRecursive(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> !p.equals(dir))
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** Copies {@code bytes} into a fresh pool buffer source (heap) buffer. */
  public static ByteBuffer heap(byte[] bytes) {
    return ByteBuffer.wrap(bytes);
  }

  /** Asserts the pool has all its buffers back. */
  public static void assertPoolFull(BlockPool pool) {
    if (pool.available() != pool.capacity()) {
      throw new AssertionError((pool.capacity() - pool.available()) + " pool buffers not returned");
    }
  }
}
