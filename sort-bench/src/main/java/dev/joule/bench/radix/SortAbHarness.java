package dev.joule.bench.radix;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ratios between data shapes measured within one JVM, for a machine too loaded for JMH errors to
 * resolve them: sorts each shape's 1e6-record index in turn, {@code rounds} times, and prints the
 * median of the second half per shape and the ratios to the first shape. Checks order and stability
 * on the first round. Shapes: {@code gsuni}, {@code gskew} (real gensort 1.5 records 0..n-1 without
 * / with -s), {@code uniform}, {@code skew} ({@link KeyShape}).
 *
 * <pre>
 * java -Xms2g -Xmx2g -da -cp sort-bench/target/benchmarks.jar dev.joule.bench.radix.SortAbHarness \
 *     gsuni,gskew,uniform,skew 1 40          # shapes, threads, rounds
 * java ... SortAbHarness gskew 1 1 stats     # largest key-prefix groups of one shape instead
 * </pre>
 */
public final class SortAbHarness {
  private static final int N = Integer.getInteger("records", 1_000_000);

  private SortAbHarness() {}

  /** Entry point; arguments as in the class comment. */
  public static void main(String[] args) {
    BenchData.requireAssertionsOff();
    String[] shapes = args[0].split(",", -1);
    int threads = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    FixedLengthFormat f = RecordFormat.gensort();
    RecordArena[] arenas = new RecordArena[shapes.length];
    RecordIndex[] pristine = new RecordIndex[shapes.length];
    for (int i = 0; i < shapes.length; i++) {
      arenas[i] = arena(shapes[i], f);
      pristine[i] = RecordIndex.forArena(arenas[i], f);
      pristine[i].build(arenas[i].view(), f);
    }
    if (args.length > 3) {
      prefixStats(pristine[0]);
    } else {
      time(shapes, threads, rounds, pristine);
    }
    for (RecordArena a : arenas) {
      a.close();
    }
  }

  private static void time(String[] shapes, int threads, int rounds, RecordIndex[] pristine) {
    RecordIndex work = RecordIndex.allocate(pristine[0].size());
    double[][] ms = new double[shapes.length][rounds];
    try (RadixRunSorter sorter = new RadixRunSorter(threads)) {
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < shapes.length; i++) {
          work.copyFrom(pristine[i]);
          long t0 = System.nanoTime();
          sorter.sort(work);
          ms[i][r] = (System.nanoTime() - t0) / 1e6;
          if (r == 0) {
            checkSortedAndStable(work);
          }
        }
      }
    }
    StringBuilder out = new StringBuilder("threads=" + threads);
    double[] median = new double[shapes.length];
    for (int i = 0; i < shapes.length; i++) {
      double[] late = Arrays.copyOfRange(ms[i], rounds / 2, rounds);
      Arrays.sort(late);
      median[i] = late[late.length / 2];
      out.append(String.format(Locale.ROOT, " %s=%.2f", shapes[i], median[i]));
    }
    for (int i = 1; i < shapes.length; i++) {
      out.append(
          String.format(Locale.ROOT, " %s/%s=%.2f", shapes[i], shapes[0], median[i] / median[0]));
    }
    System.out.println(out);
  }

  private static RecordArena arena(String shape, FixedLengthFormat f) {
    return switch (shape) {
      case "gsuni" -> BenchData.realGensortArena(N, false);
      case "gskew" -> BenchData.realGensortArena(N, true);
      case "uniform" -> BenchData.gensortArena(KeyShape.UNIFORM, N, f, 42);
      case "skew" -> BenchData.gensortArena(KeyShape.SKEW, N, f, 42);
      default -> throw new IllegalArgumentException("shape " + shape);
    };
  }

  private static void checkSortedAndStable(RecordIndex w) {
    if (w.size() != N) {
      throw new IllegalStateException("index holds " + w.size() + " entries, not " + N);
    }
    for (int i = 1; i < w.size(); i++) {
      int c = w.compareKeys(w.prefix(i - 1), w.ref(i - 1), w.prefix(i), w.ref(i));
      long a = w.ref(i - 1) & RecordIndex.ADDRESS_MASK;
      long b = w.ref(i) & RecordIndex.ADDRESS_MASK;
      if (c > 0 || (c == 0 && a > b)) {
        throw new IllegalStateException("out of order at entry " + i);
      }
    }
  }

  private static void prefixStats(RecordIndex x) {
    long[] keys = x.keys();
    for (int len = 1; len <= 6; len++) {
      Map<Long, Integer> groups = new HashMap<>();
      for (int i = 0; i < x.size(); i++) {
        groups.merge(keys[i] >>> (64 - 8 * len), 1, Integer::sum);
      }
      List<Integer> sizes = new ArrayList<>(groups.values());
      sizes.sort(Collections.reverseOrder());
      System.out.println(
          "prefix bytes "
              + len
              + ": distinct "
              + groups.size()
              + ", largest "
              + sizes.subList(0, Math.min(8, sizes.size())));
    }
  }
}
