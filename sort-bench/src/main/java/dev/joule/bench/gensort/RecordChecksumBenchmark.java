package dev.joule.bench.gensort;

import dev.joule.bench.radix.BenchData;
import dev.joule.core.valsort.RecordChecksum;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The valsort checksum of one record at a time ({@link RecordChecksum#addRecord(ByteBuffer, int,
 * int)}), ns per record: what the sort's self-validation pays per text line on input and in the
 * output validator. {@code buffer}: the read-only direct views the merge reads run blocks through,
 * plain direct buffers (arenas) or heap buffers (parsed input). Records lie one after another in 4
 * MiB, as in a block; {@code length} 7 is a line of the duplicates race, 101 a gensort line.
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar RecordChecksumBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@OperationsPerInvocation(RecordChecksumBenchmark.RECORDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-da"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RecordChecksumBenchmark {
  /** Records per invocation: the first 2^15 of the buffer, a block's worth of short lines. */
  static final int RECORDS = 1 << 15;

  private static final int BYTES = 4 << 20;

  @Param({"readOnlyDirect", "direct", "heap"})
  public String buffer;

  @Param({"5", "7", "16", "32", "101"})
  public int length;

  private ByteBuffer records;
  private final RecordChecksum sum = new RecordChecksum();

  @Setup(Level.Trial)
  public void setUp() {
    BenchData.requireAssertionsOff();
    byte[] bytes = new byte[BYTES];
    new SplittableRandom(42).nextBytes(bytes);
    ByteBuffer b =
        "heap".equals(buffer) ? ByteBuffer.allocate(BYTES) : ByteBuffer.allocateDirect(BYTES);
    b.put(0, bytes);
    records = "readOnlyDirect".equals(buffer) ? b.asReadOnlyBuffer() : b;
    if (RECORDS * length > BYTES) {
      throw new IllegalStateException("records do not fit the buffer");
    }
  }

  @Benchmark
  public long addRecord() {
    ByteBuffer b = records;
    int n = length;
    for (int r = 0, at = 0; r < RECORDS; r++, at += n) {
      sum.addRecord(b, at, n);
    }
    return sum.lo();
  }
}
