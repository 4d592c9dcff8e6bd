package dev.joule.bench.gather;

import dev.joule.bench.radix.BenchData;
import dev.joule.core.gather.RecordGatherer;
import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * Gather variants against the sequential-put baseline in one JVM (sort-bench/results/radix.md): 1e6
 * sorted 100-byte records into a direct buffer, each variant in turn, {@code rounds} times; prints
 * the median of the second half in ms and GB/s. The variants other than {@link RecordGatherer} were
 * tried and rejected; they stay here so the comparison can be rerun.
 *
 * <pre>
 * java -Xms1g -Xmx1g -da -XX:MaxDirectMemorySize=1g -cp sort-bench/target/benchmarks.jar \
 *     dev.joule.bench.gather.GatherAbHarness 20
 * </pre>
 */
public final class GatherAbHarness {
  private static final int N = 1_000_000;
  private static final String[] VARIANTS = {
    "seqPut", "gather1T", "gather2T", "slice1T", "batch16", "batch32", "batch64", "touch32"
  };

  private GatherAbHarness() {}

  /** Entry point: {@code rounds}. */
  public static void main(String[] args) {
    BenchData.requireAssertionsOff();
    int rounds = Integer.parseInt(args[0]);
    FixedLengthFormat f = RecordFormat.gensort();
    try (RecordArena arena = BenchData.gensortArena(KeyShape.UNIFORM, N, f, 42);
        RecordArena destination = RecordArena.allocate((long) N * 100);
        RadixRunSorter sorter = new RadixRunSorter(2)) {
      RecordIndex index = RecordIndex.forArena(arena, f);
      index.build(arena.view(), f);
      sorter.sort(index);
      ByteBuffer dst = destination.writableWindow(0, 0, N * 100);
      RecordGatherer one = new RecordGatherer(null);
      RecordGatherer two = new RecordGatherer(sorter.pool());
      ByteBuffer[] slabs = new ByteBuffer[64];
      int[] offsets = new int[64];
      double[][] ms = new double[VARIANTS.length][rounds];
      for (int r = 0; r < rounds; r++) {
        for (int v = 0; v < VARIANTS.length; v++) {
          dst.clear();
          long t0 = System.nanoTime();
          switch (v) {
            case 0 -> sequentialPut(arena, dst);
            case 1 -> one.gather(index, 0, N, dst);
            case 2 -> two.gather(index, 0, N, dst);
            case 3 -> slice(index, dst);
            case 4 -> batched(index, dst, 16, slabs, offsets);
            case 5 -> batched(index, dst, 32, slabs, offsets);
            case 6 -> batched(index, dst, 64, slabs, offsets);
            default -> touchAhead(index, dst, 32);
          }
          ms[v][r] = (System.nanoTime() - t0) / 1e6;
        }
      }
      StringBuilder out = new StringBuilder();
      for (int v = 0; v < VARIANTS.length; v++) {
        double[] late = Arrays.copyOfRange(ms[v], rounds / 2, rounds);
        Arrays.sort(late);
        double med = late[late.length / 2];
        out.append(String.format(Locale.ROOT, "%s=%.1fms(%.2fGB/s) ", VARIANTS[v], med, 100 / med));
      }
      System.out.println(out);
    }
  }

  private static void sequentialPut(RecordArena arena, ByteBuffer dst) {
    int left = N * 100;
    for (int s = 0; left > 0; s++) {
      ByteBuffer slab = arena.view().slab(s);
      int k = Math.min(left, slab.capacity() / 100 * 100);
      dst.put(slab.duplicate().limit(k));
      left -= k;
    }
  }

  private static void slice(RecordIndex index, ByteBuffer dst) {
    int rs = index.recordSize();
    long[] refs = index.refs();
    for (int i = 0, at = 0; i < N; i++, at += rs) {
      long ref = refs[i];
      ByteBuffer slab = index.slabBuffer(RecordIndex.slabOf(ref));
      dst.put(at, slab.slice(RecordIndex.offsetOf(ref), rs), 0, rs);
    }
  }

  private static void batched(
      RecordIndex index, ByteBuffer dst, int batch, ByteBuffer[] slabs, int[] offsets) {
    int rs = index.recordSize();
    long[] refs = index.refs();
    int at = 0;
    for (int i = 0; i < N; i += batch) {
      int e = Math.min(N, i + batch);
      for (int j = i; j < e; j++) {
        slabs[j - i] = index.slabBuffer(RecordIndex.slabOf(refs[j]));
        offsets[j - i] = RecordIndex.offsetOf(refs[j]);
      }
      for (int j = i; j < e; j++, at += rs) {
        dst.put(at, slabs[j - i], offsets[j - i], rs);
      }
    }
  }

  private static void touchAhead(RecordIndex index, ByteBuffer dst, int batch) {
    int rs = index.recordSize();
    long[] refs = index.refs();
    long sink = 0;
    int at = 0;
    for (int i = 0; i < N; i += batch) {
      int e = Math.min(N, i + batch);
      for (int j = i; j < e; j++) { // independent loads of each record's first and last line
        ByteBuffer slab = index.slabBuffer(RecordIndex.slabOf(refs[j]));
        int o = RecordIndex.offsetOf(refs[j]);
        sink += slab.get(o) + slab.get(o + rs - 1);
      }
      for (int j = i; j < e; j++, at += rs) {
        long ref = refs[j];
        dst.put(at, index.slabBuffer(RecordIndex.slabOf(ref)), RecordIndex.offsetOf(ref), rs);
      }
    }
    if (sink == Long.MIN_VALUE) {
      System.out.println(sink); // keeps the touches live
    }
  }
}
