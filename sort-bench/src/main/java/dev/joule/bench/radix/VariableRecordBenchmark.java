package dev.joule.bench.radix;

import dev.joule.core.index.EntryLayout;
import dev.joule.core.radix.RadixRunSorter;
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
 * Sorting 10^6 variable-length records by a fixed-length 16-byte key, the engine's way against a
 * comparator sort of Java objects (issue "variable-length records and typed keys": goal ≥ 4× the
 * comparator sort on one thread).
 *
 * <p><b>Data</b> (seeded, not timed): record lengths uniform in [{@value #MIN_LENGTH}, {@value
 * #MAX_LENGTH}] bytes, random bytes. The key is the record's first {@value #KEY_BYTES} bytes,
 * zero-padded for the ~3 % of records shorter than that (a fixed-width key column). One record in
 * {@value #REPEAT_ONE_IN} copies the key bytes of a random earlier record, so that equal keys occur
 * and stability is part of the job (random bytes alone would never tie).
 *
 * <p><b>Engine</b> ({@code radix}): DERIVED entries with a fixed 16-byte key, {@code | u32 record
 * length | key | record |} ({@code EntryLayout.derived(0, 16)}), in a 64 MiB-slab arena, indexed in
 * input order; {@link RadixRunSorter} with {@code threads} workers sorts the index (key bytes 0..9
 * come from the index words, 10..15 from the arena; ties by address, i.e. input order). <b>Baseline
 * </b> ({@code comparator}): the same records as {@code byte[]} objects, allocated in input order,
 * sorted by {@link Arrays#sort(Object[], Comparator)} (TimSort, stable) with {@link #KEY_ORDER},
 * which compares the same 16 padded key bytes with {@link Arrays#compareUnsigned}. {@code
 * VariableAndTypedKeyOrderTest} checks that both give the same order as a reference written from
 * the definition.
 *
 * <p><b>What is timed</b>: the sort only. Building the entries (copying each key in front of its
 * record) and the objects is setup. Every invocation sorts unsorted input: {@code
 * Setup(Level.Invocation)} restores the index (16 MB) or the array of references (4–8 MB) from a
 * pristine copy, outside the timer. Mode {@code AverageTime}: with per-invocation setup JMH times
 * each call on its own, and a call takes tens to hundreds of milliseconds, so the two timestamps
 * per call cost nothing measurable; one-second iterations average one to a few dozen calls ({@code
 * SingleShotTime} would time one call per iteration and need more iterations for the same
 * confidence). The copy leaves the index or array partly in cache for both sides alike.
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar VariableRecordBenchmark -f 1 -wi 2 -i 5 -w 1s -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Fixed heap + AlwaysPreTouch as in RadixRunSorterBenchmark: first-touched pages cost 3-7 µs each
// on
// these VMs and would otherwise land in the first iterations. -da: see Data.setUp.
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
public class VariableRecordBenchmark {
  /** Bytes of the sort key: the record's first bytes, zero-padded. */
  static final int KEY_BYTES = 16;

  /** Shortest record. */
  static final int MIN_LENGTH = 10;

  /** Longest record. */
  static final int MAX_LENGTH = 200;

  /** One record in this many repeats the key of a random earlier record. */
  static final int REPEAT_ONE_IN = 64;

  /** Seed of the benchmark's records. */
  static final long SEED = 42;

  /** The engine's entries: variable records, a stored 16-byte key. */
  static final EntryLayout LAYOUT = EntryLayout.derived(0, KEY_BYTES);

  /**
   * The baseline's order: the first {@value #KEY_BYTES} bytes of each record, zero-padded, as
   * unsigned bytes. Not a total order on records: equal keys are left to the sort's stability.
   */
  static final Comparator<byte[]> KEY_ORDER = VariableRecordBenchmark::compareKeys;

  /** The records, generated once per trial and shared by both sides. */
  @State(Scope.Benchmark)
  public static class Data {
    /** Number of records. */
    @Param({"1000000"})
    public int records;

    byte[][] input;

    /** Refuses assertions (they change what is measured), then generates the records. */
    @Setup(Level.Trial)
    public void setUp() {
      BenchData.requireAssertionsOff();
      input = records(records, SEED);
    }
  }

  /** The engine: entries in an arena, the index radix-sorted. */
  @State(Scope.Benchmark)
  public static class Engine extends EntrySortState {
    /** Radix sorter workers. */
    @Param({"1", "2"})
    public int threads;

    /** Writes the entries and the pristine index. */
    @Setup(Level.Trial)
    public void setUp(Data data) {
      load(data.input);
    }

    void load(byte[][] input) {
      byte[][] keys = new byte[input.length][];
      for (int i = 0; i < input.length; i++) {
        keys[i] = key(input[i]);
      }
      load(LAYOUT, keys, input, threads);
    }
  }

  /** The baseline: the records as {@code byte[]} objects. */
  @State(Scope.Benchmark)
  public static class Baseline {
    byte[][] input;
    byte[][] work;

    /** Shares the generated records. */
    @Setup(Level.Trial)
    public void setUp(Data data) {
      load(data.input);
    }

    void load(byte[][] records) {
      input = records;
      work = new byte[records.length][];
    }

    /** Unsorted input for the next call, outside the timer. */
    @Setup(Level.Invocation)
    public void restore() {
      System.arraycopy(input, 0, work, 0, input.length);
    }

    void sort() {
      Arrays.sort(work, KEY_ORDER);
    }
  }

  /** The engine's sort of the index. */
  @Benchmark
  public long radix(Engine engine) {
    engine.sort();
    return engine.work.ref(engine.work.size() / 2);
  }

  /** The baseline's comparator sort of the objects. */
  @Benchmark
  public int comparator(Baseline baseline) {
    baseline.sort();
    return baseline.work[baseline.work.length / 2].length;
  }

  /** {@code n} records as described in the class comment; a pure function of its arguments. */
  static byte[][] records(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      byte[] rec = new byte[r.nextInt(MIN_LENGTH, MAX_LENGTH + 1)];
      r.nextBytes(rec);
      if (i > 0 && r.nextInt(REPEAT_ONE_IN) == 0) {
        // Same padded key unless this record is shorter than the earlier one's key bytes.
        byte[] earlier = out[r.nextInt(i)];
        int k = Math.min(Math.min(KEY_BYTES, earlier.length), rec.length);
        System.arraycopy(earlier, 0, rec, 0, k);
        Arrays.fill(rec, k, Math.min(KEY_BYTES, rec.length), (byte) 0);
      }
      out[i] = rec;
    }
    return out;
  }

  /** The stored key of a record: its first {@value #KEY_BYTES} bytes, zero-padded. */
  static byte[] key(byte[] record) {
    return Arrays.copyOf(record, KEY_BYTES);
  }

  /**
   * {@link #KEY_ORDER}: compares the common part of the two keys in place; where one record is
   * shorter than the key, its padding zeros are compared with the other's bytes.
   */
  static int compareKeys(byte[] a, byte[] b) {
    int la = Math.min(KEY_BYTES, a.length);
    int lb = Math.min(KEY_BYTES, b.length);
    int n = Math.min(la, lb);
    int c = Arrays.compareUnsigned(a, 0, n, b, 0, n);
    if (c != 0 || la == lb) {
      return c;
    }
    byte[] longer = la > lb ? a : b;
    for (int i = n; i < Math.max(la, lb); i++) {
      if (longer[i] != 0) {
        return la > lb ? 1 : -1; // the shorter one has a padding zero here
      }
    }
    return 0;
  }
}
