package dev.joule.bench.gensort;

import dev.joule.core.gensort.GensortGenerator;
import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.RecordLayout;
import dev.joule.core.gensort.Uint128;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Records per second of one thread of {@link GensortGenerator}, into a reused direct buffer.
 *
 * <p>Run: {@code java -jar sort-bench/target/benchmarks.jar Gensort -f 1 -wi 2 -i 3 -w 2s -r 2s}.
 * One operation is one record. {@code checksumOnly} is the baseline: the CRC-32 sum that {@code
 * gensort -c} adds on top of generation, over the same bytes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// fixed heap; the data is off-heap. AlwaysPreTouch: no first-touch page faults in the timings.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms256m", "-Xmx256m", "-XX:+AlwaysPreTouch", "-da"})
public class GensortBenchmark {
  private static final int RECORDS = 10_000; // 1 MB per invocation: stays in L2/L3-sized chunks

  @Param({"binary", "ascii", "skew"})
  public String mode;

  private GensortGenerator generator;
  private ByteBuffer buf;
  private RecordChecksum sum;

  @Setup
  public void setup() {
    assert false : "disable assertions to run the benchmark";
    GensortMode m =
        switch (mode) {
          case "binary" -> GensortMode.BINARY;
          case "ascii" -> GensortMode.ASCII;
          case "skew" -> new GensortMode(RecordLayout.BINARY, true);
          default -> throw new IllegalArgumentException(mode);
        };
    generator = new GensortGenerator(m).seek(Uint128.ofUnsigned(1_000_000_000L));
    buf = ByteBuffer.allocateDirect(RECORDS * GensortGenerator.RECORD_SIZE);
    sum = new RecordChecksum();
    buf.clear();
    generator.generate(buf, RECORDS);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long generate() {
    buf.clear();
    generator.generate(buf, RECORDS);
    return buf.getLong(0);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long generateWithChecksum() {
    buf.clear();
    generator.generate(buf, RECORDS);
    sum.addRecords(buf, 0, RECORDS, GensortGenerator.RECORD_SIZE);
    return sum.lo();
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long checksumOnly() {
    sum.addRecords(buf, 0, RECORDS, GensortGenerator.RECORD_SIZE);
    return sum.lo();
  }
}
