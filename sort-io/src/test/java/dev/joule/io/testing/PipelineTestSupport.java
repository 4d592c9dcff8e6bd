package dev.joule.io.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.testing.ArenaLeakExtension;
import dev.joule.testing.RandomRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reference sort, data generators and leak checks for the pipeline tests. */
public final class PipelineTestSupport {
  private PipelineTestSupport() {}

  /** Random records; {@code distinctKeys > 0} limits the key alphabet (duplicates, skew). */
  public static byte[] records(long seed, long n, FixedLengthFormat f, int distinctKeys) {
    int rs = f.recordSize();
    byte[] data = new byte[Math.toIntExact(n * rs)];
    Random r = new Random(seed);
    r.nextBytes(data);
    if (distinctKeys > 0) {
      int ko = f.key().offset();
      int kl = f.key().length();
      byte[][] keys = new byte[distinctKeys][kl];
      for (byte[] k : keys) {
        r.nextBytes(k);
      }
      for (long i = 0; i < n; i++) {
        // skewed: key 0 gets about a quarter of the records
        int pick = r.nextInt(4) == 0 ? 0 : r.nextInt(distinctKeys);
        System.arraycopy(keys[pick], 0, data, (int) (i * rs + ko), kl);
      }
    }
    return data;
  }

  /** The stable sort of {@code data} by key, unsigned lexicographic: the independent reference. */
  public static byte[] reference(byte[] data, FixedLengthFormat f) {
    return RandomRecords.referenceSort(data, f.recordSize(), f.key().offset(), f.key().length());
  }

  /** Whether {@code e} or an exception in its cause chain is a {@code type}. */
  public static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** Arenas closed, stripe dirs empty, no joule- worker threads left. */
  public static void assertNoLeaks(String test, List<Path> stripes)
      throws IOException, InterruptedException {
    ArenaLeakExtension.checkNoLeaks(test);
    for (Path s : stripes) {
      try (Stream<Path> l = Files.list(s)) {
        List<Path> left = l.collect(Collectors.toList());
        assertEquals(List.of(), left, "temp files left in " + s);
      }
    }
    long deadline = System.nanoTime() + 3_000_000_000L;
    List<String> alive;
    do {
      alive =
          Thread.getAllStackTraces().keySet().stream()
              .filter(
                  t ->
                      t.isAlive()
                          && t.getName().startsWith("joule-")
                          && !t.getName().startsWith("joule-temp-cleanup"))
              .map(Thread::getName)
              .collect(Collectors.toList());
      if (alive.isEmpty()) {
        return;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    assertTrue(alive.isEmpty(), "threads alive: " + alive);
  }
}
