package dev.joule.bench.radix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.bench.radix.TypedKeyBenchmark.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The engine and the baseline of {@link VariableRecordBenchmark} and {@link TypedKeyBenchmark}, run
 * through the benchmarks' own states on their own data, put the records in the same order as each
 * other and as a reference sort written from the definition of the key (with the input ordinal as
 * the last key, so the reference does not rely on a stable sort). 10^4 records take the radix
 * sorter's sequential path; 10^5 with two threads take its parallel one.
 */
class VariableAndTypedKeyOrderTest {
  /** Rows searched for texts whose UTF-16 and code point orders differ. */
  private static final int DISAGREEMENT_ROWS = 10_000;

  @ParameterizedTest
  @CsvSource({"10000, 1", "10000, 2", "100000, 2"})
  void variableRecordsSortAlike(int n, int threads) {
    byte[][] input = VariableRecordBenchmark.records(n, VariableRecordBenchmark.SEED);

    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = Arrays.copyOf(input[i], 16); // the key: the first 16 bytes, zero-padded
    }
    Integer[] ref = ordinals(n);
    Arrays.sort(
        ref,
        (x, y) -> {
          int c = Arrays.compareUnsigned(keys[x], keys[y]);
          return c != 0 ? c : Integer.compare(x, y);
        });
    int[] reference = Arrays.stream(ref).mapToInt(Integer::intValue).toArray();
    int ties = 0;
    for (int i = 1; i < n; i++) {
      ties += Arrays.equals(keys[reference[i - 1]], keys[reference[i]]) ? 1 : 0;
    }
    assertTrue(ties > n / 200, "equal keys in the data: " + ties);

    VariableRecordBenchmark.Engine engine = new VariableRecordBenchmark.Engine();
    engine.threads = threads;
    engine.load(input);
    try {
      engine.restore();
      engine.sort();
      assertArrayEquals(reference, engine.entries.order(engine.work), "engine");
    } finally {
      engine.tearDown();
    }

    VariableRecordBenchmark.Baseline baseline = new VariableRecordBenchmark.Baseline();
    baseline.load(input);
    baseline.restore();
    baseline.sort();
    assertArrayEquals(reference, ordinalsOf(input, baseline.work), "baseline");
  }

  @ParameterizedTest
  @CsvSource({"10000, 1", "10000, 2", "100000, 2"})
  void typedKeysSortAlike(int n, int threads) {
    Row[] input = TypedKeyBenchmark.rows(n, TypedKeyBenchmark.SEED);

    int[][] codePoints = new int[n][];
    for (int i = 0; i < n; i++) {
      codePoints[i] = input[i].text == null ? null : input[i].text.codePoints().toArray();
    }
    Integer[] ref = ordinals(n);
    Arrays.sort(
        ref,
        (x, y) -> {
          int c = byDefinition(input[x], codePoints[x], input[y], codePoints[y]);
          return c != 0 ? c : Integer.compare(x, y);
        });
    int[] reference = Arrays.stream(ref).mapToInt(Integer::intValue).toArray();
    checkDataIsDemanding(input, codePoints, reference);

    TypedKeyBenchmark.Engine engine = new TypedKeyBenchmark.Engine();
    engine.threads = threads;
    engine.load(input);
    try {
      engine.restore();
      engine.sort();
      assertArrayEquals(reference, engine.entries.order(engine.work), "engine");
    } finally {
      engine.tearDown();
    }

    for (String text : new String[] {"string", "utf8"}) {
      TypedKeyBenchmark.Baseline baseline = new TypedKeyBenchmark.Baseline();
      baseline.text = text;
      baseline.load(input);
      baseline.restore();
      baseline.sort();
      assertArrayEquals(reference, ordinalsOf(input, baseline.work), "baseline text=" + text);
    }
  }

  /**
   * The key's definition: int64 nulls last, then descending; text nulls first, then ascending by
   * code point ({@code cx}, {@code cy}: the texts' code points).
   */
  private static int byDefinition(Row x, int[] cx, Row y, int[] cy) {
    if (x.hasNumber != y.hasNumber) {
      return x.hasNumber ? -1 : 1;
    }
    if (x.hasNumber && x.number != y.number) {
      return x.number > y.number ? -1 : 1;
    }
    if ((x.text == null) != (y.text == null)) {
      return x.text == null ? -1 : 1;
    }
    if (x.text == null) {
      return 0;
    }
    return Arrays.compare(cx, cy);
  }

  /**
   * The data has nulls in both fields, equal keys, and texts (among the first {@value
   * #DISAGREEMENT_ROWS} rows, the same for every n) that String.compareTo (UTF-16 order) would
   * order differently from code point order within one int64 value.
   */
  private static void checkDataIsDemanding(Row[] input, int[][] codePoints, int[] reference) {
    int ties = 0;
    for (int i = 1; i < reference.length; i++) {
      int a = reference[i - 1];
      int b = reference[i];
      ties += byDefinition(input[a], codePoints[a], input[b], codePoints[b]) == 0 ? 1 : 0;
    }
    int nullNumbers = 0;
    int nullTexts = 0;
    Map<Long, List<Integer>> groups = new HashMap<>();
    for (int i = 0; i < input.length; i++) {
      Row r = input[i];
      nullNumbers += r.hasNumber ? 0 : 1;
      nullTexts += r.text == null ? 1 : 0;
      if (r.hasNumber && r.text != null && i < DISAGREEMENT_ROWS) {
        groups.computeIfAbsent(r.number, k -> new ArrayList<>()).add(i);
      }
    }
    int utf16Disagrees = 0;
    for (List<Integer> g : groups.values()) {
      for (int i = 0; i < g.size(); i++) {
        for (int j = i + 1; j < g.size(); j++) {
          int a = g.get(i);
          int b = g.get(j);
          int cp = Arrays.compare(codePoints[a], codePoints[b]);
          int utf16 = input[a].text.compareTo(input[b].text);
          utf16Disagrees += Integer.signum(utf16) != Integer.signum(cp) ? 1 : 0;
        }
      }
    }
    String counts =
        "ties "
            + ties
            + ", null int64 "
            + nullNumbers
            + ", null text "
            + nullTexts
            + ", UTF-16 disagreements "
            + utf16Disagrees;
    assertTrue(ties > reference.length / 200 && nullNumbers > 0 && nullTexts > 0, counts);
    assertTrue(utf16Disagrees > 0, counts);
  }

  private static Integer[] ordinals(int n) {
    Integer[] o = new Integer[n];
    for (int i = 0; i < n; i++) {
      o[i] = i;
    }
    return o;
  }

  /** Input ordinals of the objects of {@code sorted} (a permutation of {@code input}'s). */
  private static <T> int[] ordinalsOf(T[] input, T[] sorted) {
    IdentityHashMap<T, Integer> ordinal = new IdentityHashMap<>();
    for (int i = 0; i < input.length; i++) {
      ordinal.put(input[i], i);
    }
    int[] out = new int[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      out[i] = ordinal.get(sorted[i]);
    }
    return out;
  }
}
