package dev.joule.io.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.SortConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The read-time filter of plain {@code -u}: it drops only lines already in the chunk, nearly all of
 * them when few values repeat, and switches itself off after its trial when lines rarely repeat.
 * The reference is a set of the lines the chunk holds.
 */
class RepeatFilterTest {
  private static final long SEED = Long.getLong("joule.seed", 0x5EED_F117L);

  /** What the filter did to a stream of lines, checked line by line against the reference set. */
  private record Outcome(
      int lookups, int dropped, int missedRepeats, boolean off, boolean lastTrialLookupHit) {}

  private static Outcome feed(int n, IntFunction<String> line) {
    EntrySpec spec =
        EntrySpec.of(SortConfig.builder().format(RecordFormat.lines()).unique(true).build());
    assertTrue(RepeatFilter.applies(spec));
    RepeatFilter filter = new RepeatFilter();
    EntryAppender appender = new EntryAppender(spec);
    Set<String> held = new HashSet<>();
    int lookups = 0;
    int dropped = 0;
    int missed = 0;
    boolean lastTrialHit = false;
    Random pad = new Random(SEED ^ n);
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
        boolean hit = filter.repeats(src, start, length);
        if (lookups == RepeatFilter.TRIAL) {
          lastTrialHit = hit;
        }
        if (hit) {
          assertTrue(held.contains(s), () -> "seed " + SEED + ": dropped '" + s + "', not held");
          dropped++;
          continue;
        }
        if (held.contains(s)) {
          missed++; // lossy: its slot holds another line
        }
        assertTrue(appender.append(src, start, length));
        filter.added();
        held.add(s);
      }
      return new Outcome(lookups, dropped, missed, filter.off(), lastTrialHit);
    }
  }

  @Test
  void repeatsOfFewValuesAreDroppedAndOnlyThey() {
    Random r = new Random(SEED);
    List<String> values = r.ints(1000, 0, 1 << 30).mapToObj(Integer::toString).toList();
    Outcome o = feed(200_000, i -> values.get(r.nextInt(values.size())));
    assertFalse(o.off(), "seed " + SEED);
    assertEquals(200_000, o.lookups());
    // 1000 values in 16384 slots: a few collide and are kept, to be dropped later
    assertTrue(o.dropped() > 190_000, "seed " + SEED + ": dropped " + o.dropped());
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
    assertEquals(0, o.dropped());
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
