package dev.joule.io.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.index.RepeatCounts;
import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.record.RecordFormat;
import dev.joule.core.valsort.RecordChecksum;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The read-time filter of repeated lines. Drop mode (plain {@code -u}): it drops only lines already
 * in the chunk, nearly all of them when few values repeat. Count mode (GNU's last resort, or whole
 * lines without {@code -u}): the entries with their counts stand for exactly the lines fed, line
 * for line. Both switch off after their trial when lines rarely repeat. The reference is a map of
 * the lines fed to how often.
 */
class RepeatFilterTest {
  private static final long SEED = TestSeed.of(RepeatFilterTest.class, 0x5EED_F117L);

  /** The sorts of the two modes: plain {@code -u}; {@code -n} with GNU's last resort. */
  private static final EntrySpec UNIQUE =
      EntrySpec.of(SortConfig.builder().format(RecordFormat.lines()).unique(true).build());

  static final EntrySpec NUMERIC =
      EntrySpec.of(
          SortConfig.builder()
              .format(RecordFormat.lines())
              .key(SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric())))
              .lastResort(LastResort.ASCENDING)
              .build());

  /** What the filter did to a stream of lines, checked line by line against the reference. */
  private record Outcome(
      int lookups, int filtered, int missedRepeats, boolean off, boolean lastTrialLookupHit) {}

  private static Outcome feed(int n, IntFunction<String> line) {
    return feed(UNIQUE, n, line);
  }

  private static Outcome feed(EntrySpec spec, int n, IntFunction<String> line) {
    RepeatFilter filter = RepeatFilter.of(spec);
    assertNotNull(filter);
    EntryAppender appender = new EntryAppender(spec);
    Map<String, Long> fed = new HashMap<>();
    int lookups = 0;
    int filtered = 0;
    int missed = 0;
    boolean lastTrialHit = false;
    Random pad = new Random(SEED ^ n);
    RecordChecksum crcs = new RecordChecksum();
    try (RecordArena arena = RecordArena.allocate(32L << 20)) {
      RecordIndex index = RecordIndex.allocate(n);
      appender.reset(arena, index);
      filter.reset(index);
      for (int i = 0; i < n && !filter.off(); i++) {
        String s = line.apply(i);
        // Bytes before and after the line, as in a read buffer: 0 to 9 after it, so that both the
        // word-wide tail and the byte loop at a buffer's end are taken.
        byte[] text = s.getBytes(StandardCharsets.US_ASCII);
        int start = pad.nextInt(4);
        ByteBuffer src = ByteBuffer.allocate(start + text.length + pad.nextInt(10));
        for (int k = 0; k < src.capacity(); k++) {
          src.put(k, (byte) pad.nextInt(256));
        }
        src.put(start, text);
        int length = text.length;
        lookups++;
        boolean hit = filter.repeats(src, start, length, crcs.crcOf(src, start, length));
        if (lookups == RepeatFilter.TRIAL) {
          lastTrialHit = hit;
        }
        boolean held = fed.containsKey(s);
        fed.merge(s, 1L, Long::sum);
        if (hit) {
          assertTrue(held, () -> "seed " + SEED + ": filtered '" + s + "', not held");
          filtered++;
          continue;
        }
        if (held) {
          missed++; // lossy: its slot holds another line
        }
        appender.encodeKey(src, start, length);
        assertTrue(appender.append(src, start, length));
        filter.added(index.refs()[index.size() - 1]);
      }
      if (filter.counts()) {
        assertStandsForWhatWasFed(index, filter.repeatCounts(), fed);
      }
      return new Outcome(lookups, filtered, missed, filter.off(), lastTrialHit);
    }
  }

  /** The entries, each with its copies, are the lines fed, each as often. */
  private static void assertStandsForWhatWasFed(
      RecordIndex index, RepeatCounts counts, Map<String, Long> fed) {
    Map<String, Long> held = new HashMap<>();
    EntryLayout layout = index.layout();
    long copies = 0;
    for (int i = 0; i < index.size(); i++) {
      long ref = index.ref(i);
      ByteBuffer b = index.slabBuffer(RecordIndex.slabOf(ref));
      int at = RecordIndex.offsetOf(ref);
      byte[] rec = new byte[layout.recordLength(b, at)];
      b.get(layout.recordStart(b, at), rec);
      long extra = counts.extra(ref);
      copies += extra;
      held.merge(new String(rec, StandardCharsets.US_ASCII), 1 + extra, Long::sum);
    }
    assertEquals(fed, held, "seed " + SEED);
    assertEquals(copies, counts.total(), "seed " + SEED);
  }

  @Test
  void repeatsOfFewValuesAreDroppedAndOnlyThey() {
    Random r = new Random(SEED);
    List<String> values = r.ints(1000, 0, 1 << 30).mapToObj(Integer::toString).toList();
    Outcome o = feed(200_000, i -> values.get(r.nextInt(values.size())));
    assertFalse(o.off(), "seed " + SEED);
    assertEquals(200_000, o.lookups());
    // 1000 values in 16384 slots: a few collide and are kept, to be dropped later
    assertTrue(o.filtered() > 190_000, "seed " + SEED + ": dropped " + o.filtered());
  }

  /**
   * Count mode, numbers in several spellings (equal as numbers, different as lines): every line fed
   * is an entry or a copy counted on an identical one, never on one merely equal in key.
   */
  @Test
  void repeatsAreCountedOnIdenticalLinesOnly() {
    Random r = new Random(SEED + 2);
    String[] spellings = {"", "0", "+", "-", "00"};
    Outcome o =
        feed(
            NUMERIC,
            200_000,
            i ->
                spellings[r.nextInt(spellings.length)]
                    + r.nextInt(300)
                    + (r.nextBoolean() ? "" : ".0"));
    assertFalse(o.off(), "seed " + SEED);
    assertTrue(o.filtered() > 190_000, "seed " + SEED + ": counted " + o.filtered());
  }

  /**
   * Count mode with more distinct lines than slots: a slot whose line has copies keeps it, so the
   * lines that collide with it become entries, and the counts still add up.
   */
  @Test
  void countedSlotsAreKeptWhenOtherLinesCollide() {
    Random r = new Random(SEED + 3);
    EntrySpec whole = EntrySpec.of(SortConfig.builder().format(RecordFormat.lines()).build());
    assertTrue(whole.equalMeansIdentical());
    Outcome o = feed(whole, 300_000, i -> "w" + r.nextInt(40_000));
    assertFalse(o.off(), "seed " + SEED);
    assertTrue(o.missedRepeats() > 0, "seed " + SEED + ": the case needs collisions");
  }

  /** Sorts in which equal keys need not be identical lines have no count mode; unique ones drop. */
  @Test
  void noCountModeWhereEqualIsNotIdentical() {
    assertNull(
        RepeatFilter.of(
            EntrySpec.of(
                SortConfig.builder()
                    .format(RecordFormat.lines())
                    .key(SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric())))
                    .lastResort(LastResort.NONE)
                    .build())));
    RepeatFilter keyedUnique =
        RepeatFilter.of(
            EntrySpec.of(
                SortConfig.builder()
                    .format(RecordFormat.lines())
                    .key(SortKey.of(KeyField.of(KeyLocation.wholeRecord(), KeyType.gnuNumeric())))
                    .lastResort(LastResort.ASCENDING)
                    .unique(true)
                    .build()));
    assertFalse(keyedUnique.counts()); // -n -u: identical lines are dropped, not counted
    assertNull(RepeatFilter.of(EntrySpec.pairs(false, dev.joule.io.config.LastResort.NONE)));
    assertFalse(RepeatFilter.of(UNIQUE).counts());
    assertTrue(RepeatFilter.of(NUMERIC).counts());
  }

  /**
   * The filter's line comparison (MergeOrder's, word-wise with a masked tail) against
   * Arrays.equals, in both byte orders.
   */
  @Test
  void equalBytesAgreesWithArraysEquals() {
    Random r = new Random(SEED + 1);
    for (int t = 0; t < 20_000; t++) {
      int n = r.nextInt(20);
      byte[] x = new byte[n + r.nextInt(10)];
      byte[] y = new byte[n + r.nextInt(10)];
      r.nextBytes(x);
      r.nextBytes(y);
      int ix = x.length - n;
      int iy = y.length - n;
      if (r.nextBoolean()) {
        ix = r.nextInt(x.length - n + 1);
        iy = r.nextInt(y.length - n + 1);
      }
      System.arraycopy(x, ix, y, iy, n);
      if (n > 0 && r.nextBoolean()) {
        y[iy + r.nextInt(n)] ^= (byte) (1 << r.nextInt(8));
      }
      ByteOrder order = r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      ByteBuffer a = ByteBuffer.wrap(x).order(order);
      ByteBuffer b =
          (r.nextBoolean() ? ByteBuffer.allocateDirect(y.length) : ByteBuffer.allocate(y.length))
              .order(r.nextBoolean() ? order : ByteOrder.BIG_ENDIAN);
      b.put(0, y);
      boolean expected = Arrays.equals(x, ix, ix + n, y, iy, iy + n);
      assertEquals(
          expected,
          MergeOrder.compareKeys(a, ix, b, iy, n) == 0,
          "case " + t + " n=" + n + " seed " + SEED);
    }
  }

  @Test
  void distinctLinesSwitchItOffAfterItsTrial() {
    Outcome o = feed(200_000, i -> "line " + i);
    assertTrue(o.off());
    assertEquals(RepeatFilter.TRIAL, o.lookups());
    assertEquals(0, o.filtered());
    Outcome c = feed(NUMERIC, 200_000, i -> Integer.toString(i));
    assertTrue(c.off());
    assertEquals(RepeatFilter.TRIAL, c.lookups());
  }

  /**
   * One repeat in ten is below the one in {@link RepeatFilter#WORTH} that pays: off after the
   * trial, even when the trial's last lookup is itself a hit.
   */
  @Test
  void tooFewRepeatsSwitchItOffEvenWhenTheLastTrialLookupHits() {
    Outcome o = feed(200_000, i -> i % 10 == 9 || i == RepeatFilter.TRIAL - 1 ? "again" : "l" + i);
    assertTrue(o.lastTrialLookupHit(), () -> "the case needs the trial's last lookup to hit: " + o);
    assertTrue(o.off(), () -> "still on after " + o);
    assertEquals(RepeatFilter.TRIAL, o.lookups());
  }
}
