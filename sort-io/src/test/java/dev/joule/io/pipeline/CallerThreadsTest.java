package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.IoTestSupport;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threading contract of {@code SortConfig.threadFactory} and {@code SortConfig.computePool},
 * for the file sort and the session: every dedicated thread comes from the caller's factory and has
 * ended when the sort returns (no {@code joule-*} thread is seen while it runs), the compute work
 * runs on the caller's pool (which stays usable), and a factory that fails at any one of its calls,
 * or a pool that is shut down, fails the sort with a clear {@link RejectedExecutionException} and
 * leaves nothing behind (the clean-failure contract). Outputs are compared with an in-memory
 * reference sort of the same seeded input.
 */
class CallerThreadsTest {
  static final long SEED = TestSeed.of(CallerThreadsTest.class, 0x7423_ADL);
  static final FixedLengthFormat GENSORT = RecordFormat.gensort();

  @TempDir Path dir;
  List<Path> stripes;
  String name;
  final List<ForkJoinPool> pools = new ArrayList<>();

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = List.of(Files.createDirectories(dir.resolve("s0")));
  }

  @AfterEach
  void leaks() throws Exception {
    pools.forEach(ForkJoinPool::shutdownNow);
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }

  // ---- the caller's side ----

  /** How a {@link CallerFactory} refuses its failing call. */
  enum Refusal {
    THROW,
    NULL,
    STARTED
  }

  /**
   * A platform's factory: names its threads {@code caller-<joule role>-N}, keeps every one, and
   * refuses the {@code failAt}-th call (0: never).
   */
  static final class CallerFactory implements ThreadFactory {
    final List<Thread> made = new CopyOnWriteArrayList<>();
    final Set<String> roles = ConcurrentHashMap.newKeySet();
    final AtomicInteger calls = new AtomicInteger();
    final int failAt;
    final Refusal refusal;
    final IllegalStateException refused = new IllegalStateException("no thread for joule today");

    CallerFactory(int failAt, Refusal refusal) {
      this.failAt = failAt;
      this.refusal = refusal;
    }

    CallerFactory() {
      this(0, Refusal.THROW);
    }

    @Override
    public Thread newThread(Runnable r) {
      int n = calls.incrementAndGet();
      if (n == failAt) {
        switch (refusal) {
          case THROW:
            throw refused;
          case NULL:
            return null;
          case STARTED:
            Thread t = new Thread(() -> {}, "caller-started-" + n);
            t.start();
            return t;
        }
      }
      Thread t = new Thread(r, "caller-" + r + "-" + n);
      made.add(t);
      roles.add(r.toString());
      return t;
    }

    List<String> alive() {
      return made.stream().filter(Thread::isAlive).map(Thread::getName).toList();
    }
  }

  /** A platform's pool: records what joule runs on it, names its workers {@code caller-fj-N}. */
  static final class CallerPool extends ForkJoinPool {
    final Set<String> tasks = ConcurrentHashMap.newKeySet();
    final AtomicLong calls = new AtomicLong();
    final AtomicInteger workers;

    private CallerPool(int parallelism, AtomicInteger workers) {
      super(
          parallelism,
          p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("caller-fj-" + workers.incrementAndGet());
            return t;
          },
          null,
          false);
      this.workers = workers;
    }

    static CallerPool of(int parallelism) {
      return new CallerPool(parallelism, new AtomicInteger());
    }

    private void note(Object task) {
      calls.incrementAndGet();
      tasks.add(task.getClass().getName());
    }

    @Override
    public <T> T invoke(ForkJoinTask<T> task) {
      note(task);
      return super.invoke(task);
    }

    @Override
    public <T> ForkJoinTask<T> submit(Callable<T> task) {
      note(task);
      return super.submit(task);
    }

    @Override
    public <T> ForkJoinTask<T> submit(ForkJoinTask<T> task) {
      note(task);
      return super.submit(task);
    }

    @Override
    public void execute(ForkJoinTask<?> task) {
      note(task);
      super.execute(task);
    }

    boolean ranRadixSort() {
      return tasks.stream().anyMatch(t -> t.startsWith("dev.joule.core.radix."));
    }

    /** The pool still takes and runs work. */
    void assertUsable() throws Exception {
      assertFalse(isShutdown(), "joule shut the caller's pool down");
      assertEquals(42, super.submit(() -> 42).get(10, TimeUnit.SECONDS));
    }
  }

  CallerPool pool(int parallelism) {
    CallerPool p = CallerPool.of(parallelism);
    pools.add(p);
    return p;
  }

  /**
   * Samples the live threads while a sort runs: on a background thread every 2 ms and whenever the
   * sort reports progress. Remembers every {@code joule-*} thread and every caller thread seen.
   */
  static final class ThreadWatch implements AutoCloseable {
    final Set<String> joule = ConcurrentHashMap.newKeySet();
    final Set<String> callers = ConcurrentHashMap.newKeySet();
    private volatile boolean done;
    private final Thread sampler;

    ThreadWatch() {
      sampler =
          new Thread(
              () -> {
                while (!done) {
                  sample();
                  try {
                    Thread.sleep(2);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "test-thread-watch");
      sampler.setDaemon(true);
      sampler.start();
    }

    void sample() {
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        String n = t.getName();
        if (!t.isAlive()) {
          continue;
        }
        if (n.startsWith("joule-")) {
          joule.add(n.replaceAll("-[0-9-]+$", ""));
        } else if (n.startsWith("caller-")) {
          callers.add(n.replaceAll("-[0-9]+$", ""));
        }
      }
    }

    /** Stops sampling; what was seen stays readable. Idempotent. */
    void stop() {
      done = true;
      try {
        sampler.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while stopping the watch", e);
      }
    }

    @Override
    public void close() {
      stop();
    }
  }

  // ---- inputs and references ----

  SortConfig.Builder base() {
    return SortConfig.builder()
        .memoryBudget(DataSize.ofMiB(16))
        .tempDirs(stripes)
        .transferSize(FileKind.TEMP, DataSize.ofKiB(16))
        .transferSize(FileKind.INPUT, DataSize.ofKiB(64))
        .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64));
  }

  /** The two file sorts: fixed records read in place, and lines parsed on a parse thread. */
  enum Shape {
    FIXED,
    LINES
  }

  /**
   * A two-pass sort with several runs, intermediate merges (fan-in 3) and a parallel final merge.
   */
  SortConfig.Builder twoPass(Shape shape) {
    SortConfig.Builder b = base().fanIn(3);
    if (shape == Shape.LINES) {
      b.format(RecordFormat.lines());
      return TestHooks.runRecordsLimit(b, 6000);
    }
    return TestHooks.runRecordsLimit(b, 8 * 1024);
  }

  static byte[] input(Shape shape, long seed) {
    if (shape == Shape.FIXED) {
      return PipelineTestSupport.records(seed, 60_000, GENSORT, 0);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] line : lines(seed, 40_000)) {
      out.writeBytes(line);
      out.write('\n');
    }
    return out.toByteArray();
  }

  static List<byte[]> lines(long seed, int n) {
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[r.nextInt(80)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) ('a' + r.nextInt(4));
      }
      out.add(b);
    }
    return out;
  }

  /** The expected output, sorted in memory independently of joule. */
  static byte[] reference(Shape shape, byte[] data) {
    if (shape == Shape.FIXED) {
      return PipelineTestSupport.reference(data, GENSORT);
    }
    List<byte[]> ls = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < data.length; i++) {
      if (data[i] == '\n') {
        ls.add(Arrays.copyOfRange(data, start, i));
        start = i + 1;
      }
    }
    ls.sort(Arrays::compareUnsigned);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] l : ls) {
      out.writeBytes(l);
      out.write('\n');
    }
    return out.toByteArray();
  }

  /**
   * Sorts {@code data} with {@code c} (progress sampled by {@code watch}) and checks the output.
   */
  void sortAndCheck(Shape shape, byte[] data, SortConfig.Builder c, ThreadWatch watch)
      throws IOException {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, data);
    ExternalSorter.sort(in, out, c.progress((phase, done, total) -> watch.sample()).build());
    assertArrayEquals(reference(shape, data), Files.readAllBytes(out), "seed " + SEED);
  }

  // ---- (a) and (b): the file sort ----

  @Test
  void fileSortThreadsComeFromTheCallersFactoryAndComputeFromItsPool() throws Exception {
    for (Shape shape : Shape.values()) {
      String context = shape + ", seed " + SEED;
      CallerFactory factory = new CallerFactory();
      CallerPool pool = pool(3);
      byte[] data = input(shape, SEED + shape.ordinal());
      try (ThreadWatch watch = new ThreadWatch()) {
        sortAndCheck(shape, data, twoPass(shape).threadFactory(factory).computePool(pool), watch);
        watch.stop();
        assertEquals(Set.of(), watch.joule, context + ": joule's own threads ran");
        assertFalse(watch.callers.isEmpty(), context + ": the watch saw no caller thread");
      }
      Set<String> expected =
          new TreeSet<>(
              List.of(
                  "joule-read",
                  "joule-write",
                  "joule-runwrite",
                  "joule-prefetch",
                  "joule-merge",
                  "joule-split",
                  "joule-timeline",
                  // each run written from memory has its thread to compress blocks ahead of its
                  // writer (CompressAhead), whether or not auto compresses them
                  "joule-compress"));
      if (shape == Shape.LINES) {
        expected.add("joule-parse");
      }
      assertEquals(expected, new TreeSet<>(factory.roles), context + ": roles asked for");
      assertEquals(factory.calls.get(), factory.made.size(), context);
      assertEquals(List.of(), factory.alive(), context + ": caller threads alive after the sort");
      if (shape == Shape.FIXED) {
        // (parsed runs this small are sorted and gathered on the sorting thread alone)
        assertTrue(pool.calls.get() > 0, context + ": nothing ran on the caller's pool");
        assertTrue(pool.workers.get() > 0, context + ": the caller's pool started no worker");
      }
      pool.assertUsable();
    }
  }

  /**
   * {@code auto}'s device probe (a read of the first run file of 24 MiB or more, 64 KiB here, on a
   * thread of its own) comes from the caller's factory too and has ended when the sort returns.
   */
  @Test
  void theDeviceProbeComesFromTheCallersFactoryAndEndsWithTheSort() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED + 5, 200_000, GENSORT, 0); // 20 MB
    for (int at = 0; at < data.length; at += 100) {
      // payloads that compress: auto reads no run back while its blocks do not shrink
      Arrays.fill(data, at + 10, at + 100, (byte) ('A' + (at / 100) % 3));
    }
    CallerFactory factory = new CallerFactory();
    CallerPool pool = pool(3);
    SortReport report;
    try (ThreadWatch watch = new ThreadWatch()) {
      SortConfig.Builder c =
          TestHooks.probeMinBytes(
              base().threadFactory(factory).computePool(pool),
              64 << 10); // runs of ~1 MB, stored in ~240 KB
      Path in = dir.resolve("in");
      Path out = dir.resolve("out");
      Files.write(in, data);
      report = ExternalSorter.sort(in, out, c.progress((p, d, t) -> watch.sample()).build());
      assertArrayEquals(reference(Shape.FIXED, data), Files.readAllBytes(out), "seed " + SEED);
      watch.stop();
      assertEquals(Set.of(), watch.joule, "joule's own threads ran");
    }
    Assumptions.assumeTrue(
        IoTestSupport.takesDirectIo(dir), "no direct I/O in " + dir + ": nothing to probe");
    assertTrue(
        factory.roles.contains("joule-probe"),
        "roles asked for: " + factory.roles + "; " + report.toJson());
    assertEquals(List.of(), factory.alive(), "caller threads alive after the sort");
    pool.assertUsable();
  }

  @Test
  void theRadixSortRunsOnTheCallersPool() throws Exception {
    // One pass over more records than the radix sorter sorts alone: its first level and every
    // large bucket are tasks, which must land on the caller's pool.
    byte[] data = PipelineTestSupport.records(SEED, 120_000, GENSORT, 0);
    CallerPool pool = pool(2);
    SortConfig.Builder c = base().memoryBudget(DataSize.ofMiB(64)).computePool(pool);
    assertEquals(2, c.build().threads(), "threads follow the pool's parallelism");
    try (ThreadWatch watch = new ThreadWatch()) {
      sortAndCheck(Shape.FIXED, data, c, watch);
      watch.stop();
      assertFalse(
          watch.joule.stream().anyMatch(n -> n.startsWith("joule-radix")),
          "joule started a pool of its own: " + watch.joule);
    }
    assertTrue(pool.ranRadixSort(), "radix tasks on the caller's pool: " + pool.tasks);
    assertTrue(pool.workers.get() > 0, "the caller's pool never started a worker");
    pool.assertUsable();
  }

  @Test
  void withoutACallersFactoryJouleNamesItsOwnThreads() throws Exception {
    // The watch's other side: it does see joule's threads when no factory is given (these four
    // live while the sort reports progress, so the samples taken then always find them).
    try (ThreadWatch watch = new ThreadWatch()) {
      sortAndCheck(Shape.LINES, input(Shape.LINES, SEED), twoPass(Shape.LINES), watch);
      watch.stop();
      assertTrue(
          watch.joule.containsAll(
              List.of("joule-read", "joule-parse", "joule-runwrite", "joule-merge")),
          "seen: " + watch.joule);
    }
    SortConfig c = base().build();
    assertNull(c.threadFactory());
    assertNull(c.computePool());
    assertEquals(Runtime.getRuntime().availableProcessors(), c.threads());
  }

  @Test
  void threadsSetExplicitlyWinOverThePoolsParallelism() {
    CallerPool pool = pool(5);
    SortConfig byPool = base().computePool(pool).build();
    assertEquals(5, byPool.threads());
    assertSame(pool, byPool.computePool());
    SortConfig explicit = base().computePool(pool).threads(2).build();
    assertEquals(2, explicit.threads());
    assertEquals(2, explicit.toBuilder().build().threads());
    CallerPool other = pool(3);
    assertEquals(3, byPool.toBuilder().computePool(other).build().threads(), "not set: re-derived");
    assertEquals(
        Runtime.getRuntime().availableProcessors(),
        byPool.toBuilder().computePool(null).build().threads());
  }

  // ---- (a) and (b): the session ----

  /** Fixed records added to a session that spills several times and merges while iterating. */
  List<byte[]> sessionRun(SortConfig c, byte[] data, ThreadWatch watch) throws IOException {
    int rs = GENSORT.recordSize();
    List<byte[]> got = new ArrayList<>();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (int at = 0; at < data.length; at += 100 * rs) {
        int n = Math.min(100 * rs, data.length - at);
        s.add(ByteBuffer.wrap(data, at, n));
        if (at % (200 * 100 * rs) == 0) {
          watch.sample();
          s.spill(); // as a platform's memory manager would, so that the session merges
        }
      }
      assertTrue(s.spilledRuns() >= 3, "spills: " + s.spilledRuns());
      RecordCursor cur = s.finish();
      while (cur.next()) {
        byte[] r = new byte[rs];
        cur.record().get(cur.record().position(), r);
        got.add(r);
        if (got.size() % 1000 == 0) {
          watch.sample();
        }
      }
    }
    return got;
  }

  static List<byte[]> records(byte[] data) {
    List<byte[]> out = new ArrayList<>();
    for (int at = 0; at < data.length; at += GENSORT.recordSize()) {
      out.add(Arrays.copyOfRange(data, at, at + GENSORT.recordSize()));
    }
    return out;
  }

  @Test
  void sessionThreadsComeFromTheCallersFactoryAndComputeFromItsPool() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED + 7, 100_000, GENSORT, 1000);
    CallerFactory factory = new CallerFactory();
    CallerPool pool = pool(2);
    SortConfig c =
        base().fanIn(3).threadFactory(factory).computePool(pool).mergeAhead(true).build();
    List<byte[]> got;
    try (ThreadWatch watch = new ThreadWatch()) {
      got = sessionRun(c, data, watch);
      watch.stop();
      assertEquals(Set.of(), watch.joule, "joule's own threads ran");
      assertFalse(watch.callers.isEmpty(), "the watch saw no caller thread");
    }
    assertEquals(
        records(PipelineTestSupport.reference(data, GENSORT)).stream()
            .map(Arrays::toString)
            .toList(),
        got.stream().map(Arrays::toString).toList(),
        "seed " + SEED);
    // runwrite: the session writes a full chunk while the next one fills; merge: the
    // intermediate passes of the session run two merges at once (docs/decisions/D24); ahead: its
    // final merge runs ahead of the cursor (MergeAhead, asked for here); compress: a spill's
    // blocks are compressed ahead of its writer when auto compresses them (CompressAhead)
    assertEquals(
        Set.of(
            "joule-runwrite",
            "joule-write",
            "joule-prefetch",
            "joule-merge",
            "joule-ahead",
            "joule-compress"),
        factory.roles);
    assertEquals(List.of(), factory.alive(), "caller threads alive after close");
    assertTrue(pool.calls.get() > 0, "nothing ran on the caller's pool");
    pool.assertUsable();
  }

  // ---- (c): refusals ----

  /** The contract after a refusal: the error, then nothing left (output, temps, threads, fds). */
  static void assertRefused(
      Throwable e, CallerFactory factory, CleanFailureContract.Snapshot before, String context)
      throws Exception {
    if (!(e instanceof RejectedExecutionException)) {
      throw new AssertionError(context + ": expected a RejectedExecutionException", e);
    }
    String m = e.getMessage();
    assertTrue(m.contains("ThreadFactory") && m.contains("joule-"), context + ": " + m);
    if (factory.refusal == Refusal.THROW) {
      assertSame(factory.refused, e.getCause(), context + ": the factory's exception as the cause");
    }
    before.assertNoLeftovers(context, e);
    assertEquals(List.of(), factory.alive(), context + ": caller threads alive after the failure");
  }

  @Test
  void aFactoryRefusingAnyOneThreadFailsTheFileSortCleanly() throws Exception {
    for (Shape shape : Shape.values()) {
      byte[] data = input(shape, SEED + 11 + shape.ordinal());
      Path in = dir.resolve("in");
      Path out = dir.resolve("out");
      Files.write(in, data);
      CallerFactory counting = new CallerFactory();
      ExternalSorter.sort(in, out, twoPass(shape).threadFactory(counting).build());
      assertArrayEquals(reference(shape, data), Files.readAllBytes(out), shape + ", seed " + SEED);
      int calls = counting.calls.get();
      assertTrue(calls > 10, shape + ": only " + calls + " threads");
      byte[] previous = "the previous output".getBytes(StandardCharsets.US_ASCII);
      for (int k = 1; k <= calls; k++) {
        Refusal refusal = Refusal.values()[k % Refusal.values().length];
        String context = shape + ", refusing call " + k + " of " + calls + " (" + refusal + ")";
        if (k % 2 == 0) {
          Files.write(out, previous); // must survive the failure unchanged
        } else {
          Files.deleteIfExists(out);
        }
        CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
        CallerFactory factory = new CallerFactory(k, refusal);
        SortConfig c = twoPass(shape).threadFactory(factory).build();
        Throwable e = assertThrows(Throwable.class, () -> ExternalSorter.sort(in, out, c), context);
        assertRefused(e, factory, before, context);
      }
    }
  }

  @Test
  void aFactoryRefusingAnyOneThreadFailsTheSessionCleanly() throws Exception {
    byte[] data = PipelineTestSupport.records(SEED + 13, 60_000, GENSORT, 0);
    Path none = dir.resolve("no-output");
    CallerFactory counting = new CallerFactory();
    SortConfig.Builder c = base().fanIn(3);
    try (ThreadWatch watch = new ThreadWatch()) {
      sessionRun(c.threadFactory(counting).build(), data, watch);
    }
    int calls = counting.calls.get();
    assertTrue(calls > 3, "session: only " + calls + " threads");
    for (int k = 1; k <= calls; k++) {
      Refusal refusal = Refusal.values()[k % Refusal.values().length];
      String context = "session, refusing call " + k + " of " + calls + " (" + refusal + ")";
      CleanFailureContract.Snapshot before = CleanFailureContract.before(none, stripes);
      CallerFactory factory = new CallerFactory(k, refusal);
      SortConfig failing = c.threadFactory(factory).build();
      Throwable e =
          assertThrows(
              Throwable.class,
              () -> {
                try (ThreadWatch watch = new ThreadWatch()) {
                  sessionRun(failing, data, watch);
                }
              },
              context);
      assertRefused(e, factory, before, context);
    }
  }

  @Test
  void aShutDownPoolFailsTheFileSortBeforeAnythingIsWritten() throws Exception {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, input(Shape.FIXED, SEED));
    CallerPool pool = pool(2);
    pool.shutdown();
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    for (SortConfig.Builder c : List.of(base(), twoPass(Shape.FIXED))) {
      RejectedExecutionException e =
          assertThrows(
              RejectedExecutionException.class,
              () -> ExternalSorter.sort(in, out, c.computePool(pool).build()));
      assertTrue(e.getMessage().contains("SortConfig.computePool"), e.getMessage());
      before.assertNoLeftovers("shut-down pool", e);
    }
    assertEquals(0, pool.calls.get(), "tasks offered to a shut-down pool");
  }

  @Test
  void aShutDownPoolFailsTheSessionAndItsCloseLeavesNothing() throws Exception {
    Path none = dir.resolve("no-output");
    CallerPool dead = pool(2);
    dead.shutdown();
    RejectedExecutionException atOpen =
        assertThrows(
            RejectedExecutionException.class,
            () -> ExternalSorter.open(base().computePool(dead).build()));
    assertTrue(atOpen.getMessage().contains("SortConfig.computePool"), atOpen.getMessage());

    // Shut down while the session holds spilled runs: the next spill fails, close cleans up.
    byte[] data = PipelineTestSupport.records(SEED + 17, 20_000, GENSORT, 0);
    CallerPool pool = pool(2);
    CleanFailureContract.Snapshot before = CleanFailureContract.before(none, stripes);
    RejectedExecutionException e;
    try (RecordSession s = ExternalSorter.open(base().computePool(pool).build())) {
      s.add(ByteBuffer.wrap(data, 0, data.length / 2));
      s.spill();
      pool.shutdown();
      s.add(ByteBuffer.wrap(data, data.length / 2, data.length - data.length / 2));
      e = assertThrows(RejectedExecutionException.class, s::spill);
      assertTrue(e.getMessage().contains("SortConfig.computePool"), e.getMessage());
    }
    before.assertNoLeftovers("pool shut down during a session", e);
  }
}
