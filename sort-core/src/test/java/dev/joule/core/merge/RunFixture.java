package dev.joule.core.merge;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded sorted runs for the merge tests, plus the reference merge: all records concatenated in run
 * order and stable-sorted by key with {@link Arrays#compareUnsigned}, which is (key, run, position)
 * order.
 */
final class RunFixture {
  /** How keys are drawn. */
  enum Shape {
    RANDOM,
    ALL_EQUAL,
    TWO_DISTINCT,
    /** First 8 key bytes equal, the rest from a small alphabet: forces full-key compares. */
    SHARED_PREFIX_8,
    /** Few distinct keys: duplicate-heavy. */
    LOW_CARDINALITY,
    /** Every key byte 0xFF: live prefixes equal the exhausted sentinel. */
    ALL_ONES
  }

  final FixedLengthFormat format;
  final byte[][][] records; // [run][position] -> record bytes, each run sorted by key
  final ByteBuffer[] buffers;

  private RunFixture(FixedLengthFormat format, byte[][][] records, ByteBuffer[] buffers) {
    this.format = format;
    this.records = records;
    this.buffers = buffers;
  }

  static RunFixture random(
      long seed, Shape shape, int runs, int maxRunLength, int maxRecordSize, int maxKeyLength) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int keyLength =
        shape == Shape.SHARED_PREFIX_8
            ? 9 + rnd.nextInt(Math.max(1, maxKeyLength - 8))
            : 1 + rnd.nextInt(maxKeyLength);
    int recordSize = keyLength + rnd.nextInt(Math.max(1, maxRecordSize - keyLength + 1));
    return exact(rnd, shape, runs, maxRunLength, recordSize, keyLength);
  }

  static RunFixture exact(
      SplittableRandom rnd,
      Shape shape,
      int runs,
      int maxRunLength,
      int recordSize,
      int keyLength) {
    int keyOffset = rnd.nextInt(recordSize - keyLength + 1);
    FixedLengthFormat format = RecordFormat.fixed(recordSize, KeySpec.bytes(keyOffset, keyLength));
    byte[][] pool = keyPool(rnd, shape, keyLength);
    byte[][][] records = new byte[runs][][];
    ByteBuffer[] buffers = new ByteBuffer[runs];
    for (int r = 0; r < runs; r++) {
      int n;
      switch (rnd.nextInt(6)) {
        case 0:
          n = 0; // empty run
          break;
        case 1:
          n = 1;
          break;
        default:
          n = rnd.nextInt(maxRunLength + 1);
      }
      byte[][] run = new byte[n][recordSize];
      for (byte[] rec : run) {
        for (int b = 0; b < recordSize; b++) {
          rec[b] = (byte) rnd.nextInt(256);
        }
        byte[] key = pool == null ? randomBytes(rnd, keyLength) : pool[rnd.nextInt(pool.length)];
        System.arraycopy(key, 0, rec, keyOffset, keyLength);
      }
      Arrays.sort(run, keyOrder(format)); // stable, so equal keys keep generation order
      records[r] = run;
      buffers[r] = toBuffer(rnd, run, recordSize);
    }
    return new RunFixture(format, records, buffers);
  }

  private static byte[][] keyPool(SplittableRandom rnd, Shape shape, int keyLength) {
    switch (shape) {
      case RANDOM:
        return null;
      case ALL_EQUAL:
        return new byte[][] {randomBytes(rnd, keyLength)};
      case ALL_ONES:
        byte[] ones = new byte[keyLength];
        Arrays.fill(ones, (byte) 0xFF);
        return new byte[][] {ones};
      case TWO_DISTINCT:
        return new byte[][] {randomBytes(rnd, keyLength), randomBytes(rnd, keyLength)};
      case LOW_CARDINALITY:
        byte[][] few = new byte[1 + rnd.nextInt(5)][];
        for (int i = 0; i < few.length; i++) {
          few[i] = randomBytes(rnd, keyLength);
        }
        return few;
      case SHARED_PREFIX_8:
        byte[] head = randomBytes(rnd, 8);
        byte[][] pool = new byte[64][];
        for (int i = 0; i < pool.length; i++) {
          byte[] key = randomBytes(rnd, keyLength);
          System.arraycopy(head, 0, key, 0, 8);
          // A small alphabet after the prefix, with one byte varied late in the key, so that
          // equal keys and keys differing only in their tail both occur.
          for (int b = 8; b < keyLength; b++) {
            key[b] = (byte) (rnd.nextInt(2) * 0xF0);
          }
          pool[i] = key;
        }
        return pool;
      default:
        throw new AssertionError(shape);
    }
  }

  private static ByteBuffer toBuffer(SplittableRandom rnd, byte[][] run, int recordSize) {
    // A random lead-in before the run's first record checks that cursors start at position(), and
    // random byte orders and heap/direct buffers check that byte order is never trusted.
    int lead = rnd.nextInt(3) * 7;
    int bytes = lead + run.length * recordSize;
    ByteBuffer buf =
        rnd.nextBoolean() ? ByteBuffer.allocate(bytes) : ByteBuffer.allocateDirect(bytes);
    buf.order(rnd.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    buf.position(lead);
    for (byte[] rec : run) {
      buf.put(rec);
    }
    buf.position(lead);
    return buf;
  }

  static byte[] randomBytes(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) rnd.nextInt(256);
    }
    return b;
  }

  static Comparator<byte[]> keyOrder(FixedLengthFormat format) {
    int off = format.key().offset();
    int end = format.key().end();
    return (a, b) -> Arrays.compareUnsigned(a, off, end, b, off, end);
  }

  int runs() {
    return records.length;
  }

  long totalRecords() {
    long n = 0;
    for (byte[][] run : records) {
      n += run.length;
    }
    return n;
  }

  /** The reference merge as (run, position) pairs packed into longs: run << 32 | position. */
  long[] referenceOrder() {
    List<long[]> ids = new ArrayList<>();
    List<byte[]> recs = new ArrayList<>();
    for (int r = 0; r < records.length; r++) {
      for (int p = 0; p < records[r].length; p++) {
        ids.add(new long[] {((long) r << 32) | p});
        recs.add(records[r][p]);
      }
    }
    Integer[] order = new Integer[recs.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Comparator<byte[]> keys = keyOrder(format);
    Arrays.sort(order, (a, b) -> keys.compare(recs.get(a), recs.get(b))); // stable
    long[] out = new long[order.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = ids.get(order[i])[0];
    }
    return out;
  }

  byte[] record(long id) {
    return records[(int) (id >>> 32)][(int) id];
  }

  RunCursor[] cursors() {
    RunCursor[] c = new RunCursor[buffers.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = new ByteBufferRunCursor(buffers[i], format);
    }
    return c;
  }

  SortedRunView[] views() {
    SortedRunView[] v = new SortedRunView[buffers.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = new ByteBufferRunView(buffers[i], format);
    }
    return v;
  }
}
