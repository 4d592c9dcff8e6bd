package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

/**
 * The session's {@code add} never waits for a run to be written but the first one: filling the next
 * chunk overlaps sorting and writing the full one. The first chunk took the whole budget while
 * nothing had been written, so {@code add} waits for the run of its later slabs, but not for the
 * rest of it, a second run. A rendezvous proves it, as {@code IntermediateMergesTest} does for
 * concurrent merges: the run writer, about to write each run but the first, waits until the adding
 * thread has added {@value #AFTER} more pairs since it handed the chunk over. If {@code add} waited
 * for that write, the two would wait for each other; the writer gives up after {@link
 * #PATIENCE_SECONDS} and the test fails.
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
    List<Long> handOffs = new ArrayList<>();
    // Each write but the first waits for AFTER more pairs (or the end of the input); the adding
    // thread's count is what it has returned from add() for. The first write is awaited by design:
    // the first chunk grew into both halves of the budget before it had to spill; the second is
    // that chunk's other run, written while adding goes on.
    int total = 150_000;
    CountDownLatch allAdded = new CountDownLatch(1);
    LongConsumer rendezvous =
        handedAt -> {
          synchronized (handOffs) {
            handOffs.add(handedAt);
          }
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
        "add() waited for the run writer (seed "
            + SEED
            + "): writes "
            + writes.get()
            + ", hand-offs "
            + handOffs
            + ", adds while writing "
            + addedWhileWriting);
    assertTrue(writes.get() >= 4, "writes " + writes.get());
    assertEquals(
        handOffs.get(0), handOffs.get(1), "the first chunk went out as two runs: " + handOffs);
    assertTrue(
        addedWhileWriting.get(0) >= AFTER,
        "adds while the first chunk's second run waited: " + addedWhileWriting);
    // Every write but the last ones (near the end of the input) saw AFTER pairs added meanwhile.
    long full = addedWhileWriting.stream().filter(n -> n >= AFTER).count();
    assertTrue(full >= 2, "writes that overlapped " + AFTER + " adds: " + addedWhileWriting);
    SortSessionTest.assertStablySorted(pairs, got, "seed " + SEED);
  }
}
