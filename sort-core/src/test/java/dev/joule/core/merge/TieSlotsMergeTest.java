package dev.joule.core.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieSlots;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.HeapTieSlots;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A merge whose tie breaker has {@link TieSlots} compares the runs' head records only through their
 * copies, each copied once while it is a head (once more when it follows an equal key in its run),
 * and merges as a stable reference does: records by key, then by the tie breaker, then run, then
 * position. With one buffer per run and with a new buffer object every few records (a file cursor's
 * blocks, where the record a run just left is no longer in its buffer).
 */
class TieSlotsMergeTest {
  private static final int SIZE = 16;
  private static final FixedLengthFormat FORMAT = RecordFormat.fixed(SIZE, KeySpec.bytes(0, 2));

  /** Bytes 2.. of a record, unsigned; copies on the heap, counted. */
  private static final class Counted implements TieBreaker {
    long inPlace;
    HeapTieSlots slots;

    @Override
    public int compare(ByteBuffer a, int as, int al, ByteBuffer b, int bs, int bl) {
      inPlace++;
      return ByteBuffer.wrap(tail(a, as)).compareTo(ByteBuffer.wrap(tail(b, bs)));
    }

    private static byte[] tail(ByteBuffer b, int at) {
      byte[] t = new byte[SIZE - 2];
      b.get(at + 2, t);
      return t;
    }

    @Override
    public TieSlots slots(int count) {
      slots = new HeapTieSlots(count, 2);
      return slots;
    }
  }

  /** A run in blocks of {@code perBlock} records, each block a new buffer object. */
  private static final class Blocked extends AbstractRunCursor {
    private final byte[][] records;
    private final int perBlock;
    private int index = -1;

    Blocked(byte[][] records, int perBlock) {
      super(FORMAT);
      this.records = records;
      this.perBlock = perBlock;
    }

    @Override
    public boolean advance() {
      if (++index >= records.length) {
        return false;
      }
      if (index % perBlock == 0) {
        int n = Math.min(perBlock, records.length - index);
        buffer = ByteBuffer.allocate(n * SIZE);
        for (int i = 0; i < n; i++) {
          buffer.put(i * SIZE, records[index + i]);
        }
      }
      position = (index % perBlock) * SIZE;
      return true;
    }
  }

  @ParameterizedTest(name = "blocks of {0} records")
  @ValueSource(ints = {0, 7})
  void headsAreComparedThroughTheirCopies(int perBlock) {
    long seed = 0x51075L + perBlock;
    SplittableRandom r = new SplittableRandom(seed);
    int k = 12;
    byte[][][] runs = new byte[k][][];
    Comparator<byte[]> order = Comparator.comparing(x -> x, Arrays::compareUnsigned);
    long total = 0;
    for (int i = 0; i < k; i++) {
      runs[i] = new byte[200 + r.nextInt(300)][];
      for (int j = 0; j < runs[i].length; j++) {
        byte[] rec = new byte[SIZE];
        rec[0] = (byte) r.nextInt(2); // keys tie often
        rec[1] = (byte) r.nextInt(2);
        for (int b = 2; b < SIZE; b++) {
          rec[b] = (byte) (b < 14 ? 0 : r.nextInt(3)); // records repeat within a run
        }
        runs[i][j] = rec;
      }
      Arrays.sort(runs[i], order);
      total += runs[i].length;
    }
    RunCursor[] cursors = new RunCursor[k];
    for (int i = 0; i < k; i++) {
      if (perBlock == 0) {
        ByteBuffer b = ByteBuffer.allocate(runs[i].length * SIZE);
        for (int j = 0; j < runs[i].length; j++) {
          b.put(j * SIZE, runs[i][j]);
        }
        cursors[i] = new ByteBufferRunCursor(b, FORMAT);
      } else {
        cursors[i] = new Blocked(runs[i], perBlock);
      }
    }
    List<long[]> expected = new ArrayList<>(); // {run, position}, in a stable reference order
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < runs[i].length; j++) {
        expected.add(new long[] {i, j});
      }
    }
    expected.sort(
        Comparator.<long[], byte[]>comparing(e -> runs[(int) e[0]][(int) e[1]], order)
            .thenComparingLong(e -> e[0])
            .thenComparingLong(e -> e[1]));
    Counted tie = new Counted();
    TournamentTree tree = new TournamentTree(tie, cursors);
    byte[] got = new byte[SIZE];
    int n = 0;
    int run;
    while ((run = tree.nextRun()) >= 0) {
      long[] e = expected.get(n);
      assertEquals(e[0], run, "run of output record " + n + ", seed " + seed);
      RunCursor c = tree.current();
      c.buffer().get(c.position(), got);
      assertArrayEquals(runs[run][(int) e[1]], got, "output record " + n + ", seed " + seed);
      n++;
    }
    assertEquals(total, n);
    assertEquals(0, tie.inPlace, "comparisons in place");
    // each record copied as a head, and at most once more as the record its successor follows
    assertTrue(
        tie.slots.copies <= 3 * total, tie.slots.copies + " copies for " + total + " records");
    assertTrue(
        tie.slots.copies >= total / 2, tie.slots.copies + " copies: the slots were not used");
  }
}
