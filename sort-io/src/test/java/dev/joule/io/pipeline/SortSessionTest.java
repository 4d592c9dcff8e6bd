package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.KeyEncoder;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The embedding session with variable-length records and key/value pairs: order against a reference
 * sort with comparators written from the definitions, the cursor's key and value views, the
 * iterator adapter, cooperative spill from a second thread while adding and while iterating, the
 * memory bound, and a failing spill that leaves no temp files.
 */
class SortSessionTest extends OneStripeTest {
  static final long SEED = TestSeed.of(SortSessionTest.class, 0x5E55_1011L);

  SortConfig.Builder config(DataSize budget) {
    return SortConfig.builder()
        .memoryBudget(budget)
        .threads(2)
        .tempDirs(stripes)
        .transferSize(FileKind.TEMP, DataSize.ofKiB(64))
        .transferSize(FileKind.OUTPUT, DataSize.ofKiB(64))
        .transferSize(FileKind.INPUT, DataSize.ofKiB(64));
  }

  static List<byte[]> lines(Random r, int n) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[r.nextInt(10) == 0 ? 0 : 10 + r.nextInt(190)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) ('a' + r.nextInt(3)); // few letters: long shared prefixes, duplicates
      }
      out.add(b);
    }
    return out;
  }

  static byte[] copy(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  static List<byte[]> drain(RecordCursor c) throws IOException {
    List<byte[]> out = new ArrayList<>();
    while (c.next()) {
      out.add(copy(c.record()));
    }
    return out;
  }

  /**
   * Asserts that {@code got} holds the key/value pairs of {@code pairs} in a stable sort by key
   * (unsigned bytes): the reference order of a pair session without a last resort.
   */
  static void assertStablySorted(List<byte[][]> pairs, List<byte[][]> got, String what) {
    List<byte[][]> expected = new ArrayList<>(pairs);
    expected.sort(Comparator.comparing((byte[][] p) -> p[0], Arrays::compareUnsigned));
    assertEquals(expected.size(), got.size(), what + ": pairs");
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(
          Arrays.equals(expected.get(i)[0], got.get(i)[0])
              && Arrays.equals(expected.get(i)[1], got.get(i)[1]),
          what + ": pair " + i + " of " + expected.size());
    }
  }

  static void assertSameRecords(List<byte[]> expected, List<byte[]> got, String what) {
    assertEquals(expected.size(), got.size(), what + ": record count, seed " + SEED);
    for (int i = 0; i < expected.size(); i++) {
      if (!Arrays.equals(expected.get(i), got.get(i))) {
        assertArrayEquals(expected.get(i), got.get(i), what + ": record " + i + ", seed " + SEED);
      }
    }
  }

  @Test
  void linesSpillWhenTheArenaFillsAndComeBackInOrder() throws IOException {
    List<byte[]> recs = lines(new Random(SEED), 150_000);
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    SortConfig c = config(DataSize.ofMiB(8)).format(RecordFormat.lines()).build();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] r : recs) {
        s.add(ByteBuffer.wrap(r));
      }
      assertTrue(s.spilledRuns() > 0, "the arena never filled: no spill tested");
      RecordCursor cur = s.finish();
      List<byte[]> got = new ArrayList<>();
      while (cur.next()) {
        got.add(copy(cur.record()));
        assertEquals(cur.record(), cur.key(), "a whole-line key is the line");
      }
      assertSameRecords(expected, got, "lines");
      assertTrue(s.peakMemoryBytes() <= c.memoryBudget().bytes(), "peak " + s.peakMemoryBytes());
    }
  }

  /**
   * Until it spills, a session holds its whole budget in one chunk (less the run writer's pool it
   * would need to spill): lines filling three quarters of the budget stay in memory, where a
   * session that kept to two half chunks wrote a run at about half (issue 27). Then more lines make
   * it spill, and from there on it keeps to two chunks within the budget.
   */
  @Test
  void beforeItsFirstSpillASessionHoldsItsWholeBudget() throws IOException {
    Random r = new Random(SEED + 6);
    SortConfig c = config(DataSize.ofMiB(16)).format(RecordFormat.lines()).build();
    long budget = c.memoryBudget().bytes();
    List<byte[]> added = new ArrayList<>();
    try (RecordSession s = ExternalSorter.open(c)) {
      while (s.memoryBytes() < budget * 3 / 4) {
        byte[] b = lines(r, 1).get(0);
        s.add(ByteBuffer.wrap(b));
        added.add(b);
        assertEquals(
            0,
            s.spilledRuns(),
            "spilled at " + s.memoryBytes() + " of " + budget + " bytes, seed " + SEED);
      }
      List<byte[]> expected = new ArrayList<>(added);
      expected.sort(Arrays::compareUnsigned);
      assertSameRecords(expected, drain(s.finish()), "held in memory");
      assertEquals(0, s.spilledRuns(), "seed " + SEED);
    }
    // The same session with three times as many lines spills, and stays within its budget.
    try (RecordSession s = ExternalSorter.open(c)) {
      for (int i = 0; i < 3; i++) {
        for (byte[] b : added) {
          s.add(ByteBuffer.wrap(b));
        }
      }
      assertTrue(s.spilledRuns() > 0, "runs " + s.spilledRuns() + ", seed " + SEED);
      List<byte[]> expected = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        expected.addAll(added);
      }
      expected.sort(Arrays::compareUnsigned);
      assertSameRecords(expected, drain(s.finish()), "spilled");
      assertWithinBudget(s, c, "spilled");
    }
  }

  /**
   * The session's spills are compressed as the file sort's runs are: lines of three letters spilled
   * with LZ4 and with zstd take at most 80 % of the temp bytes the same spills take uncompressed,
   * and come back in order through the merge of compressed runs.
   */
  @Test
  void spilledRunsAreCompressed() throws IOException {
    List<byte[]> recs = lines(new Random(SEED + 9), 150_000);
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    long raw = 0;
    for (Compression comp : List.of(Compression.off(), Compression.lz4(), Compression.zstd(3))) {
      SortConfig c =
          config(DataSize.ofMiB(8)).format(RecordFormat.lines()).compression(comp).build();
      try (RecordSession s = ExternalSorter.open(c)) {
        for (byte[] r : recs) {
          s.add(ByteBuffer.wrap(r));
        }
        assertTrue(s.spilledRuns() > 1, comp + ": the arena never filled: no spill tested");
        // finish() writes the last chunk and waits for every write: only then are the run files
        // whole (measured before it, an asynchronous write in flight made the sizes a race).
        RecordCursor cur = s.finish();
        assertEquals(0, s.stats().mergePasses(), comp + ": a merge pass rewrote the runs");
        long onDisk;
        try (Stream<Path> files = Files.walk(stripes.get(0))) {
          onDisk =
              files
                  .filter(f -> f.getFileName().toString().startsWith("run-"))
                  .mapToLong(f -> f.toFile().length())
                  .sum();
        }
        System.out.println(comp + ": " + onDisk + " bytes on disk");
        if (comp.equals(Compression.off())) {
          raw = onDisk;
        } else {
          assertTrue(onDisk <= raw * 0.8, comp + ": " + onDisk + " bytes on disk, off: " + raw);
        }
        assertSameRecords(expected, drain(cur), comp + " lines");
      }
    }
  }

  /**
   * Short lines at default transfer sizes: the index outweighs the arena, and a merge of many runs
   * wants more buffers than the arena it borrows holds. The session never holds more than its
   * budget: run formation, intermediate merges and the streaming final merge.
   */
  @Test
  void shortLinesMergeWithinTheBudget() throws IOException {
    Random r = new Random(SEED + 5);
    List<byte[]> recs = new ArrayList<>();
    for (int i = 0; i < 1_500_000; i++) {
      recs.add(Integer.toString(r.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII));
    }
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(8))
            .threads(2)
            .tempDirs(stripes)
            .format(RecordFormat.lines())
            .build();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] b : recs) {
        s.add(ByteBuffer.wrap(b));
      }
      int runs = s.spilledRuns();
      SessionStats before = s.stats();
      RecordCursor cur = s.finish();
      assertSameRecords(expected, drain(cur), "short lines");
      assertTrue(runs >= 8, "only " + runs + " runs");
      // stats: every line went through a sorted chunk into a run; merges only rewrite runs
      SessionStats st = s.stats();
      long lineBytes = recs.stream().mapToLong(b -> b.length).sum();
      assertEquals(runs, before.spilledRuns());
      assertTrue(st.spilledRuns() >= runs, st + " after " + runs + " runs");
      assertTrue(st.spilledBytes() >= lineBytes, st + " for " + lineBytes + " bytes of lines");
      assertTrue(st.sortNanos() > 0 && st.sortNanos() >= before.sortNanos(), st.toString());
      assertEquals(st.mergePasses() > 0, st.mergedBytes() > 0, st.toString());
      assertTrue(st.mergedBytes() <= st.mergePasses() * st.spilledBytes(), st.toString());
      assertEquals(s.peakMemoryBytes(), st.peakMemoryBytes());
      assertTrue(
          s.peakMemoryBytes() <= c.memoryBudget().bytes(),
          "peak " + s.peakMemoryBytes() + " with " + runs + " runs, seed " + SEED);
    }
  }

  /**
   * Records and values larger than the whole budget (9 MB under 8 MiB): each is spilled as a run of
   * its own between the runs before and after it, so the output is the reference's, stable.
   */
  @Test
  void recordsLargerThanTheBudgetBecomeRunsOfTheirOwn() throws IOException {
    Random r = new Random(SEED + 5);
    List<byte[]> recs = lines(r, 30_000);
    byte[] big = new byte[9 << 20];
    Arrays.fill(big, (byte) 'b');
    recs.add(0, big);
    recs.add(recs.size() / 2, big.clone());
    byte[] bigger = Arrays.copyOf(big, big.length + 1);
    recs.add(bigger);
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    SortConfig c = config(DataSize.ofMiB(8)).format(RecordFormat.lines()).build();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] b : recs) {
        s.add(ByteBuffer.wrap(b));
      }
      assertTrue(s.spilledRuns() >= 4, "runs " + s.spilledRuns());
      assertSameRecords(expected, drain(s.finish()), "lines with outsized ones");
    }
    // Key/value pairs: a 9 MB value with a small key, between small pairs of the same key.
    byte[] key = {7};
    try (PairSession s = ExternalSorter.openPairs(config(DataSize.ofMiB(8)).build())) {
      s.add(ByteBuffer.wrap(key), ByteBuffer.wrap(new byte[] {1}));
      s.add(ByteBuffer.wrap(key), ByteBuffer.wrap(big));
      s.add(ByteBuffer.wrap(new byte[] {3}), ByteBuffer.wrap(new byte[] {2}));
      s.add(ByteBuffer.wrap(key), ByteBuffer.wrap(new byte[] {3}));
      RecordCursor cur = s.finish();
      List<byte[]> values = new ArrayList<>();
      while (cur.next()) {
        values.add(copy(cur.value()));
      }
      assertSameRecords(
          List.of(new byte[] {2}, new byte[] {1}, big, new byte[] {3}), values, "pairs");
    }
  }

  /** A row: (int64 or null, text) key and a value; the reference orders it from the definition. */
  @SuppressWarnings("ArrayRecordComponent") // a test row; compared by its fields, never equals()
  record Row(Long id, String name, byte[] value, int seq) {}

  static List<Row> rows(Random r, int n) {
    List<Row> out = new ArrayList<>();
    String[] names = {"", "a", "ab", "a\u0000b", "\u00e9t\u00e9", "zz", "\uD83D\uDE00", "b"};
    long[] ids = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1};
    for (int i = 0; i < n; i++) {
      Long id =
          r.nextInt(20) == 0
              ? null
              : r.nextInt(5) == 0 ? ids[r.nextInt(ids.length)] : (long) r.nextInt(50) - 25;
      String nm = names[r.nextInt(names.length)] + (r.nextBoolean() ? "" : r.nextInt(10));
      byte[] v = new byte[r.nextInt(400)];
      r.nextBytes(v);
      out.add(new Row(id, nm, v, i));
    }
    return out;
  }

  /**
   * int64 descending with nulls last, then UTF-8 text ascending by code point; then input order.
   */
  static final Comparator<Row> ROW_ORDER =
      Comparator.<Row, Long>comparing(
              Row::id, Comparator.nullsLast(Comparator.<Long>reverseOrder()))
          .thenComparing(Row::name, SortSessionTest::compareCodePoints)
          .thenComparingInt(Row::seq);

  static int compareCodePoints(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    return Arrays.compare(x, y);
  }

  static final KeyEncoder ENCODER =
      KeyEncoder.builder()
          .field(KeyEncoder.Type.INT64, true, KeyEncoder.Nulls.LAST)
          .field(KeyEncoder.Type.UTF8, false, KeyEncoder.Nulls.NEVER)
          .build();

  @Test
  void keyValuePairsInEncoderOrderWithViewsAndIterator() throws IOException {
    List<Row> rows = rows(new Random(SEED + 1), 60_000);
    List<Row> expected = new ArrayList<>(rows);
    expected.sort(ROW_ORDER);
    SortConfig c = config(DataSize.ofMiB(8)).build();
    KeyEncoder.Writer w = ENCODER.newWriter();
    try (PairSession s = ExternalSorter.openPairs(c)) {
      for (Row r : rows) {
        w.reset();
        if (r.id() == null) {
          w.nullValue();
        } else {
          w.int64(r.id());
        }
        s.add(w.utf8(r.name()).finish(), ByteBuffer.wrap(r.value()));
      }
      assertTrue(s.spilledRuns() > 0, "the arena never filled: no merge tested");
      RecordCursor cur = s.finish();
      Iterator<byte[][]> it = cur.asIterator(x -> new byte[][] {copy(x.key()), copy(x.value())});
      int i = 0;
      while (it.hasNext()) {
        byte[][] kv = it.next();
        Row e = expected.get(i);
        w.reset();
        if (e.id() == null) {
          w.nullValue();
        } else {
          w.int64(e.id());
        }
        assertArrayEquals(w.utf8(e.name()).toByteArray(), kv[0], "key " + i + ", seed " + SEED);
        assertArrayEquals(e.value(), kv[1], "value " + i + ", seed " + SEED);
        i++;
      }
      assertEquals(expected.size(), i);
      assertTrue(s.peakMemoryBytes() <= c.memoryBudget().bytes(), "peak " + s.peakMemoryBytes());
    }
  }

  @Test
  void uniquePairsKeepTheFirstOfEachKey() throws IOException {
    Random r = new Random(SEED + 2);
    List<long[]> pairs = new ArrayList<>(); // key, value (the input position)
    for (int i = 0; i < 50_000; i++) {
      pairs.add(new long[] {r.nextInt(3000), i});
    }
    List<long[]> expected = new ArrayList<>();
    pairs.stream()
        .sorted(Comparator.comparingLong((long[] p) -> p[0]).thenComparingLong(p -> p[1]))
        .forEach(
            p -> {
              if (expected.isEmpty() || expected.get(expected.size() - 1)[0] != p[0]) {
                expected.add(p);
              }
            });
    KeyEncoder enc =
        KeyEncoder.builder().field(KeyEncoder.Type.INT64, false, KeyEncoder.Nulls.NEVER).build();
    KeyEncoder.Writer w = enc.newWriter();
    try (PairSession s = ExternalSorter.openPairs(config(DataSize.ofMiB(8)).unique(true).build())) {
      for (long[] p : pairs) {
        s.add(w.reset().int64(p[0]).finish(), ByteBuffer.allocate(8).putLong(0, p[1]));
      }
      RecordCursor cur = s.finish();
      int i = 0;
      while (cur.next()) {
        assertEquals(expected.get(i)[1], cur.value().getLong(cur.value().position()), "pair " + i);
        i++;
      }
      assertEquals(expected.size(), i);
    }
  }

  @Test
  void spillFromAnotherThreadWhileAdding() throws Exception {
    List<byte[]> recs = lines(new Random(SEED + 3), 100_000);
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    // 32 MiB: the arena (about 24 MB) never fills by itself, so every run comes from spill()
    SortConfig c = config(DataSize.ofMiB(32)).format(RecordFormat.lines()).build();
    try (RecordSession s = ExternalSorter.open(c)) {
      AtomicBoolean done = new AtomicBoolean();
      AtomicLong freed = new AtomicLong();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      CountDownLatch started = new CountDownLatch(1);
      Thread manager =
          new Thread(
              () -> {
                try {
                  started.await();
                  while (!done.get()) {
                    long f = s.spill();
                    freed.addAndGet(f);
                    Thread.sleep(5);
                  }
                } catch (Throwable t) {
                  failure.set(t);
                }
              },
              "test-memory-manager");
      manager.start();
      for (int i = 0; i < recs.size(); i++) {
        s.add(ByteBuffer.wrap(recs.get(i)));
        if (i == 1000) {
          started.countDown();
        }
      }
      done.set(true);
      manager.join();
      assertEquals(null, failure.get());
      assertTrue(s.spilledRuns() >= 2, "spills: " + s.spilledRuns());
      assertTrue(freed.get() > 0, "spill() freed nothing");
      assertSameRecords(expected, drain(s.finish()), "after concurrent spills");
      assertWithinBudget(s, c, "concurrent spills while adding");
    }
  }

  @Test
  void spillDuringIterationWritesOnlyTheUnreadRest() throws Exception {
    List<byte[]> recs = lines(new Random(SEED + 4), 60_000);
    List<byte[]> expected = new ArrayList<>(recs);
    expected.sort(Arrays::compareUnsigned);
    SortConfig c = config(DataSize.ofMiB(32)).format(RecordFormat.lines()).build();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (byte[] r : recs) {
        s.add(ByteBuffer.wrap(r));
      }
      RecordCursor cur = s.finish();
      assertEquals(0, s.spilledRuns());
      List<byte[]> got = new ArrayList<>();
      int half = recs.size() / 2;
      for (int i = 0; i < half; i++) {
        assertTrue(cur.next());
        got.add(copy(cur.record()));
      }
      ByteBuffer current = cur.record();
      byte[] before = copy(current);
      long held = s.memoryBytes();
      AtomicLong freed = new AtomicLong();
      Thread t =
          new Thread(
              () -> {
                try {
                  freed.set(s.spill());
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      t.start();
      t.join();
      assertTrue(freed.get() > 0, "spill() freed nothing");
      // Given back during the spill, as a platform's memory manager counts it (Spark's asks the
      // pool again right after): all but the current record's slab, before the cursor moves.
      assertTrue(
          s.memoryBytes() < held / 2, "held " + held + ", after the spill " + s.memoryBytes());
      assertEquals(1, s.spilledRuns());
      assertArrayEquals(before, copy(current), "the current record's view changed");
      while (cur.next()) {
        got.add(copy(cur.record()));
      }
      assertTrue(s.memoryBytes() < held / 2, "held " + held + ", now " + s.memoryBytes());
      assertSameRecords(expected, got, "after a spill during iteration");
      assertWithinBudget(s, c, "a spill during iteration");
    }
  }

  /**
   * The session's own peak: arena, index and the buffers of spills and merges together, never more
   * than the budget (a spill must not allocate its write buffers on top of a full arena).
   */
  static void assertWithinBudget(SortSession s, SortConfig c, String what) {
    long peak = s.peakMemoryBytes();
    long budget = c.memoryBudget().bytes();
    assertTrue(peak > 0, what + ": no memory was counted, seed " + SEED);
    assertTrue(
        peak <= budget, what + ": peak " + peak + " over the budget " + budget + ", seed " + SEED);
  }

  /**
   * {@code spill()} from a second thread while the consumer is inside its {@code next()} loop, at a
   * random point of it: the records still come out complete and in the reference order, and the run
   * the spill wrote holds exactly the tail of that order the consumer had not read when the spill
   * took the session's lock. Which record that was is a race; it is bounded by what the consumer
   * had counted just before {@code spill()} and just after it returned (one more: a record returned
   * but not yet counted). The run's footer gives its entry count and record bytes, which must be
   * those of the reference's last N records. The session never held more than its budget.
   */
  @Test
  void spillRacingALiveIterationWritesOnlyTheUnreadRest() throws Exception {
    for (int round = 0; round < 3; round++) {
      long seed = SEED + 10 + round;
      String ctx = "round " + round + ", seed " + seed + ": ";
      Random r = new Random(seed);
      List<byte[]> recs = lines(r, 40_000 + r.nextInt(20_000));
      int n = recs.size();
      List<byte[]> expected = new ArrayList<>(recs);
      expected.sort(Arrays::compareUnsigned);
      int target = n / 10 + r.nextInt(n / 2);
      SortConfig c = config(DataSize.ofMiB(32)).format(RecordFormat.lines()).build();
      try (RecordSession s = ExternalSorter.open(c)) {
        for (byte[] b : recs) {
          s.add(ByteBuffer.wrap(b));
        }
        RecordCursor cur = s.finish();
        assertEquals(0, s.spilledRuns(), ctx + "the arena filled: nothing left to race");
        long held = s.memoryBytes();
        AtomicLong read = new AtomicLong();
        long[] window = new long[2];
        long[] freed = new long[1];
        byte[][] run = new byte[1][];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch spilled = new CountDownLatch(1);
        Thread manager =
            new Thread(
                () -> {
                  try {
                    while (read.get() < target) {
                      Thread.onSpinWait();
                    }
                    window[0] = read.get();
                    freed[0] = s.spill();
                    window[1] = read.get();
                    run[0] = onlyRunFile(ctx);
                  } catch (Throwable t) {
                    failure.set(t);
                  } finally {
                    spilled.countDown();
                  }
                },
                "test-memory-manager");
        manager.start();
        List<byte[]> got = new ArrayList<>();
        while (cur.next()) {
          got.add(copy(cur.record()));
          if (read.incrementAndGet() == n - 100) {
            // A descheduled manager must not find the cursor at the end: then there is no race.
            assertTrue(spilled.await(30, TimeUnit.SECONDS), ctx + "the spill never came");
          }
        }
        manager.join();
        assertEquals(null, failure.get(), ctx + "the spilling thread failed");
        assertSameRecords(expected, got, ctx + "after a spill racing next()");
        assertTrue(freed[0] > 0, ctx + "spill() freed nothing");
        assertEquals(1, s.spilledRuns(), ctx + "runs");

        ByteBuffer b = ByteBuffer.wrap(run[0]);
        int footer = (int) b.getLong(run[0].length - 16); // run-format.md: the footer's trailer
        long entries = b.getLong(footer + 8);
        long recordBytes = b.getLong(footer + 48);
        long unreadBefore = n - window[0];
        long unreadAfter = n - window[1] - 1;
        assertTrue(
            entries <= unreadBefore && entries >= unreadAfter,
            ctx
                + "the run holds "
                + entries
                + " records; the consumer had "
                + unreadBefore
                + " unread before spill() and "
                + (unreadAfter + 1)
                + " after it");
        long tailBytes = 0;
        for (int i = (int) (n - entries); i < n; i++) {
          tailBytes += expected.get(i).length;
        }
        assertEquals(tailBytes, recordBytes, ctx + "the run is not the unread tail");
        assertTrue(s.memoryBytes() < held / 2, ctx + "held " + held + ", now " + s.memoryBytes());
        assertWithinBudget(s, c, ctx + "a spill racing next()");
      }
    }
  }

  /** The bytes of the one run file in the stripe (the session's private directory holds it). */
  byte[] onlyRunFile(String ctx) throws IOException {
    List<Path> runs;
    try (Stream<Path> files = Files.walk(stripes.get(0))) {
      runs =
          files
              .filter(Files::isRegularFile)
              .filter(p -> !p.getFileName().toString().equals("owner.lock"))
              .toList();
    }
    assertEquals(1, runs.size(), ctx + "run files " + runs);
    return Files.readAllBytes(runs.get(0));
  }

  @Test
  void aFailedSpillLeavesNoTempFiles() throws IOException {
    Path gone = Files.createDirectories(dir.resolve("gone"));
    SortConfig c =
        config(DataSize.ofMiB(8)).format(RecordFormat.lines()).tempDirs(List.of(gone)).build();
    try (RecordSession s = ExternalSorter.open(c)) {
      s.add(ByteBuffer.wrap("b".getBytes(StandardCharsets.US_ASCII)));
      Files.delete(gone);
      SortIOException e = assertThrows(SortIOException.class, s::spill);
      assertTrue(e.getMessage().contains(gone.toString()), e.getMessage());
    }
    assertTrue(Files.notExists(gone));
  }
}
