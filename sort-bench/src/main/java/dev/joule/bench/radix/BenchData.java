package dev.joule.bench.radix;

import dev.joule.core.gensort.GensortGenerator;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.RecordLayout;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.testing.KeyShape;
import java.nio.ByteBuffer;

/**
 * Fills arenas with gensort records, real or seeded look-alikes, for the benchmarks (not timed).
 */
public final class BenchData {
  /** Slab size of benchmark arenas: 64 MiB, so 1e6 records span two slabs. */
  public static final int SLAB = 64 << 20;

  private BenchData() {}

  /** Refuses to run with assertions on: they change what is measured. */
  @SuppressWarnings({"AssertWithSideEffects", "AssignmentExpression"}) // the -ea idiom
  public static void requireAssertionsOff() {
    boolean ea = false;
    assert ea = true;
    if (ea) {
      throw new IllegalStateException("Disable assertions (-da) to run the benchmark");
    }
  }

  /**
   * Caller owns the arena: gensort 1.5 binary records 0..n-1, byte for byte, skewed as {@code
   * gensort -s} if {@code skew}. Real -s keys are not {@link KeyShape#SKEW}: record i copies the
   * first 1..48 bits (uniform) of template bit-length(i), so at 1e6 the 21 templates in use hold 48
   * %, 26 %, 13 %, ... of the skewed 75 %, nested over six key bytes (sort-bench/results/radix.md).
   */
  public static RecordArena realGensortArena(int n, boolean skew) {
    int perSlab = SLAB / GensortGenerator.RECORD_SIZE;
    RecordArena arena = RecordArena.allocate((long) ((n + perSlab - 1) / perSlab) * SLAB, SLAB);
    GensortGenerator gen = new GensortGenerator(new GensortMode(RecordLayout.BINARY, skew));
    int left = n;
    for (int slab = 0; left > 0; slab++) {
      int k = Math.min(left, perSlab);
      ByteBuffer w = arena.writableWindow(slab, 0, arena.slabCapacity(slab));
      gen.generate(w, k);
      arena.setFilled(slab, w.position());
      left -= k;
    }
    return arena;
  }

  /** Caller owns the arena: {@code n} records of {@code format}, keys of {@code shape}. */
  public static RecordArena gensortArena(
      KeyShape shape, int n, FixedLengthFormat format, long seed) {
    int rs = format.recordSize();
    int perSlab = SLAB / rs;
    RecordArena arena = RecordArena.allocate((long) ((n + perSlab - 1) / perSlab) * SLAB, SLAB);
    byte[][] keys = shape.keys(n, format.key().length(), seed);
    byte[] payload = new byte[rs];
    int slab = 0;
    ByteBuffer w = arena.writableWindow(0, 0, arena.slabCapacity(0));
    for (int i = 0; i < n; i++) {
      if (w.remaining() < rs) {
        arena.setFilled(slab, w.position());
        w = arena.writableWindow(++slab, 0, arena.slabCapacity(slab));
      }
      payload[rs - 1] = (byte) i;
      int at = w.position();
      w.put(payload);
      w.put(at + format.key().offset(), keys[i]);
    }
    arena.setFilled(slab, w.position());
    return arena;
  }
}
