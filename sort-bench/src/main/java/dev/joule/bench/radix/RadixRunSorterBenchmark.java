package dev.joule.bench.radix;

import dev.joule.core.index.RecordIndex;
import dev.joule.core.memory.RecordArena;
import dev.joule.core.radix.RadixRunSorter;
import dev.joule.core.radix.RunSorter;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.testing.KeyShape;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sorting the index of an already-filled arena of 100-byte gensort records (10-byte keys), radix
 * against the JDK baseline. Each invocation restores the index from a pristine copy in
 * {@code @Setup(Level.Invocation)}; acceptable because one invocation sorts 1e5..1e6 records
 * (milliseconds), so the per-invocation timer overhead is negligible.
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar RadixRunSorterBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * java -jar sort-bench/target/benchmarks.jar RadixRunSorterBenchmark -p impl=radix -p threads=1 \
 *     -p smallBucket=8,16,32,64 -f 1 -wi 2 -i 3 -w 1s -r 1s     # justifies the insertion threshold
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
// Fixed heap + AlwaysPreTouch: these VMs charge 3-7 µs per first-touched page, which would
// otherwise land in the first iterations (and GC heap resizing in later ones). -da: see setup.
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
@Measurement(iterations = 3, time = 1)
public class RadixRunSorterBenchmark {
  @Param({"radix", "jdk"})
  public String impl;

  @Param({"1", "2"})
  public int threads;

  @Param({"1000000"})
  public int records;

  /**
   * {@code gensort} / {@code gensort-skew}: real gensort 1.5 records 0..n-1 (without / with -s);
   * {@code uniform} / {@code skew}: seeded {@link KeyShape} look-alikes (the skew one is a 2-byte
   * prefix mimic that is easier than real -s data; see sort-bench/results/radix.md).
   */
  @Param({"gensort", "gensort-skew"})
  public String shape;

  /** Insertion-sort threshold of the radix variant. */
  @Param({"" + RadixRunSorter.DEFAULT_INSERTION_THRESHOLD})
  public int smallBucket;

  private RecordArena arena;
  private RecordIndex pristine;
  private RecordIndex work;
  private RunSorter sorter;

  @Setup(Level.Trial)
  public void setUp() {
    BenchData.requireAssertionsOff();
    FixedLengthFormat format = RecordFormat.gensort();
    arena =
        switch (shape) {
          case "gensort" -> BenchData.realGensortArena(records, false);
          case "gensort-skew" -> BenchData.realGensortArena(records, true);
          case "uniform" -> BenchData.gensortArena(KeyShape.UNIFORM, records, format, 42);
          case "skew" -> BenchData.gensortArena(KeyShape.SKEW, records, format, 42);
          default -> throw new IllegalArgumentException("shape " + shape);
        };
    pristine = RecordIndex.forArena(arena, format);
    pristine.build(arena.view(), format);
    work = RecordIndex.allocate(pristine.size());
    sorter = "jdk".equals(impl) ? RunSorter.jdk() : new RadixRunSorter(threads, smallBucket);
  }

  @Setup(Level.Invocation)
  public void restore() {
    work.copyFrom(pristine);
  }

  @Benchmark
  public long sort() {
    sorter.sort(work);
    return work.prefix(records / 2);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    sorter.close();
    arena.close();
  }
}
