package dev.joule.bench.radix;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.key.KeyEncoder;
import dev.joule.core.radix.RadixRunSorter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sorting 10^6 key/value pairs by a typed two-field key, (int64 descending, nulls last; utf8
 * ascending, nulls first), the engine's way (keys normalized by {@link KeyEncoder}, radix-sorted)
 * against a comparator sort of Java objects (issue "variable-length records and typed keys": goal ≥
 * 4× the comparator sort on one thread).
 *
 * <p><b>Data</b> (seeded, not timed): the int64 takes {@value #DISTINCT_NUMBERS} values around zero
 * (both signs), so about a thousand rows share each and the text field decides within them; the
 * text is 0..{@value #MAX_CHARS} characters, lower-case ASCII with one in {@value
 * #NON_ASCII_ONE_IN} taken from {@link #NON_ASCII} (2-, 3- and 4-byte UTF-8, including U+FF21 and
 * U+1F600, whose UTF-16 order is the reverse of their code point order). One field in {@value
 * #NULL_ONE_IN} is null; one row in {@value #REPEAT_ONE_IN} repeats the key of a random earlier row
 * (ties: stability is part of the job). Values are {@value #MIN_VALUE}..{@value #MAX_VALUE} random
 * bytes.
 *
 * <p><b>Engine</b> ({@code radix}): each key encoded once by {@link #ENCODER} (variable length:
 * marker, 8 inverted int64 bytes, marker, UTF-8 bytes as the open last field), stored as a DERIVED
 * entry {@code | u32 value length | u32 key length | key | value |} ({@code EntryLayout.derived(0,
 * 0)}), indexed in input order and sorted by {@link RadixRunSorter} with {@code threads} workers.
 * The index words hold key bytes 0..9, i.e. both markers and the int64, so the text bytes are read
 * from the arena: once per entry, when the sorter reloads a bucket's words with the next key bytes.
 * <b>Baseline</b> ({@code comparator}): {@link Row} objects allocated in input order, sorted by
 * {@link Arrays#sort(Object[], Comparator)} (TimSort, stable) with a comparator written from the
 * definition: {@code text=string} compares the {@code String}s by code point ({@link
 * #compareCodePoints}; {@code String.compareTo} compares UTF-16 units, a different order above
 * U+FFFF), {@code text=utf8} compares UTF-8 bytes each row holds, with {@link
 * Arrays#compareUnsigned} (the row form of engines that keep strings as UTF-8). {@code
 * VariableAndTypedKeyOrderTest} checks that all three give the order of a reference written from
 * the definition.
 *
 * <p><b>What is timed</b>: the sort only; encoding keys, writing entries and building rows is
 * setup. Mode and per-invocation restore as in {@link VariableRecordBenchmark}: {@code AverageTime}
 * with {@code Setup(Level.Invocation)}, every call sorting unsorted input.
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar TypedKeyBenchmark -f 1 -wi 2 -i 5 -w 1s -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Fixed heap + AlwaysPreTouch as in RadixRunSorterBenchmark. -da: see Data.setUp.
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms2g",
      "-Xmx2g",
      "-XX:+AlwaysPreTouch",
      "-da",
      "-XX:MaxDirectMemorySize=1g"
    })
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class TypedKeyBenchmark {
  /** Distinct int64 values, {@code -DISTINCT_NUMBERS / 2 .. DISTINCT_NUMBERS / 2 - 1}. */
  static final int DISTINCT_NUMBERS = 1024;

  /** Longest text, in characters (code points). */
  static final int MAX_CHARS = 16;

  /** One character in this many is taken from {@link #NON_ASCII}. */
  static final int NON_ASCII_ONE_IN = 16;

  /**
   * U+00E9, U+00DF, U+03A9 (2-byte UTF-8), U+4E2D, U+FF21 (3-byte), U+1F600 (4-byte, two chars).
   */
  static final int[] NON_ASCII = {0xE9, 0xDF, 0x3A9, 0x4E2D, 0xFF21, 0x1F600};

  /** One field value in this many is null. */
  static final int NULL_ONE_IN = 100;

  /** One row in this many repeats the key of a random earlier row. */
  static final int REPEAT_ONE_IN = 64;

  /** Shortest value. */
  static final int MIN_VALUE = 20;

  /** Longest value. */
  static final int MAX_VALUE = 100;

  /** Seed of the benchmark's rows. */
  static final long SEED = 42;

  /** The key's schema. */
  static final KeyEncoder ENCODER =
      KeyEncoder.builder()
          .field(KeyEncoder.Type.INT64, true, KeyEncoder.Nulls.LAST)
          .field(KeyEncoder.Type.UTF8, false, KeyEncoder.Nulls.FIRST)
          .build();

  /** The engine's entries: variable values, stored variable-length keys. */
  static final EntryLayout LAYOUT = EntryLayout.derived(0, 0);

  /** Baseline order on the text as {@code String}s. */
  static final Comparator<Row> BY_STRING =
      (x, y) -> {
        int c = compareNumbers(x, y);
        if (c != 0) {
          return c;
        }
        if (x.text == null || y.text == null) {
          return Boolean.compare(x.text != null, y.text != null); // nulls first
        }
        return compareCodePoints(x.text, y.text);
      };

  /** Baseline order on the text as UTF-8 bytes. */
  static final Comparator<Row> BY_UTF8 =
      (x, y) -> {
        int c = compareNumbers(x, y);
        if (c != 0) {
          return c;
        }
        if (x.utf8 == null || y.utf8 == null) {
          return Boolean.compare(x.utf8 != null, y.utf8 != null); // nulls first
        }
        return Arrays.compareUnsigned(x.utf8, y.utf8);
      };

  /** A row as a Java program holds it: nullable int64, nullable text (both forms), a value. */
  static final class Row {
    final boolean hasNumber;
    final long number; // 0 when null
    final String text; // null when null
    final byte[] utf8; // text's UTF-8 bytes, null when null
    final byte[] value;

    Row(boolean hasNumber, long number, String text, byte[] value) {
      this.hasNumber = hasNumber;
      this.number = number;
      this.text = text;
      this.utf8 = text == null ? null : text.getBytes(StandardCharsets.UTF_8);
      this.value = value;
    }
  }

  /** The rows, generated once per trial and shared by both sides. */
  @State(Scope.Benchmark)
  public static class Data {
    /** Number of rows. */
    @Param({"1000000"})
    public int records;

    Row[] input;

    /** Refuses assertions (they change what is measured), then generates the rows. */
    @Setup(Level.Trial)
    public void setUp() {
      BenchData.requireAssertionsOff();
      input = rows(records, SEED);
    }
  }

  /** The engine: encoded keys and values as entries in an arena, the index radix-sorted. */
  @State(Scope.Benchmark)
  public static class Engine extends EntrySortState {
    /** Radix sorter workers. */
    @Param({"1", "2"})
    public int threads;

    /** Encodes the keys, writes the entries and the pristine index. */
    @Setup(Level.Trial)
    public void setUp(Data data) {
      load(data.input);
    }

    void load(Row[] input) {
      KeyEncoder.Writer w = ENCODER.newWriter();
      byte[][] keys = new byte[input.length][];
      byte[][] values = new byte[input.length][];
      for (int i = 0; i < input.length; i++) {
        keys[i] = key(w, input[i]);
        values[i] = input[i].value;
      }
      load(LAYOUT, keys, values, threads);
    }
  }

  /** The baseline: {@link Row} objects and a comparator. */
  @State(Scope.Benchmark)
  public static class Baseline {
    /** {@code string}: {@link #BY_STRING}; {@code utf8}: {@link #BY_UTF8}. */
    @Param({"string", "utf8"})
    public String text;

    Row[] input;
    Row[] work;
    Comparator<Row> order;

    /** Shares the generated rows. */
    @Setup(Level.Trial)
    public void setUp(Data data) {
      load(data.input);
    }

    void load(Row[] rows) {
      input = rows;
      work = new Row[rows.length];
      order =
          switch (text) {
            case "string" -> BY_STRING;
            case "utf8" -> BY_UTF8;
            default -> throw new IllegalArgumentException("text " + text);
          };
    }

    /** Unsorted input for the next call, outside the timer. */
    @Setup(Level.Invocation)
    public void restore() {
      System.arraycopy(input, 0, work, 0, input.length);
    }

    void sort() {
      Arrays.sort(work, order);
    }
  }

  /** The engine's sort of the index. */
  @Benchmark
  public long radix(Engine engine) {
    engine.sort();
    return engine.work.ref(engine.work.size() / 2);
  }

  /** The baseline's comparator sort of the rows. */
  @Benchmark
  public int comparator(Baseline baseline) {
    baseline.sort();
    return baseline.work[baseline.work.length / 2].value.length;
  }

  /** {@code n} rows as described in the class comment; a pure function of its arguments. */
  static Row[] rows(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Row[] out = new Row[n];
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      byte[] value = new byte[r.nextInt(MIN_VALUE, MAX_VALUE + 1)];
      r.nextBytes(value);
      if (i > 0 && r.nextInt(REPEAT_ONE_IN) == 0) {
        Row e = out[r.nextInt(i)];
        // A text of its own, as a parsed row would have: no shared String to short-cut on.
        String copy = e.text == null ? null : new String(e.text.toCharArray());
        out[i] = new Row(e.hasNumber, e.number, copy, value);
        continue;
      }
      boolean hasNumber = r.nextInt(NULL_ONE_IN) != 0;
      long number = hasNumber ? r.nextInt(DISTINCT_NUMBERS) - DISTINCT_NUMBERS / 2 : 0;
      String text = null;
      if (r.nextInt(NULL_ONE_IN) != 0) {
        sb.setLength(0);
        for (int c = r.nextInt(MAX_CHARS + 1); c > 0; c--) {
          if (r.nextInt(NON_ASCII_ONE_IN) == 0) {
            sb.appendCodePoint(NON_ASCII[r.nextInt(NON_ASCII.length)]);
          } else {
            sb.append((char) ('a' + r.nextInt(26)));
          }
        }
        text = sb.toString();
      }
      out[i] = new Row(hasNumber, number, text, value);
    }
    return out;
  }

  /** The normalized key of {@code row} ({@link #ENCODER}), written with {@code w}. */
  static byte[] key(KeyEncoder.Writer w, Row row) {
    w.reset();
    if (row.hasNumber) {
      w.int64(row.number);
    } else {
      w.nullValue();
    }
    if (row.text != null) {
      w.utf8(row.text);
    } else {
      w.nullValue();
    }
    return w.toByteArray();
  }

  /** The int64 field's order: descending, nulls last. */
  static int compareNumbers(Row x, Row y) {
    if (x.hasNumber != y.hasNumber) {
      return x.hasNumber ? -1 : 1;
    }
    return x.hasNumber ? Long.compare(y.number, x.number) : 0;
  }

  /**
   * Code point order of two well-formed UTF-16 strings (the order of their UTF-8 bytes), without
   * decoding: at the first differing char, a surrogate (part of a code point above U+FFFF) ranks
   * above U+E000..U+FFFF, which {@code String.compareTo} would put after it.
   */
  static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return codePointRank(x) - codePointRank(y);
      }
    }
    return a.length() - b.length();
  }

  /** Moves surrogates above U+E000..U+FFFF, keeping the order within each group. */
  private static int codePointRank(char c) {
    if (c < Character.MIN_SURROGATE) {
      return c;
    }
    return Character.isSurrogate(c) ? c + 0x2000 : c - 0x800;
  }
}
