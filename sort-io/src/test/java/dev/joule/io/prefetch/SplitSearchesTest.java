package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.merge.MergeSplitter;
import dev.joule.core.merge.SortedRunView;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.run.RunDescriptor;
import dev.joule.testing.TestSeed;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split's searches at once ({@link SplitSearches}): a round's searches are in flight together,
 * a round returns only after all of them, and the cuts over run files equal a brute-force count.
 */
class SplitSearchesTest {
  private static final long SEED = TestSeed.of(SplitSearchesTest.class, 0x5EA4_C4E5L);

  @TempDir Path dir;

  /** Four searches that each wait for all four meet only if they run at once. */
  @Test
  void aRoundsSearchesRunAtOnce() {
    CountDownLatch all = new CountDownLatch(4);
    AtomicInteger met = new AtomicInteger();
    try (SplitSearches s = new SplitSearches(SortThreads.JOULE, 4)) {
      s.forEachRun(
          4,
          i -> {
            all.countDown();
            try {
              if (all.await(10, TimeUnit.SECONDS)) {
                met.incrementAndGet();
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
    assertEquals(4, met.get(), "searches that met the others");
  }

  @Test
  void aFailureIsThrownOnlyOnceTheOtherSearchesHaveReturned() {
    IllegalStateException boom = new IllegalStateException("view failed");
    AtomicBoolean slowReturned = new AtomicBoolean();
    CountDownLatch slowStarted = new CountDownLatch(1);
    try (SplitSearches s = new SplitSearches(SortThreads.JOULE, 2)) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  s.forEachRun(
                      2,
                      i -> {
                        if (i == 1) {
                          slowStarted.countDown();
                          sleep(300);
                          slowReturned.set(true);
                          return;
                        }
                        await(slowStarted);
                        throw boom;
                      }));
      assertSame(boom, e);
      assertTrue(slowReturned.get(), "the round threw while a search was still running");
    }
  }

  @Test
  void anInterruptedCallerWaitsForTheRunningSearchesAndReportsACancellation() {
    AtomicBoolean returned = new AtomicBoolean();
    AtomicInteger ran = new AtomicInteger();
    CountDownLatch started = new CountDownLatch(1);
    Thread caller = Thread.currentThread();
    try (SplitSearches s = new SplitSearches(SortThreads.JOULE, 1)) {
      UncheckedIOException e =
          assertThrows(
              UncheckedIOException.class,
              () ->
                  s.forEachRun(
                      3,
                      i -> {
                        ran.incrementAndGet();
                        started.countDown();
                        caller.interrupt();
                        sleep(200);
                        returned.set(true);
                      }));
      assertInstanceOf(SortCancelledException.class, e.getCause());
      assertTrue(Thread.interrupted(), "the caller's interrupt flag is set again");
      assertTrue(returned.get(), "the round returned while a search was running");
      assertEquals(1, ran.get(), "searches queued behind the interrupt are skipped");
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void closeJoinsTheWorkers() {
    List<Thread> made = Collections.synchronizedList(new ArrayList<>());
    SortThreads threads =
        SortThreads.of(
            r -> {
              Thread t = new Thread(r);
              made.add(t);
              return t;
            });
    try (SplitSearches s = new SplitSearches(threads, 3)) {
      s.forEachRun(3, i -> sleep(50));
    }
    assertFalse(made.isEmpty());
    for (Thread t : made) {
      assertFalse(t.isAlive(), t + " still runs after close");
    }
  }

  /**
   * Cuts over run files, searched at once on 8 threads, against a brute-force count of the first r
   * rows of the stable merge: rows of 0..40 bytes, duplicates, and rows over the 64 KiB a view
   * compares in place, which all views share one copy slot for.
   */
  @Test
  void cutsOverRunFilesSearchedAtOnceMatchBruteForce() throws Exception {
    Random r = new Random(SEED);
    EntryLayout rows = InconsistentRunTest.ROWS;
    int k = 9;
    byte[][][] runs = new byte[k][][];
    BlockFile[] files = new BlockFile[k];
    SortedRunView[] views = new SortedRunView[k];
    RunFileView.LastEntry last = new RunFileView.LastEntry();
    try {
      for (int i = 0; i < k; i++) {
        runs[i] = new byte[r.nextInt(400)][];
        for (int j = 0; j < runs[i].length; j++) {
          byte[] row =
              new byte[r.nextInt(50) == 0 ? (64 << 10) + r.nextInt(40 << 10) : r.nextInt(41)];
          r.nextBytes(row);
          if (row.length > 0) {
            row[0] = (byte) r.nextInt(4); // shared first bytes and duplicates
          }
          runs[i][j] = r.nextInt(5) == 0 && j > 0 ? runs[i][j - 1] : row;
        }
        Arrays.sort(runs[i], Arrays::compareUnsigned);
        Path p = InconsistentRunTest.writeRun(dir, rows, runs[i]);
        RunDescriptor d = InconsistentRunTest.descriptor(p, rows);
        files[i] = BlockFile.openRead(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        ByteBuffer page =
            ByteBuffer.allocateDirect(2 * InconsistentRunTest.BLOCK)
                .alignedSlice(InconsistentRunTest.BLOCK)
                .slice(0, InconsistentRunTest.BLOCK);
        views[i] = new RunFileView(files[i], d, page, null, last);
      }
      List<long[]> merged = new ArrayList<>(); // {run, position}, in stable merge order
      for (int i = 0; i < k; i++) {
        for (int j = 0; j < runs[i].length; j++) {
          merged.add(new long[] {i, j});
        }
      }
      merged.sort(
          (a, b) -> {
            int c =
                Arrays.compareUnsigned(runs[(int) a[0]][(int) a[1]], runs[(int) b[0]][(int) b[1]]);
            return c != 0 ? c : Long.compare(a[0], b[0]);
          });
      try (SplitSearches s = new SplitSearches(SortThreads.JOULE, k)) {
        for (long rank = 0; rank <= merged.size(); rank += 1 + r.nextInt(37)) {
          long[] expected = new long[k];
          for (int n = 0; n < rank; n++) {
            expected[(int) merged.get(n)[0]]++;
          }
          assertArrayEquals(
              expected,
              MergeSplitter.cutsAtRank(views, rank, s),
              "rank " + rank + " of " + merged.size() + ", seed " + SEED);
        }
      }
    } finally {
      for (BlockFile f : files) {
        if (f != null) {
          f.close();
        }
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
