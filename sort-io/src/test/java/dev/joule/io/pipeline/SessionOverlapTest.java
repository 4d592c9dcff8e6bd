package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * After its first run the session's {@code add} never waits for a run to be written: filling the
 * next chunk overlaps sorting and writing the full one. (The first write is awaited: that chunk
 * took the whole budget while nothing had been written.) A rendezvous proves it, as {@code
 * IntermediateMergesTest} does for concurrent merges: the run writer, about to write each chunk,
 * waits until the adding thread has added {@value #AFTER} more pairs since it handed the chunk
 * over. If {@code add} waited for that write, the two would wait for each other; the writer gives
 * up after {@link #PATIENCE_SECONDS} and the test fails.
 */
class SessionOverlapTest extends OneStripeTest {
  static final long SEED = TestSeed.of(SessionOverlapTest.class, 0x0E_11A9L);

  /** Pairs the adding thread must add while a run is being written. */
  static final int AFTER = 2000;

  static final long PATIENCE_SECONDS = 20;

  @Test
  void addingGoesOnWhileAFullChunkIsWritten() throws Exception {
    AtomicInteger added = new AtomicInteger();
    AtomicInteger writes = new AtomicInteger();
    AtomicBoolean stalled = new AtomicBoolean();
    List<Integer> addedWhileWriting = new ArrayList<>();
    // Each write but the first waits for AFTER more pairs (or the end of the input); the adding
    // thread's count is what it has returned from add() for. The first write is awaited by design:
    // the first chunk grew into both halves of the budget before it had to spill.
    int total = 150_000;
    CountDownLatch allAdded = new CountDownLatch(1);
    LongConsumer rendezvous =
        handedAt -> {
          if (writes.incrementAndGet() == 1) {
            return;
          }
          // counted from the hand-off: the writer thread may get to the chunk later
          int at = (int) handedAt;
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
          try {
            while (added.get() < at + AFTER && allAdded.getCount() > 0) {
              if (System.nanoTime() > deadline) {
                stalled.set(true); // add() is waiting for this very write
                return;
              }
              Thread.sleep(1);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          synchronized (addedWhileWriting) {
            addedWhileWriting.add(added.get() - at);
          }
        };
    SortConfig.Builder b =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(8)).threads(2).tempDirs(stripes);
    SortHooks.set(b, SortHooks.of(b).withBeforeSessionRunWrite(rendezvous));
    Random r = new Random(SEED);
    List<byte[][]> pairs = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      byte[] k = new byte[4 + r.nextInt(20)];
      byte[] v = new byte[r.nextInt(200)];
      r.nextBytes(k);
      r.nextBytes(v);
      pairs.add(new byte[][] {k, v});
    }
    List<byte[][]> got = new ArrayList<>();
    try (PairSession s = ExternalSorter.openPairs(b.build())) {
      for (byte[][] p : pairs) {
        s.add(ByteBuffer.wrap(p[0]), ByteBuffer.wrap(p[1]));
        added.incrementAndGet();
      }
      allAdded.countDown();
      assertTrue(s.spilledRuns() + 1 >= 4, "too few runs to test overlap: " + s.spilledRuns());
      try (RecordCursor c = s.finish()) {
        while (c.next()) {
          got.add(new byte[][] {SortSessionTest.copy(c.key()), SortSessionTest.copy(c.value())});
        }
      }
    }
    assertTrue(
        !stalled.get(),
        "add() waited for the run writer (seed " + SEED + "): writes " + writes.get());
    assertTrue(writes.get() >= 4, "writes " + writes.get());
    // Every write but the last ones (near the end of the input) saw AFTER pairs added meanwhile.
    long full = addedWhileWriting.stream().filter(n -> n >= AFTER).count();
    assertTrue(full >= 2, "writes that overlapped " + AFTER + " adds: " + addedWhileWriting);
    List<byte[][]> expected = new ArrayList<>(pairs);
    expected.sort(Comparator.comparing((byte[][] p) -> p[0], Arrays::compareUnsigned));
    assertEquals(expected.size(), got.size(), "seed " + SEED);
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(
          Arrays.equals(expected.get(i)[0], got.get(i)[0])
              && Arrays.equals(expected.get(i)[1], got.get(i)[1]),
          "pair " + i + ", seed " + SEED);
    }
  }
}
