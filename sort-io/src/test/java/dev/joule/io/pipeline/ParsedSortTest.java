package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.record.LengthPrefixedFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import dev.joule.testing.TestSeed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * End-to-end sorts of parsed records (lines, length-prefixed rows, fixed records with derived keys)
 * against an in-memory stable sort with a comparator written from each key's definition, in one
 * pass, two passes and many passes, with 1 to 4 threads: every output must be byte-identical to the
 * reference.
 */
class ParsedSortTest {
  static final long SEED = TestSeed.of(ParsedSortTest.class, 0x11E5_0F_7E57L);

  @TempDir Path dir;
  List<Path> stripes;
  String name;
  final List<String> notices = new CopyOnWriteArrayList<>();

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

  /** The ways a sort can go: one pass, two passes, several merge passes; 1..4 threads. */
  enum Shape {
    ONE_PASS,
    TWO_PASS,
    MULTI_PASS
  }

  SortConfig.Builder config(Shape shape, int threads) {
    SortConfig.Builder b =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(16))
            .threads(threads)
            .tempDirs(stripes)
            .notices(notices::add)
            // 4 KiB temp blocks: the long records span several blocks.
            .transferSize(FileKind.TEMP, DataSize.ofKiB(4))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(16))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(16));
    switch (shape) {
      case TWO_PASS:
        TestHooks.runRecordsLimit(b, 700);
        break;
      case MULTI_PASS:
        TestHooks.runRecordsLimit(b, 150).fanIn(3);
        break;
      default:
        break;
    }
    return b;
  }

  // ---- inputs ----

  /**
   * Random records: empty ones, short ones, some longer than a temp block, a group sharing a
   * 100-byte prefix (keys longer than the index prefix), and exact duplicates.
   */
  static List<byte[]> records(Random r, int n, int avoid) {
    List<byte[]> out = new ArrayList<>();
    byte[] shared = bytes(r, 100, avoid);
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(100);
      byte[] rec;
      if (kind < 8) {
        rec = new byte[0];
      } else if (kind < 20 && !out.isEmpty()) {
        rec = out.get(r.nextInt(out.size())).clone();
      } else if (kind < 35) {
        byte[] tail = bytes(r, r.nextInt(20), avoid);
        rec = Arrays.copyOf(shared, shared.length + tail.length);
        System.arraycopy(tail, 0, rec, shared.length, tail.length);
      } else if (kind < 37) {
        rec = bytes(r, 5000 + r.nextInt(20000), avoid);
      } else {
        rec = bytes(r, 1 + r.nextInt(60), avoid);
      }
      out.add(rec);
    }
    return out;
  }

  static byte[] bytes(Random r, int n, int avoid) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      int v;
      do {
        v = r.nextInt(256);
      } while (v == avoid);
      b[i] = (byte) v;
    }
    return b;
  }

  static byte[] lines(List<byte[]> recs, byte delimiter, boolean lastDelimited) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (int i = 0; i < recs.size(); i++) {
      o.writeBytes(recs.get(i));
      if (i + 1 < recs.size() || lastDelimited) {
        o.write(delimiter);
      }
    }
    return o.toByteArray();
  }

  static byte[] rows(List<byte[]> recs) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (byte[] r : recs) {
      o.writeBytes(ByteBuffer.allocate(4).putInt(r.length).array());
      o.writeBytes(r);
    }
    return o.toByteArray();
  }

  static byte[] concat(List<byte[]> recs) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    recs.forEach(o::writeBytes);
    return o.toByteArray();
  }

  /** A stable sort of {@code recs} by {@code order}; in unique mode the first of equal runs. */
  static List<byte[]> reference(List<byte[]> recs, Comparator<byte[]> order, boolean unique) {
    List<byte[]> sorted = new ArrayList<>(recs);
    sorted.sort(order); // List.sort is stable
    if (!unique) {
      return sorted;
    }
    List<byte[]> u = new ArrayList<>();
    for (byte[] b : sorted) {
      if (u.isEmpty() || order.compare(u.get(u.size() - 1), b) != 0) {
        u.add(b);
      }
    }
    return u;
  }

  SortReport sort(byte[] input, SortConfig c, byte[] expected) throws IOException {
    Path in = dir.resolve("in");
    Path out = dir.resolve("out");
    Files.write(in, input);
    SortReport r;
    try {
      r = ExternalSorter.sort(in, out, c);
    } catch (IOException | RuntimeException | Error e) {
      throw new AssertionError("seed " + SEED + ", " + c + ": " + e, e);
    }
    byte[] got = Files.readAllBytes(out);
    if (!Arrays.equals(expected, got)) {
      assertArrayEquals(expected, got, "seed " + SEED + ", " + c + ": output differs");
    }
    assertTrue(r.output().ordered(), "seed " + SEED);
    assertTrue(
        r.peakMemoryBytes() <= c.memoryBudget().bytes(),
        "peak " + r.peakMemoryBytes() + " over the budget");
    return r;
  }

  // ---- whole-record keys ----

  @Test
  void linesSortByTheirBytesInEveryShape() throws IOException {
    Random r = new Random(SEED);
    List<byte[]> recs = records(r, 2500, '\n');
    byte[] input = lines(recs, (byte) '\n', false); // the last line has no delimiter
    byte[] expected = lines(reference(recs, Arrays::compareUnsigned, false), (byte) '\n', true);
    for (Shape shape : Shape.values()) {
      for (int threads = 1; threads <= 4; threads++) {
        SortConfig c = config(shape, threads).format(RecordFormat.lines()).build();
        SortReport rep = sort(input, c, expected);
        assertEquals(recs.size(), rep.records());
        assertEquals(shape == Shape.ONE_PASS, rep.runs() == 0, shape + ": runs " + rep.runs());
        if (shape == Shape.MULTI_PASS) {
          assertTrue(rep.mergePasses() > 1, "merge passes " + rep.mergePasses());
        }
        if (shape != Shape.ONE_PASS && threads > 1) {
          // the final merge ran in parallel parts, each starting mid-page of the output
          assertTrue(
              rep.phases().stream().anyMatch(p -> p.name().endsWith(" parts)")),
              "phases: " + rep.phases());
        }
      }
    }
  }

  @Test
  void nulDelimitedLinesAndAnEmptyInput() throws IOException {
    Random r = new Random(SEED + 1);
    List<byte[]> recs = records(r, 800, 0);
    LineFormat z = RecordFormat.lines((byte) 0);
    byte[] expected = lines(reference(recs, Arrays::compareUnsigned, false), (byte) 0, true);
    for (Shape shape : Shape.values()) {
      sort(lines(recs, (byte) 0, true), config(shape, 2).format(z).build(), expected);
    }
    SortReport empty = sort(new byte[0], config(Shape.ONE_PASS, 2).format(z).build(), new byte[0]);
    assertEquals(0, empty.records());
  }

  /**
   * Lines of 6 MB under a 16 MiB budget, larger than any arena of run formation, first, in the
   * middle (two equal ones, for stability) and last without a delimiter: each becomes a run of its
   * own and the output is the reference's, by the line's bytes and by a derived descending key
   * (whose entries hold the line twice).
   */
  @Test
  void linesLargerThanAnArenaBecomeRunsOfTheirOwn() throws IOException {
    Random r = new Random(SEED + 7);
    List<byte[]> recs = records(r, 3000, '\n');
    byte[] big = bytes(r, 6 << 20, '\n');
    recs.add(0, big);
    recs.add(recs.size() / 2, big.clone());
    recs.add(recs.size() / 2 + 1, big.clone());
    recs.add(bytes(r, (6 << 20) + 1, '\n'));
    byte[] input = lines(recs, (byte) '\n', false);
    byte[] ascending = lines(reference(recs, Arrays::compareUnsigned, false), (byte) '\n', true);
    Comparator<byte[]> desc = (a, b) -> Arrays.compareUnsigned(b, a);
    byte[] descending = lines(reference(recs, desc, false), (byte) '\n', true);
    SortKey reversed =
        dev.joule.core.key.GnuSortKeys.parse(
            "r", dev.joule.core.key.TextPosition.BLANK_SEPARATED, List.of());
    for (int threads = 1; threads <= 3; threads += 2) {
      SortReport rep =
          sort(
              input,
              config(Shape.ONE_PASS, threads).format(RecordFormat.lines()).build(),
              ascending);
      assertTrue(rep.runs() >= 5, "runs " + rep.runs());
      SortConfig c =
          config(Shape.ONE_PASS, threads).format(RecordFormat.lines()).key(reversed).build();
      sort(input, c, descending);
    }
  }

  @Test
  void lengthPrefixedRowsSortByTheirBytesInEveryShape() throws IOException {
    Random r = new Random(SEED + 2);
    List<byte[]> recs = records(r, 2500, -1);
    byte[] expected = rows(reference(recs, Arrays::compareUnsigned, false));
    LengthPrefixedFormat f = RecordFormat.lengthPrefixed();
    for (Shape shape : Shape.values()) {
      for (int threads = 1; threads <= 4; threads += 3) {
        sort(rows(recs), config(shape, threads).format(f).build(), expected);
      }
    }
  }

  /**
   * Unique fixed records of 1 to 3 bytes in one pass, the input filling the arena to its last byte:
   * the output reads each entry ahead, which must not read past the last record's end.
   */
  @Test
  void uniqueTinyFixedRecordsInOnePass() throws IOException {
    Random r = new Random(SEED + 11);
    for (int size = 1; size <= 3; size++) {
      for (int bytes : new int[] {4096 / size * size, 65536 / size * size}) {
        byte[] input = new byte[bytes];
        r.nextBytes(input);
        List<byte[]> recs = new ArrayList<>();
        for (int at = 0; at < bytes; at += size) {
          recs.add(Arrays.copyOfRange(input, at, at + size));
        }
        List<byte[]> kept = reference(recs, Arrays::compareUnsigned, true);
        byte[] expected = new byte[kept.size() * size];
        for (int i = 0; i < kept.size(); i++) {
          System.arraycopy(kept.get(i), 0, expected, i * size, size);
        }
        var format = RecordFormat.fixed(size, dev.joule.core.record.KeySpec.bytes(0, size));
        SortReport rep =
            sort(input, config(Shape.ONE_PASS, 2).format(format).unique(true).build(), expected);
        assertEquals(0, rep.runs(), size + "-byte records, " + bytes + " bytes");
      }
    }
  }

  @Test
  void uniqueLinesKeepOneOfEachInEveryShape() throws IOException {
    Random r = new Random(SEED + 3);
    List<byte[]> recs = records(r, 2000, '\n');
    byte[] expected = lines(reference(recs, Arrays::compareUnsigned, true), (byte) '\n', true);
    for (Shape shape : Shape.values()) {
      SortConfig c = config(shape, 2).format(RecordFormat.lines()).unique(true).build();
      SortReport rep = sort(lines(recs, (byte) '\n', true), c, expected);
      assertEquals(recs.size(), rep.records());
      assertTrue(rep.output().records() < recs.size(), "duplicates were generated");
    }
  }

  /**
   * Unique mode with many duplicates in two passes: repeated lines are left out as they are read,
   * so that an input of 40 values is one chunk sorted in memory, and with more values every run
   * holds each key once (run formation writes far less than the input, all of it without the drop);
   * the output is the reference's. Also for fixed records read in place. Keys whose equal
   * normalized keys still need the records compared (a version field) are in {@link
   * GnuKeysSortTest}; the run made from an overflowing one-pass arena in {@link
   * #anInputLargerThanItsSampleSaysOverflowsIntoTwoPasses}.
   */
  @Test
  void uniqueRunsHoldEachKeyOnce() throws IOException {
    Random r = new Random(SEED + 9);
    List<byte[]> recs = new ArrayList<>();
    for (int i = 0; i < 60_000; i++) {
      recs.add(("v" + r.nextInt(40) + " of forty values").getBytes(StandardCharsets.US_ASCII));
    }
    byte[] input = lines(recs, (byte) '\n', true);
    byte[] expected = lines(reference(recs, Arrays::compareUnsigned, true), (byte) '\n', true);
    List<byte[]> few = recs.subList(0, 3000);
    sort(
        lines(few, (byte) '\n', true),
        config(Shape.MULTI_PASS, 2).format(RecordFormat.lines()).unique(true).build(),
        lines(reference(few, Arrays::compareUnsigned, true), (byte) '\n', true));
    // Runs of 5000 lines (about 100 KB): written whole, they would be the input's size; with each
    // of the 40 values once, one block (4 KiB) each, plus the header and footer.
    SortConfig.Builder lines = config(Shape.ONE_PASS, 2).format(RecordFormat.lines()).unique(true);
    SortReport rep = sort(input, TestHooks.runRecordsLimit(lines, 5000).build(), expected);
    PhaseReport formation = rep.phases().get(0);
    // Repeats are left out as lines are read (RepeatFilter): the index no longer fills every 5000
    // lines, and the whole input is one chunk of 40 lines, sorted and written from memory (12 runs
    // without the filter).
    assertEquals(0, rep.runs(), "seed " + SEED);
    assertTrue(
        formation.bytesWritten() < input.length / 4,
        "seed "
            + SEED
            + ": run formation wrote "
            + formation.bytesWritten()
            + " of "
            + input.length);
    assertEquals(recs.size(), rep.records());

    // More distinct lines than the filter has slots: it forgets some, the runs drop the rest.
    List<byte[]> many = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      many.add(("w" + r.nextInt(30_000)).getBytes(StandardCharsets.US_ASCII));
    }
    SortConfig.Builder wide = config(Shape.ONE_PASS, 2).format(RecordFormat.lines()).unique(true);
    sort(
        lines(many, (byte) '\n', true),
        TestHooks.runRecordsLimit(wide, 20_000).build(),
        lines(reference(many, Arrays::compareUnsigned, true), (byte) '\n', true));

    // Fixed 8-byte records, key = bytes 0..2 (read in place, no filter: the runs drop repeats): the
    // first of each key in input order.
    List<byte[]> fixed = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      byte[] b = bytes(r, 8, -1);
      b[0] = (byte) r.nextInt(3);
      b[1] = (byte) r.nextInt(5);
      fixed.add(b);
    }
    Comparator<byte[]> byKey = (a, b) -> Arrays.compareUnsigned(a, 0, 2, b, 0, 2);
    var format = RecordFormat.fixed(8, dev.joule.core.record.KeySpec.bytes(0, 2));
    SortConfig.Builder f = config(Shape.ONE_PASS, 2).format(format).unique(true);
    rep =
        sort(
            concat(fixed),
            TestHooks.runRecordsLimit(f, 20_000).build(),
            concat(reference(fixed, byKey, true)));
    assertTrue(rep.runs() >= 4, "seed " + SEED + ": runs " + rep.runs());
    assertTrue(rep.phases().get(0).bytesWritten() < 100_000L * 8 / 4, "seed " + SEED);
  }

  /**
   * Without {@code -u}, where records that compare equal are identical (whole lines; GNU's last
   * resort after a key, ascending or descending): a line read again is counted on its twin as it is
   * read and written as often. 60,000 lines of 40 spellings of numbers with a run limit of 5000
   * lines (12 runs without the count) are one chunk, sorted and written from memory with no run at
   * all; with a quarter of the lines unique as well, several runs each write their counted lines as
   * often. Outputs against stable sorts with comparators from the definitions.
   */
  @Test
  void repeatedLinesAreCountedAndWrittenAsOften() throws IOException {
    Random r = new Random(SEED + 10);
    String[] spellings = {"", "0", "00", " ", "-", "-0"};
    List<byte[]> recs = new ArrayList<>();
    for (int i = 0; i < 60_000; i++) {
      String v =
          spellings[r.nextInt(spellings.length)] + r.nextInt(7) + (r.nextBoolean() ? "" : ".5");
      recs.add(v.getBytes(StandardCharsets.US_ASCII));
    }
    Comparator<byte[]> numeric =
        Comparator.comparing(
            (byte[] b) ->
                new java.math.BigDecimal(new String(b, StandardCharsets.US_ASCII).strip()));
    Comparator<byte[]> numericThenBytes = numeric.thenComparing(Arrays::compareUnsigned);
    SortKey n = SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric()));
    SortKey nr =
        SortKey.of(
            KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric()).withDescending(true));
    record Case(String name, SortConfig.Builder config, Comparator<byte[]> order) {}
    List<Case> cases =
        List.of(
            new Case("whole lines", lines(), Arrays::compareUnsigned),
            new Case("-n", lines().key(n).lastResort(LastResort.ASCENDING), numericThenBytes),
            new Case(
                "-n -r",
                lines().key(nr).lastResort(LastResort.DESCENDING),
                numericThenBytes.reversed()));
    byte[] input = lines(recs, (byte) '\n', false);
    for (Case c : cases) {
      byte[] expected = lines(reference(recs, c.order(), false), (byte) '\n', true);
      SortReport rep = sort(input, TestHooks.runRecordsLimit(c.config(), 5000).build(), expected);
      assertEquals(0, rep.runs(), c.name() + ", seed " + SEED + ": the chunk held each line once");
      assertEquals(recs.size(), rep.records(), c.name());
      assertEquals(recs.size(), rep.output().records(), c.name());
    }

    // -n -u: identical lines are dropped as they are read, whatever the key; the first of each
    // numeric value is kept (11 runs without the drop).
    byte[] uniqueByNumber = lines(reference(recs, numeric, true), (byte) '\n', true);
    SortReport nu =
        sort(
            input,
            TestHooks.runRecordsLimit(lines().key(n).unique(true), 5000).build(),
            uniqueByNumber);
    assertEquals(0, nu.runs(), "-n -u, seed " + SEED);

    // Length-prefixed rows: the copies are framed after their length.
    SortReport rows =
        sort(
            rows(recs),
            TestHooks.runRecordsLimit(
                    config(Shape.ONE_PASS, 2).format(RecordFormat.lengthPrefixed()), 5000)
                .build(),
            rows(reference(recs, Arrays::compareUnsigned, false)));
    assertEquals(0, rows.runs(), "rows, seed " + SEED);

    List<byte[]> mixed = new ArrayList<>(recs);
    for (int i = 0; i < 20_000; i++) {
      mixed.add((r.nextInt(20) + "." + r.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII));
    }
    java.util.Collections.shuffle(mixed, r);
    byte[] in2 = lines(mixed, (byte) '\n', true);
    for (Case c : cases) {
      byte[] expected = lines(reference(mixed, c.order(), false), (byte) '\n', true);
      SortReport rep = sort(in2, TestHooks.runRecordsLimit(c.config(), 5000).build(), expected);
      assertTrue(rep.runs() >= 2, c.name() + ", seed " + SEED + ": runs " + rep.runs());
      // 20,000 unique lines need 4 runs of 5000 entries; without the count, 80,000 lines need 16
      assertTrue(rep.runs() <= 6, c.name() + ", seed " + SEED + ": runs " + rep.runs());
      assertEquals(mixed.size(), rep.output().records(), c.name());
    }
  }

  private SortConfig.Builder lines() {
    return config(Shape.ONE_PASS, 2).format(RecordFormat.lines());
  }

  // ---- derived keys ----

  /**
   * 16-byte fixed records sorted by a signed little-endian int64 at 0, descending, then the bytes
   * 8..16 ascending: entries store a derived key. The reference decodes the long itself.
   */
  @Test
  void fixedRecordsWithATypedDescendingKey() throws IOException {
    Random r = new Random(SEED + 4);
    int n = 5000;
    List<byte[]> recs = new ArrayList<>();
    long[] specials = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1};
    for (int i = 0; i < n; i++) {
      ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
      long v = r.nextInt(4) == 0 ? specials[r.nextInt(specials.length)] : r.nextLong() >> 40;
      b.putLong(v);
      b.put(bytes(r, 8, -1));
      recs.add(b.array());
    }
    Comparator<byte[]> order =
        (a, b) -> {
          long x = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
          long y = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
          int c = Long.compare(y, x);
          return c != 0 ? c : Arrays.compareUnsigned(a, 8, 16, b, 8, 16);
        };
    SortKey key =
        SortKey.of(
            KeyField.binary(0, KeyType.integer(8, true, ByteOrder.LITTLE_ENDIAN)).reversed(),
            KeyField.of(KeyLocation.bytes(8, 8), KeyType.bytes()));
    byte[] expected = concat(reference(recs, order, false));
    for (Shape shape : Shape.values()) {
      for (int threads = 1; threads <= 4; threads += 3) {
        SortConfig c =
            config(shape, threads)
                .format(RecordFormat.fixed(16, dev.joule.core.record.KeySpec.bytes(0, 16)))
                .key(key)
                .build();
        sort(concat(recs), c, expected);
      }
    }
  }

  /**
   * Fixed records whose key is a byte range given as a {@link SortKey} with GNU's last resort: read
   * in place, equal keys ordered by the whole records; and unique output of the same.
   */
  @Test
  void fixedRecordsWithLastResortAndUnique() throws IOException {
    Random r = new Random(SEED + 5);
    List<byte[]> recs = new ArrayList<>();
    for (int i = 0; i < 6000; i++) {
      byte[] b = bytes(r, 20, -1);
      b[4] = (byte) r.nextInt(3); // few distinct keys: long runs of equal keys
      b[5] = (byte) r.nextInt(2);
      b[6] = 0;
      b[7] = 0;
      recs.add(b);
    }
    Comparator<byte[]> byKey = (a, b) -> Arrays.compareUnsigned(a, 4, 8, b, 4, 8);
    SortKey key = SortKey.of(KeyField.of(KeyLocation.bytes(4, 4), KeyType.bytes()));
    var format = RecordFormat.fixed(20, dev.joule.core.record.KeySpec.bytes(0, 10));
    for (LastResort last : LastResort.values()) {
      Comparator<byte[]> order = byKey;
      if (last == LastResort.ASCENDING) {
        order = byKey.thenComparing(Arrays::compareUnsigned);
      } else if (last == LastResort.DESCENDING) {
        order = byKey.thenComparing((a, b) -> Arrays.compareUnsigned(b, a));
      }
      byte[] expected = concat(reference(recs, order, false));
      for (Shape shape : Shape.values()) {
        SortConfig c = config(shape, 2).format(format).key(key).lastResort(last).build();
        sort(concat(recs), c, expected);
        // The same byte range as the format's own key (no SortKey) must honour it too.
        var own = RecordFormat.fixed(20, dev.joule.core.record.KeySpec.bytes(4, 4));
        sort(concat(recs), config(shape, 2).format(own).lastResort(last).build(), expected);
      }
    }
    byte[] unique = concat(reference(recs, byKey, true));
    for (Shape shape : Shape.values()) {
      SortConfig c = config(shape, 2).format(format).key(key).unique(true).build();
      SortReport rep = sort(concat(recs), c, unique);
      assertEquals(unique.length / 20, rep.output().records());
    }
  }

  // ---- a sample that misleads the plan ----

  /**
   * The plan samples four places of the input; here they hold long lines while the rest is short
   * lines, so the one-pass arena overflows: the sort must notice, go on in two passes and still
   * produce the reference output.
   */
  @Test
  void anInputLargerThanItsSampleSaysOverflowsIntoTwoPasses() throws IOException {
    Random r = new Random(SEED + 6);
    List<byte[]> recs = new ArrayList<>();
    int segment = 4;
    for (int s = 0; s < segment; s++) {
      int longBytes = 0;
      while (longBytes < 80 << 10) {
        byte[] b = bytes(r, 2000, '\n');
        recs.add(b);
        longBytes += b.length + 1;
      }
      int shortBytes = 0;
      while (shortBytes < (600 << 10) - longBytes) {
        byte[] b = bytes(r, r.nextInt(8), '\n');
        recs.add(b);
        shortBytes += b.length + 1;
      }
    }
    byte[] expected = lines(reference(recs, Arrays::compareUnsigned, false), (byte) '\n', true);
    SortConfig c = config(Shape.ONE_PASS, 2).format(RecordFormat.lines()).build();
    SortReport rep = sort(lines(recs, (byte) '\n', true), c, expected);
    assertTrue(rep.runs() >= 2, "runs " + rep.runs());
    assertTrue(
        notices.stream().anyMatch(l -> l.contains("larger than its sample")),
        "notices: " + notices);

    // Unique: the overflowing arena's run drops its duplicates like the others (short lines
    // repeat).
    byte[] unique = lines(reference(recs, Arrays::compareUnsigned, true), (byte) '\n', true);
    SortConfig u = config(Shape.ONE_PASS, 2).format(RecordFormat.lines()).unique(true).build();
    SortReport ur = sort(lines(recs, (byte) '\n', true), u, unique);
    assertTrue(ur.runs() >= 2, "runs " + ur.runs());
    assertTrue(ur.output().records() < recs.size(), "seed " + SEED + ": no duplicates generated");
  }
}
