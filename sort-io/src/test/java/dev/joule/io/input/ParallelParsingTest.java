package dev.joule.io.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing lines on several threads: the reader's spans of whole lines ({@link
 * RecordReader#nextSpan}) hold exactly the lines that {@link RecordReader#next} splits, and chunks
 * that several parse threads fill ({@link EntryFiller#parseInParallel}) hold every line once, with
 * the input's checksum, whatever the arena and thread count. The reference is the input split with
 * {@link String#split} (and a count of each line for repeats). Random inputs are seeded; the seed
 * is in every message.
 */
class ParallelParsingTest {
  private static final long SEED = TestSeed.of(ParallelParsingTest.class, 0x9A7A_11E1L);

  @TempDir Path dir;

  /** Random text: short and long lines, empty ones, a few that cross many 4 KiB buffers. */
  private static List<String> randomLines(Random r, int n, boolean repeats) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(100);
      if (repeats && kind < 50) {
        lines.add("value " + r.nextInt(40));
        continue;
      }
      int length =
          kind < 5 ? 0 : kind < 90 ? r.nextInt(60) : kind < 99 ? r.nextInt(3000) : r.nextInt(20000);
      StringBuilder b = new StringBuilder(length);
      for (int k = 0; k < length; k++) {
        b.append((char) (' ' + r.nextInt(95)));
      }
      lines.add(b.toString());
    }
    return lines;
  }

  private Path write(List<String> lines, boolean finalNewline) throws IOException {
    String text = String.join("\n", lines) + (finalNewline && !lines.isEmpty() ? "\n" : "");
    Path p = Files.createTempFile(dir, "in", ".txt");
    Files.writeString(p, text, java.nio.charset.StandardCharsets.ISO_8859_1);
    return p;
  }

  private static String text(ByteBuffer b, int start, int length) {
    byte[] a = new byte[length];
    b.get(start, a);
    return new String(a, java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  /** A reader of {@code in} in 4 KiB transfers, with {@code buffers} pool buffers. */
  private static RecordReader reader(
      InputFile in, RecordFormat format, BlockPool pool, int transfer) throws IOException {
    return new RecordReader(in, format, transfer, pool, SortThreads.JOULE);
  }

  /** The lines of every span, in order, split as a parse thread splits them. */
  private static List<String> linesOfSpans(RecordReader reader) throws IOException {
    List<String> got = new ArrayList<>();
    RecordReader.LineSpan s;
    while ((s = reader.nextSpan()) != null) {
      for (int p = s.from(); p < s.to(); ) {
        int d = p;
        while (d < s.to() && s.buffer().get(d) != '\n') {
          d++;
        }
        got.add(text(s.buffer(), p, d - p));
        p = d + 1;
      }
      reader.release(s);
    }
    return got;
  }

  @Test
  void spansHoldTheLinesThatNextSplits() throws IOException {
    for (int round = 0; round < 12; round++) {
      Random r = new Random(SEED + round);
      List<String> lines = randomLines(r, 1 + r.nextInt(3000), false);
      boolean finalNewline = r.nextBoolean();
      Path p = write(lines, finalNewline);
      int transfer = 4096 << r.nextInt(3);
      List<String> expected = new ArrayList<>(lines);
      if (!finalNewline && expected.get(expected.size() - 1).isEmpty()) {
        expected.remove(expected.size() - 1); // no line after the last delimiter
      }
      try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          BlockPool pool = new BlockPool(3, transfer);
          RecordReader reader = reader(in, RecordFormat.lines(), pool, transfer)) {
        List<String> got = linesOfSpans(reader);
        assertEquals(expected, got, "seed " + (SEED + round) + ", transfer " + transfer);
        assertEquals(Files.size(p), reader.bytesRead(), "seed " + (SEED + round));
        reader.finish();
      }
      try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          BlockPool pool = new BlockPool(3, transfer);
          RecordReader reader = reader(in, RecordFormat.lines(), pool, transfer)) {
        List<String> got = new ArrayList<>();
        while (reader.next()) {
          got.add(text(reader.buffer(), reader.start(), reader.length()));
        }
        assertEquals(expected, got, "next(), seed " + (SEED + round));
      }
    }
  }

  @Test
  void spansOfAnEmptyInputAndOfOneLineWithoutDelimiter() throws IOException {
    for (String text : new String[] {"", "\n", "x", "x\n", "\n\n"}) {
      Path p = dir.resolve("t" + text.length() + text.hashCode());
      Files.writeString(p, text);
      try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          BlockPool pool = new BlockPool(3, 4096);
          RecordReader reader = reader(in, RecordFormat.lines(), pool, 4096)) {
        List<String> got = linesOfSpans(reader);
        List<String> expected =
            text.isEmpty() ? List.of() : List.of(text.split("\n", -1)).subList(0, lineCount(text));
        assertEquals(expected, got, "'" + text + "'");
        assertNull(reader.nextSpan());
      }
    }
  }

  private static int lineCount(String text) {
    int n = text.split("\n", -1).length;
    return text.endsWith("\n") ? n - 1 : n;
  }

  /** The limit is 64 MiB at the least: a line one byte over it, across many buffers. */
  @Test
  void aLineLongerThanTheLimitIsAnErrorNamingItsOffset() throws IOException {
    int limit = 64 << 20;
    Path p = dir.resolve("long");
    try (var out = new java.io.BufferedOutputStream(Files.newOutputStream(p), 1 << 20)) {
      out.write("short\nlines\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      byte[] chunk = new byte[1 << 20];
      java.util.Arrays.fill(chunk, (byte) 'y');
      for (int i = 0; i < 64; i++) {
        out.write(chunk);
      }
      out.write("y\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    LineFormat limited = RecordFormat.lines().withMaxRecordLength(limit);
    try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        BlockPool pool = new BlockPool(3, 1 << 20);
        RecordReader reader = reader(in, limited, pool, 1 << 20)) {
      SortIOException e = assertThrows(SortIOException.class, () -> linesOfSpans(reader));
      assertTrue(e.getMessage().contains("at offset 12 "), e.getMessage());
      assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }
    // The same error from a fill on two threads: the other stops, and the fill reports it.
    EntrySpec spec = EntrySpec.of(SortConfig.builder().format(limited).build());
    SortIOException e =
        assertThrows(SortIOException.class, () -> fillAll(p, spec, 2, 1L << 20, 100_000));
    assertTrue(e.getMessage().contains("at offset 12 "), e.getMessage());
  }

  /** Plain lines, the whole line as key: GNU's sort without options. */
  private static final EntrySpec WHOLE =
      EntrySpec.of(SortConfig.builder().format(RecordFormat.lines()).build());

  /** {@code -n} with GNU's last resort: a derived key before the line. */
  private static final EntrySpec NUMERIC = RepeatFilterTest.NUMERIC;

  /** Every chunk's lines (entries with their copies), and what the chunks said they read. */
  private record Filled(
      Map<String, Long> lines, long records, RecordChecksum checksum, long dropped, int chunks) {}

  private Filled fillAll(Path p, EntrySpec spec, int threads, long arenaBytes, int indexEntries)
      throws IOException {
    Map<String, Long> lines = new HashMap<>();
    RecordChecksum sum = new RecordChecksum();
    long records = 0;
    long dropped = 0;
    int chunks = 0;
    try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        BlockPool pool = new BlockPool(2 + threads, 4096);
        RecordReader reader = reader(in, spec.format(), pool, 4096);
        EntryFiller filler = new EntryFiller(reader, spec);
        RecordArena arena = RecordArena.allocate(arenaBytes)) {
      filler.filterRepeatsAsRead();
      filler.parseInParallel(threads, SortThreads.JOULE);
      RecordIndex index = RecordIndex.allocate(indexEntries);
      while (!filler.exhausted()) {
        ChunkSource.Chunk c = filler.fill(arena, index);
        assertNull(filler.tooLarge());
        chunks++;
        records += c.records();
        dropped += c.dropped();
        sum.add(c.checksum());
        EntryLayout layout = index.layout();
        for (int i = 0; i < index.size(); i++) {
          long ref = index.refs()[i];
          ByteBuffer b = index.slabBuffer(RecordIndex.slabOf(ref));
          int at = RecordIndex.offsetOf(ref);
          String line = text(b, layout.recordStart(b, at), layout.recordLength(b, at));
          lines.merge(line, 1 + c.repeats().extra(ref), Long::sum);
        }
      }
      reader.finish();
    }
    return new Filled(lines, records, sum, dropped, chunks);
  }

  private static Map<String, Long> counts(List<String> lines) {
    Map<String, Long> m = new HashMap<>();
    for (String s : lines) {
      m.merge(s, 1L, Long::sum);
    }
    return m;
  }

  private static RecordChecksum checksum(List<String> lines) {
    RecordChecksum sum = new RecordChecksum();
    for (String s : lines) {
      byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      sum.addRecord(ByteBuffer.wrap(b), 0, b.length);
    }
    return sum;
  }

  @Test
  void chunksFilledOnSeveralThreadsHoldEveryLineOnce() throws IOException {
    for (int round = 0; round < 16; round++) {
      long seed = SEED + 100 + round;
      Random r = new Random(seed);
      List<String> lines = randomLines(r, 2000 + r.nextInt(20000), r.nextBoolean());
      Path p = write(lines, true);
      EntrySpec spec = r.nextBoolean() ? WHOLE : NUMERIC;
      int threads = 1 + r.nextInt(4);
      long arena = (64L << 10) << r.nextInt(6); // 64 KiB to 2 MiB: from many chunks to one
      Filled f = fillAll(p, spec, threads, arena, 4000 + r.nextInt(40000));
      String where = "seed " + seed + ", " + threads + " threads, arena " + arena;
      assertEquals(counts(lines), f.lines(), where);
      assertEquals(lines.size(), f.records(), where);
      assertEquals(checksum(lines), f.checksum(), where);
      assertEquals(0, f.dropped(), where);
    }
  }

  /** Plain {@code -u}: each thread keeps a line once, and drops its repeats as it reads them. */
  @Test
  void uniqueLinesAreHeldOncePerThreadAtMost() throws IOException {
    EntrySpec unique =
        EntrySpec.of(SortConfig.builder().format(RecordFormat.lines()).unique(true).build());
    assertTrue(unique.orderFree());
    Random r = new Random(SEED + 7);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 30000; i++) { // 200 values: the filter's table never forgets one
      lines.add("line " + r.nextInt(200));
    }
    Path p = write(lines, true);
    Filled f = fillAll(p, unique, 3, 4L << 20, 40000);
    Map<String, Long> expected = counts(lines);
    assertEquals(expected.keySet(), f.lines().keySet(), "seed " + (SEED + 7));
    for (Map.Entry<String, Long> e : f.lines().entrySet()) { // held once per thread at most
      assertTrue(e.getValue() <= 3, e.getKey() + " " + e.getValue());
    }
    long held = f.lines().values().stream().mapToLong(Long::longValue).sum();
    assertEquals(lines.size(), held + f.dropped(), "seed " + (SEED + 7));
    assertEquals(checksum(lines), f.checksum(), "seed " + (SEED + 7));
  }

  /**
   * The mechanism itself: with two threads, lines in the index are no longer in input order (each
   * thread's are), and both threads placed lines; with one, the index is the input's order.
   */
  @Test
  void twoThreadsEachPlaceLines() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      lines.add(String.format(java.util.Locale.ROOT, "%09d", i));
    }
    Path p = write(lines, true);
    for (int threads = 1; threads <= 2; threads++) {
      List<String> order = new ArrayList<>();
      ConcurrentLinkedQueue<String> parsing = new ConcurrentLinkedQueue<>();
      SortThreads counted =
          SortThreads.of(
              body -> {
                parsing.add(body.toString());
                return new Thread(body);
              });
      try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          BlockPool pool = new BlockPool(4, 4096);
          RecordReader reader = reader(in, RecordFormat.lines(), pool, 4096);
          EntryFiller filler = new EntryFiller(reader, WHOLE);
          RecordArena arena = RecordArena.allocate(16L << 20)) {
        filler.parseInParallel(threads, counted);
        RecordIndex index = RecordIndex.allocate(lines.size());
        filler.fill(arena, index);
        assertTrue(filler.exhausted());
        for (int i = 0; i < index.size(); i++) {
          long ref = index.refs()[i];
          ByteBuffer b = index.slabBuffer(RecordIndex.slabOf(ref));
          int at = RecordIndex.offsetOf(ref);
          order.add(text(b, index.layout().recordStart(b, at), index.layout().recordLength(b, at)));
        }
      }
      assertEquals(lines.size(), order.size());
      boolean inInputOrder = order.equals(lines);
      long helpers = parsing.stream().filter(s -> s.contains("parse")).count();
      if (threads == 1) {
        assertTrue(inInputOrder);
        assertEquals(0, helpers);
      } else {
        assertFalse(inInputOrder, "two threads parsed, so the index interleaves their lines");
        assertEquals(1, helpers, "one helper beside the filling thread: " + parsing);
        List<String> sorted = new ArrayList<>(order);
        Collections.sort(sorted);
        assertEquals(lines, sorted);
      }
    }
  }

  /**
   * A sort in a locale keeps equal lines in input order, so its lines are not split over threads;
   * their keys, most of the parse, are encoded ahead in batches on two threads ({@code KeyAhead}).
   * Every chunk then holds its lines in input order, all lines once with the input's checksum,
   * through lines of up to 20,000 bytes and one too large for the arena; and a helper thread
   * encoded keys.
   */
  @Test
  void collatedKeysAreEncodedAheadOnTwoThreadsInInputOrder() throws Exception {
    dev.joule.testing.TestLocales.prepare(List.of("en_US.UTF-8"));
    Random r = new Random(SEED);
    List<String> lines = randomLines(r, 30_000, true);
    lines.add(r.nextInt(lines.size()), "x".repeat(300_000)); // an entry larger than the arena
    Path p = write(lines, true);
    KeyType collated = KeyType.collated(dev.joule.core.key.TextLocale.of("en_US.UTF-8"));
    EntrySpec spec =
        EntrySpec.of(
            SortConfig.builder()
                .format(RecordFormat.lines())
                .key(SortKey.of(KeyField.of(KeyLocation.wholeRecord(), collated)))
                .lastResort(LastResort.NONE)
                .build());
    assertFalse(spec.orderFree(), "equal lines keep input order");
    assertTrue(spec.parseBound(), "collated keys are most of the parse");
    ConcurrentLinkedQueue<String> started = new ConcurrentLinkedQueue<>();
    SortThreads named =
        SortThreads.of(
            body -> {
              started.add(body.toString());
              return new Thread(body);
            });
    List<String> got = new ArrayList<>();
    RecordChecksum sum = new RecordChecksum();
    int chunks = 0;
    try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        BlockPool pool = new BlockPool(3, 4096);
        RecordReader reader = reader(in, RecordFormat.lines(), pool, 4096);
        EntryFiller filler = new EntryFiller(reader, spec);
        RecordArena arena = RecordArena.allocate(256 << 10)) {
      filler.filterRepeatsAsRead();
      filler.parseInParallel(2, named);
      RecordIndex index = RecordIndex.allocate(lines.size());
      while (!filler.exhausted()) {
        ChunkSource.Chunk c = filler.fill(arena, index);
        assertNull(filler.tooLarge());
        chunks++;
        sum.add(c.checksum());
        assertEquals(index.size(), c.records(), "seed " + SEED);
        for (int i = 0; i < index.size(); i++) {
          long ref = index.refs()[i];
          ByteBuffer b = index.slabBuffer(RecordIndex.slabOf(ref));
          int at = RecordIndex.offsetOf(ref);
          got.add(text(b, index.layout().recordStart(b, at), index.layout().recordLength(b, at)));
        }
      }
      reader.finish();
    }
    assertEquals(lines, got, "every line once, in input order; seed " + SEED);
    assertEquals(checksum(lines), sum, "seed " + SEED);
    assertTrue(chunks > 10, chunks + " chunks");
    assertTrue(
        started.stream().anyMatch(t -> t.contains("keys")),
        "a helper thread encoded keys: " + started);
  }

  /** Sorts that keep the input order of equal keys parse on one thread whatever they are given. */
  @Test
  void stableAndKeyedUniqueSortsParseOnOneThread() throws IOException {
    SortKey firstField = SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric()));
    EntrySpec stable =
        EntrySpec.of(
            SortConfig.builder()
                .format(RecordFormat.lines())
                .key(firstField)
                .lastResort(LastResort.NONE)
                .build());
    EntrySpec keyedUnique =
        EntrySpec.of(
            SortConfig.builder().format(RecordFormat.lines()).key(firstField).unique(true).build());
    Path p = write(List.of("1", "2"), true);
    for (EntrySpec spec : List.of(stable, keyedUnique)) {
      assertFalse(spec.orderFree());
      try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
          BlockPool pool = new BlockPool(3, 4096);
          RecordReader reader = reader(in, RecordFormat.lines(), pool, 4096);
          EntryFiller filler = new EntryFiller(reader, spec)) {
        filler.parseInParallel(4, SortThreads.JOULE);
        assertEquals(1, filler.parseThreads());
      }
    }
    assertTrue(WHOLE.orderFree());
    assertTrue(NUMERIC.orderFree());
  }

  /** A line longer than the arena goes alone into an overflow arena, as on one thread. */
  @Test
  void anOutsizedLineIsAChunkOfItsOwn() throws IOException {
    Random r = new Random(SEED + 9);
    List<String> lines = randomLines(r, 3000, false);
    lines.add(1000, "z".repeat(300_000));
    lines.add(2000, "w".repeat(300_000));
    Path p = write(lines, false);
    Filled f = fillAll(p, NUMERIC, 2, 128L << 10, 20000);
    assertEquals(counts(lines), f.lines(), "seed " + (SEED + 9));
    assertEquals(checksum(lines), f.checksum(), "seed " + (SEED + 9));
    assertTrue(f.chunks() >= 3, "chunks " + f.chunks());
  }

  /**
   * An outsized last line is the last chunk: the filler says the input is used up once it is
   * placed, as on one thread, so that no empty chunk (an empty run, or two passes for one) follows.
   */
  @Test
  void anOutsizedLastLineIsTheLastChunk() throws IOException {
    List<String> lines = new ArrayList<>(Collections.nCopies(100, "short line"));
    lines.add("q".repeat(300_000));
    for (boolean alone : new boolean[] {false, true}) {
      List<String> input = alone ? lines.subList(100, 101) : lines;
      Path p = write(input, false);
      for (int threads = 1; threads <= 2; threads++) {
        Filled f = fillAll(p, NUMERIC, threads, 128L << 10, 20000);
        assertEquals(counts(input), f.lines(), threads + " threads");
        assertEquals(alone ? 1 : 2, f.chunks(), threads + " threads, alone " + alone);
      }
    }
  }

  @Test
  void spansRefuseRecordsThatAreNotLines() throws IOException {
    Path p = write(List.of("ab"), true);
    try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        BlockPool pool = new BlockPool(3, 4096);
        RecordReader reader = reader(in, RecordFormat.lengthPrefixed(), pool, 4096)) {
      assertThrows(IllegalStateException.class, reader::nextSpan);
    }
    try (InputFile in = InputFile.open(p, DirectIoPolicy.OFF, NoticeSink.IGNORE);
        BlockPool pool = new BlockPool(3, 4096);
        RecordReader reader = reader(in, RecordFormat.lines(), pool, 4096)) {
      assertNotNull(reader.nextSpan());
      assertThrows(IllegalStateException.class, reader::next);
    }
  }
}
