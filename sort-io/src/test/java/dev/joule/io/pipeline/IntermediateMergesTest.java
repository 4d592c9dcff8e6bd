package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.plan.SortPlan;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intermediate merge passes on all threads (docs/decisions/D24): several merges of one pass at
 * once, the output byte-identical for any thread count and equal to an independent reference, the
 * budget kept, and a failure or an interrupt in a pass of concurrent merges ending in the
 * clean-failure contract. Inputs are seeded ({@code -Djoule.test.seed}); every message carries the
 * seed.
 */
class IntermediateMergesTest {
  static final long SEED = TestSeed.of(IntermediateMergesTest.class, 0x1A7E_0014L);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  /** Records per run: 2048 of 100 bytes, so that the three arenas lend 36 blocks of 16 KiB. */
  static final int RUN = 2048;

  /** How long a merge held in the hook waits for another to start: far beyond any scheduling. */
  static final long TOGETHER_SECONDS = 20;

  @TempDir Path dir;
  List<Path> stripes;
  String name;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      stripes.add(Files.createDirectories(dir.resolve("stripe" + i)));
    }
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  /**
   * 8 MiB, 16 KiB blocks, fan-in 5, runs of {@link #RUN} records: an intermediate merge needs at
   * least 5 + 1 + 2 blocks and the arenas lend 36, so up to 4 merges fit at once.
   */
  SortConfig.Builder config(int threads) {
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(threads)
            .tempDirs(stripes)
            .fanIn(5)
            .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64));
    return TestHooks.runRecordsLimit(b, RUN);
  }

  /** The widths of the report's intermediate passes, from their names. */
  static List<Integer> widths(SortReport r) {
    List<Integer> w = new ArrayList<>();
    for (PhaseReport p : r.phases()) {
      String n = p.name();
      if (n.startsWith("merge pass") && !n.contains("final")) {
        w.add(Integer.parseInt(n.replaceAll(".*\\((\\d+) at a time\\)$", "$1")));
      }
    }
    return w;
  }

  @Test
  void threadCountsGiveIdenticalOutputMatchingTheReference() throws IOException {
    // Random keys, and few keys (a quarter of all records share one), which tests the stability.
    for (int distinct : new int[] {0, 7}) {
      byte[] data =
          PipelineTestSupport.records(SEED + distinct, 100L * RUN - 333, GENSORT, distinct);
      byte[] expected = PipelineTestSupport.reference(data, GENSORT);
      Path in = dir.resolve("in");
      Files.write(in, data);
      for (int threads : new int[] {1, 2, 4}) {
        String ctx = "seed " + SEED + ", distinct keys " + distinct + ", threads " + threads;
        SortConfig c = config(threads).build();
        Path out = dir.resolve("out-" + threads);
        SortPlan p = ExternalSorter.plan(in, out, c);
        assertEquals(100, p.runs(), ctx);
        assertTrue(p.mergePasses() >= 3, ctx + ": " + p.describe());
        SortReport r = ExternalSorter.sort(in, out, c);
        assertArrayEquals(expected, Files.readAllBytes(out), ctx);
        Files.delete(out);
        assertTrue(
            r.peakMemoryBytes() <= c.memoryBudget().bytes(),
            ctx + ": peak " + r.peakMemoryBytes() + " over the budget");
        List<Integer> widths = widths(r);
        assertEquals(p.mergePasses() - 1, widths.size(), ctx + ": " + r.phases());
        // Pass 1 has 20 merges of 5 runs: as many at once as there are threads.
        assertEquals(threads, widths.get(0), ctx + ": " + r.phases());
        for (int w : widths) {
          assertTrue(w >= 1 && w <= threads, ctx + ": " + r.phases());
        }
      }
      Files.delete(in);
    }
  }

  /** A session that spills every {@code every} records; returns its records in cursor order. */
  static List<byte[]> sessionRun(SortConfig c, byte[] data, int every) throws IOException {
    int rs = GENSORT.recordSize();
    List<byte[]> got = new ArrayList<>();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (int at = 0, n = 0; at < data.length; at += rs, n++) {
        s.add(ByteBuffer.wrap(data, at, rs));
        if (n % every == every - 1) {
          s.spill(); // as a platform's memory manager would: many runs, intermediate passes
        }
      }
      RecordCursor cur = s.finish();
      while (cur.next()) {
        byte[] r = new byte[rs];
        cur.record().get(cur.record().position(), r);
        got.add(r);
      }
      assertTrue(
          s.peakMemoryBytes() <= c.memoryBudget().bytes(),
          "session: peak " + s.peakMemoryBytes() + " over the budget, seed " + SEED);
    }
    return got;
  }

  static byte[] concat(List<byte[]> records) {
    byte[] all = new byte[records.size() * GENSORT.recordSize()];
    for (int i = 0; i < records.size(); i++) {
      System.arraycopy(records.get(i), 0, all, i * GENSORT.recordSize(), GENSORT.recordSize());
    }
    return all;
  }

  @Test
  void sessionThreadCountsGiveIdenticalOutputMatchingTheReference() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED + 1, 60_000, GENSORT, 5);
    byte[] expected = PipelineTestSupport.reference(data, GENSORT);
    for (int threads : new int[] {1, 2, 4}) {
      // 40 runs at fan-in 3: three intermediate passes
      byte[] got = concat(sessionRun(config(threads).fanIn(3).build(), data, 1500));
      assertArrayEquals(expected, got, "session, seed " + SEED + ", threads " + threads);
    }
  }

  /**
   * Holds the first {@code n} intermediate merges in the hook until all {@code n} have started (or
   * {@link #TOGETHER_SECONDS} passed), then calls {@code after} with each merge's arrival number
   * and input files ({@code {Integer, List<Path>}}). {@link #together} says whether all {@code n}
   * were in flight at once, none of them having waited alone until the time ran out.
   */
  static final class Rendezvous implements Consumer<List<Path>> {
    final CountDownLatch arrived;
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger timedOut = new AtomicInteger();
    final Consumer<Object[]> after;

    Rendezvous(int n, Consumer<Object[]> after) {
      this.arrived = new CountDownLatch(n);
      this.after = after;
    }

    @Override
    public void accept(List<Path> inputs) {
      int i = calls.getAndIncrement();
      arrived.countDown();
      try {
        if (!arrived.await(TOGETHER_SECONDS, TimeUnit.SECONDS)) {
          timedOut.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // the merge sees the flag at its first block
      }
      after.accept(new Object[] {i, inputs});
    }

    boolean together() {
      return arrived.getCount() == 0 && timedOut.get() == 0;
    }
  }

  /** A platform's factory that counts and keeps the threads it makes, by joule role. */
  static final class CountingFactory implements ThreadFactory {
    final List<Thread> made = new CopyOnWriteArrayList<>();
    final List<String> roles = new CopyOnWriteArrayList<>();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "caller-" + r + "-" + made.size());
      made.add(t);
      roles.add(r.toString());
      return t;
    }

    long count(String role) {
      return roles.stream().filter(role::equals).count();
    }

    List<String> alive() {
      return made.stream().filter(Thread::isAlive).map(Thread::getName).toList();
    }
  }

  /**
   * The mechanism itself: with two threads, the first two merges of pass 1 are held in the hook
   * until both have started. Run one at a time, the first would wait alone and time out, so this
   * fails deterministically when intermediate merges do not run concurrently. The merge threads
   * come from the caller's factory and have all ended when the sort returns.
   */
  @Test
  void intermediateMergesOfAPassRunConcurrently() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED + 2, 30L * RUN, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    Rendezvous two = new Rendezvous(2, x -> {});
    CountingFactory factory = new CountingFactory();
    SortConfig.Builder b = config(2).threadFactory(factory);
    SortConfig c = TestHooks.beforeIntermediateMerge(b, two).build();
    SortReport r = ExternalSorter.sort(in, out, c);
    String ctx = "seed " + SEED + ", " + r.phases();
    assertTrue(two.together(), ctx + ": merges of pass 1 never ran two at once");
    assertEquals(2, widths(r).get(0), ctx);
    assertTrue(factory.count("joule-merge") >= 2, ctx + ": " + factory.roles);
    assertEquals(List.of(), factory.alive(), ctx + ": caller threads alive after the sort");
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), Files.readAllBytes(out), ctx);
  }

  @Test
  void sessionIntermediateMergesRunConcurrently() throws IOException {
    byte[] data = PipelineTestSupport.records(SEED + 3, 30_000, GENSORT, 0);
    Rendezvous two = new Rendezvous(2, x -> {});
    CountingFactory factory = new CountingFactory();
    SortConfig.Builder b = config(2).fanIn(3).threadFactory(factory);
    SortConfig c = TestHooks.beforeIntermediateMerge(b, two).build();
    byte[] got = concat(sessionRun(c, data, 1500)); // 20 runs: passes of 6, 2 merges, then final
    String ctx = "session, seed " + SEED + ", roles " + factory.roles;
    assertTrue(two.together(), ctx + ": merges never ran two at once");
    assertTrue(factory.count("joule-merge") >= 2, ctx);
    assertEquals(List.of(), factory.alive(), ctx + ": caller threads alive after close");
    assertArrayEquals(PipelineTestSupport.reference(data, GENSORT), got, ctx);
  }

  /**
   * Overwrites bytes in data block 1 of {@code run} (after the 4096-byte header and block 0): its
   * CRC32C no longer matches.
   */
  static void damage(Path run, int blockSize) {
    try (FileChannel ch = FileChannel.open(run, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), 4096L + blockSize + 1000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One of two concurrent merges reads a damaged block: the sort fails with its {@link
   * CorruptRunException} (the other merge, interrupted, is at most suppressed), and leaves no temp
   * file, no output and no thread.
   */
  @Test
  void aFailingConcurrentMergeFailsTheSortCleanly() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED + 4, 30L * RUN, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    int block = 16 * 1024;
    Path[] victim = new Path[1];
    Rendezvous two =
        new Rendezvous(
            2,
            x -> {
              @SuppressWarnings("unchecked")
              List<Path> inputs = (List<Path>) x[1];
              if ((Integer) x[0] == 1) { // the second to start: the first is surely running
                victim[0] = inputs.get(inputs.size() - 1);
                damage(victim[0], block);
              }
            });
    CountingFactory factory = new CountingFactory();
    SortConfig.Builder b = config(2).threadFactory(factory).directIo(DirectIoPolicy.OFF);
    SortConfig c = TestHooks.beforeIntermediateMerge(b, two).build();
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    String ctx = "seed " + SEED + ": ";
    CorruptRunException e =
        assertThrows(CorruptRunException.class, () -> ExternalSorter.sort(in, out, c), ctx);
    assertTrue(two.together(), ctx + "the merges did not run at once");
    assertEquals(victim[0], e.file(), ctx + e.getMessage());
    for (Throwable s : e.getSuppressed()) {
      assertTrue(s instanceof SortCancelledException, ctx + "suppressed " + s);
    }
    before.assertCleanFailure(e, null, false, ctx);
    assertEquals(List.of(), factory.alive(), ctx + "caller threads alive after the failure");
  }

  /**
   * Interrupting the sorting thread while two merges of a pass run cancels the sort: {@link
   * SortCancelledException}, the interrupt flag set, nothing left behind.
   */
  @Test
  void anInterruptDuringConcurrentMergesCancelsTheSortCleanly() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED + 5, 30L * RUN, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    Thread caller = Thread.currentThread();
    Rendezvous two =
        new Rendezvous(
            2,
            x -> {
              if ((Integer) x[0] == 1) {
                caller.interrupt();
              }
            });
    CountingFactory factory = new CountingFactory();
    SortConfig c = TestHooks.beforeIntermediateMerge(config(2).threadFactory(factory), two).build();
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    String ctx = "seed " + SEED + ": ";
    SortCancelledException e;
    try {
      e = assertThrows(SortCancelledException.class, () -> ExternalSorter.sort(in, out, c), ctx);
      assertTrue(Thread.currentThread().isInterrupted(), ctx + "the interrupt flag was cleared");
    } finally {
      Thread.interrupted();
    }
    assertTrue(two.together(), ctx + "the merges did not run at once");
    before.assertCleanFailure(e, null, true, ctx);
    assertEquals(List.of(), factory.alive(), ctx + "caller threads alive after the cancellation");
  }

  /**
   * An interrupt that reaches the sorting thread just as a one-at-a-time intermediate merge starts
   * (after the pass's cancellation check, before the merge opens its input runs) cancels the sort
   * like any other interrupt: the first read of a run meets the flag inside {@code FileChannel},
   * which closes the channel and throws {@link ClosedByInterruptException}, and that must still end
   * in {@link SortCancelledException} with the interrupt flag set, the previous output unchanged
   * and nothing left behind. Which merge is hit, and whether the runs are read with direct I/O, is
   * drawn from the seed.
   */
  @Test
  void anInterruptAsAOneAtATimeMergeOpensItsRunsCancelsTheSortCleanly() throws Exception {
    Random random = new Random(SEED + 6);
    byte[] data = PipelineTestSupport.records(SEED + 6, 30L * RUN, GENSORT, 0);
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    DirectIoPolicy io = random.nextBoolean() ? DirectIoPolicy.AUTO : DirectIoPolicy.OFF;
    // A first sort counts the intermediate merges; its output is the previous output to keep.
    AtomicInteger merges = new AtomicInteger();
    SortConfig counting =
        TestHooks.beforeIntermediateMerge(
                config(1).directIo(io), inputs -> merges.incrementAndGet())
            .build();
    SortReport r = ExternalSorter.sort(in, out, counting);
    String plan = "seed " + SEED + ", direct I/O " + io + ", " + r.phases();
    assertTrue(merges.get() >= 2, plan + ": not enough intermediate merges");
    assertTrue(widths(r).stream().allMatch(w -> w == 1), plan + ": merges ran concurrently");
    int target = random.nextInt(merges.get());
    String ctx =
        "seed "
            + SEED
            + ", direct I/O "
            + io
            + ", interrupt at intermediate merge "
            + target
            + " of "
            + merges.get()
            + ": ";
    Thread caller = Thread.currentThread();
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger elsewhere = new AtomicInteger();
    SortConfig c =
        TestHooks.beforeIntermediateMerge(
                config(1).directIo(io),
                inputs -> {
                  if (Thread.currentThread() != caller) {
                    elsewhere.incrementAndGet();
                  }
                  if (calls.getAndIncrement() == target) {
                    Thread.currentThread().interrupt();
                  }
                })
            .build();
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    SortCancelledException e;
    try {
      e = assertThrows(SortCancelledException.class, () -> ExternalSorter.sort(in, out, c), ctx);
      assertTrue(Thread.currentThread().isInterrupted(), ctx + "the interrupt flag was cleared");
    } finally {
      Thread.interrupted();
    }
    assertEquals(0, elsewhere.get(), ctx + "a merge ran off the sorting thread");
    assertEquals(target + 1, calls.get(), ctx + "merges started after the interrupt");
    // Else the interrupt was caught before any channel saw it: this test no longer covers the path.
    assertTrue(
        PipelineTestSupport.causedBy(e, ClosedByInterruptException.class),
        ctx + "no ClosedByInterruptException in the cause chain of " + e);
    before.assertCleanFailure(e, null, true, ctx);
  }
}
