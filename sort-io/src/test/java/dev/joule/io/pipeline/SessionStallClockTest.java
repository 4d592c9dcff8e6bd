package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link SortSession#addStallNanos()} is the time the adds spent beyond copying, which a platform
 * adds to a sampled estimate of its operator's time: it must hold the waits for the run writer. The
 * run writer sleeps {@value #WRITE_MILLIS} ms before each run, so the adds wait for it most of the
 * time they take; the test times every add itself and checks that the session's clock saw those
 * waits (at least {@value #MIN_SHARE} of the adds' time once the copies' allowance is taken off)
 * and never more than the adds took.
 */
class SessionStallClockTest extends OneStripeTest {
  static final long SEED = TestSeed.of(SessionStallClockTest.class, 0x57A11L);

  static final long WRITE_MILLIS = 150;

  static final double MIN_SHARE = 0.8;

  /** Time the copies themselves may take in all: far above what 20 MB of copies cost. */
  static final long COPY_ALLOWANCE_NANOS = 300_000_000L;

  @Test
  void pairAddsCountTheirWaitsForTheRunWriter() throws IOException {
    AtomicInteger writes = new AtomicInteger();
    Random r = new Random(SEED);
    long inAdds = 0;
    long stalled;
    try (PairSession s = ExternalSorter.openPairs(config(writes).build())) {
      for (int i = 0; i < 120_000; i++) { // about 14 MB through an 8 MiB budget
        byte[] k = new byte[4 + r.nextInt(20)];
        byte[] v = new byte[r.nextInt(200)];
        r.nextBytes(k);
        long t0 = System.nanoTime();
        s.add(ByteBuffer.wrap(k), ByteBuffer.wrap(v));
        inAdds += System.nanoTime() - t0;
      }
      stalled = s.addStallNanos();
      drain(s);
    }
    assertClockSawTheWaits(inAdds, stalled, writes.get());
  }

  @Test
  void fixedRecordAddsCountTheirWaitsForTheRunWriter() throws IOException {
    AtomicInteger writes = new AtomicInteger();
    int size = 100;
    Random r = new Random(SEED + 1);
    byte[] all = new byte[200_000 * size]; // 20 MB
    r.nextBytes(all);
    SortConfig c = config(writes).format(RecordFormat.fixed(size, KeySpec.bytes(0, 10))).build();
    long inAdds = 0;
    long stalled;
    try (RecordSession s = ExternalSorter.open(c)) {
      for (int at = 0; at < all.length; at += 64 * size) {
        ByteBuffer b = ByteBuffer.wrap(all, at, Math.min(64 * size, all.length - at));
        long t0 = System.nanoTime();
        s.add(b);
        inAdds += System.nanoTime() - t0;
      }
      stalled = s.addStallNanos();
      drain(s);
    }
    assertClockSawTheWaits(inAdds, stalled, writes.get());
  }

  /** An 8 MiB session whose run writer sleeps before every run. */
  private SortConfig.Builder config(AtomicInteger writes) {
    SortConfig.Builder b =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(8)).threads(2).tempDirs(stripes);
    SortHooks.set(
        b,
        SortHooks.of(b)
            .withBeforeSessionRunWrite(
                at -> {
                  writes.incrementAndGet();
                  try {
                    Thread.sleep(WRITE_MILLIS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }));
    return b;
  }

  private static void drain(SortSession s) throws IOException {
    try (RecordCursor c = s.finish()) {
      while (c.next()) {
        // the whole sort runs, so that its check and cleanup are part of the test
      }
    }
  }

  private static void assertClockSawTheWaits(long inAdds, long stalled, int writes) {
    String seen =
        "seed "
            + SEED
            + ": adds took "
            + inAdds
            + " ns, the session's clock "
            + stalled
            + " ns, "
            + writes
            + " run writes";
    assertTrue(writes >= 3, "too few runs to test: " + seen);
    assertTrue(inAdds >= 2 * WRITE_MILLIS * 1_000_000L, "the adds did not wait: " + seen);
    assertTrue(stalled <= inAdds, "more than the adds took: " + seen);
    assertTrue(stalled >= MIN_SHARE * (inAdds - COPY_ALLOWANCE_NANOS), "waits left out: " + seen);
  }
}
