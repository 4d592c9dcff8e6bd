package dev.joule.io.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieSlots;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The output check of entries whose tie breaker has {@link TieSlots} (a key in a locale): ties are
 * compared through the copies, a record copied once for the two comparisons it takes part in, and a
 * pair out of order is found wherever it is: in a run of equal keys (the previous record's copy
 * reused) and right after the key changes (the previous record copied from the check's own copy).
 */
class OutputValidatorSlotsTest {
  private static final int RECORD = 4;

  /** Records compared as unsigned bytes; heap copies, counted. */
  private static final class Counted implements TieBreaker {
    long inPlace;
    long copies;

    @Override
    public int compare(ByteBuffer a, int as, int al, ByteBuffer b, int bs, int bl) {
      inPlace++;
      return a.slice(as, al).compareTo(b.slice(bs, bl));
    }

    @Override
    public TieSlots slots(int count) {
      byte[][] held = new byte[count][];
      return new TieSlots() {
        @Override
        public void set(int slot, ByteBuffer buffer, int start, int length) {
          copies++;
          held[slot] = new byte[length];
          buffer.get(start, held[slot]);
        }

        @Override
        public int compare(int a, int b) {
          return Arrays.compareUnsigned(held[a], held[b]);
        }

        @Override
        public boolean identical(int a, int b) {
          return Arrays.equals(held[a], held[b]);
        }

        @Override
        public void swap(int a, int b) {
          byte[] t = held[a];
          held[a] = held[b];
          held[b] = t;
        }
      };
    }
  }

  /**
   * Entries with keys 0 0 0 0 0 1 1 1 and records 10 11 12 13 14 10 11 12; {@code swapAt} >= 0
   * exchanges the records of entries swapAt and swapAt + 1 (same key).
   */
  private static boolean check(int swapAt, Counted tie) {
    byte[] keys = {0, 0, 0, 0, 0, 1, 1, 1};
    byte[] recs = {10, 11, 12, 13, 14, 10, 11, 12};
    if (swapAt >= 0) {
      byte t = recs[swapAt];
      recs[swapAt] = recs[swapAt + 1];
      recs[swapAt + 1] = t;
    }
    EntryLayout layout = EntryLayout.derived(0, 0);
    ByteBuffer b = ByteBuffer.allocateDirect(1024);
    OutputValidator v = new OutputValidator(layout, tie);
    int at = 0;
    for (int i = 0; i < keys.length; i++) {
      int p = layout.writeHeader(b, at, RECORD, 1);
      b.put(p, keys[i]);
      b.put(p + 1, new byte[] {recs[i], 0, 0, 0});
      v.acceptEntry(b, at);
      at += layout.entryLength(RECORD, 1);
    }
    return v.summary().ordered();
  }

  @ParameterizedTest(name = "records {0} and the next exchanged")
  @ValueSource(ints = {-1, 0, 3, 5, 6})
  void tiesAreCheckedThroughTheCopies(int swapAt) {
    Counted tie = new Counted();
    boolean ordered = check(swapAt, tie);
    if (swapAt < 0) {
      assertTrue(ordered);
    } else {
      assertFalse(ordered, "a tie out of order at " + swapAt + " was not found");
    }
    assertEquals(0, tie.inPlace, "comparisons in place");
    // 6 ties: each record copied once, and the first of each key's run once more
    assertEquals(8, tie.copies);
  }
}
