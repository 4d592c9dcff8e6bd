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
 * Gathering 1e6 sorted 100-byte records (100 MB, random arena order) into a 4 MiB-aligned direct
 * destination, against the baseline: one sequential {@code ByteBuffer.put} of the same 100 MB. GB/s
 * = 0.1 / (ms per op) * 1000. Per-4 MiB-buffer gathering ({@code chunked}) is how a writer calls
 * it.
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar RecordGathererBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
// Fixed heap + AlwaysPreTouch: first-touch page faults (3-7 µs/page here) stay out of the timing.
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms1g",
      "-Xmx1g",
      "-XX:+AlwaysPreTouch",
      "-da",
      "-XX:MaxDirectMemorySize=1g"
    })
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RecordGathererBenchmark {
  private static final int CHUNK = 4 << 20;

  @Param({"1", "2"})
  public int threads;

  @Param({"1000000"})
  public int records;

  private RecordArena arena;
  private RecordArena destination;
  private RecordIndex index;
  private RadixRunSorter sorter;
  private RecordGatherer gatherer;
  private ByteBuffer dst;

  @Setup(Level.Trial)
  public void setUp() {
    BenchData.requireAssertionsOff();
    FixedLengthFormat format = RecordFormat.gensort();
    arena = BenchData.gensortArena(KeyShape.UNIFORM, records, format, 42);
    index = RecordIndex.forArena(arena, format);
    index.build(arena.view(), format);
    sorter = new RadixRunSorter(threads);
    sorter.sort(index);
    gatherer = new RecordGatherer(threads == 1 ? null : sorter.pool());
    destination = RecordArena.allocate((long) records * 100);
    dst = destination.writableWindow(0, 0, records * 100);
  }

  @Benchmark
  public int gather() {
    dst.clear();
    gatherer.gather(index, 0, records, dst);
    return dst.position();
  }

  @Benchmark
  public int gatherChunked() {
    dst.clear();
    int next = 0;
    while (next < records) {
      ByteBuffer chunk = dst.slice(dst.position(), Math.min(CHUNK, dst.remaining()));
      int k = RecordGatherer.recordsThatFit(index, next, records, chunk);
      gatherer.gather(index, next, next + k, chunk);
      dst.position(dst.position() + chunk.position());
      next += k;
    }
    return dst.position();
  }

  /** Baseline: sequential bulk copy of the same number of bytes, in arena order. */
  @Benchmark
  public int baselineSequentialPut() {
    dst.clear();
    int left = records * 100;
    for (int s = 0; left > 0; s++) {
      ByteBuffer slab = arena.view().slab(s);
      int n = Math.min(left, slab.capacity() / 100 * 100);
      dst.put(slab.duplicate().limit(n));
      left -= n;
    }
    return dst.position();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    sorter.close();
    arena.close();
    destination.close();
  }
}
