package dev.joule.bench.memory;

import dev.joule.bench.radix.BenchData;
import dev.joule.core.memory.RecordArena;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading the 8-byte big-endian key prefix of 100-byte records (what index building and full-key
 * tie-breaks do), ns per key, from four stores of the same bytes: our arena (JDK direct ByteBuffer,
 * the baseline), a heap byte[] through a big-endian VarHandle, a Netty 4.2 direct ByteBuf, and a
 * Chronicle Bytes native store (native-order read + reverseBytes). {@code order}: records in
 * address order (index build) or in a random permutation (tie-breaks, merge).
 *
 * <pre>
 * java -jar sort-bench/target/benchmarks.jar KeyAccessBenchmark -f 1 -wi 2 -i 3 -w 1s -r 1s
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@OperationsPerInvocation(KeyAccessBenchmark.RECORDS)
// Fixed heap + AlwaysPreTouch keeps first-touch page faults out of the timing. Chronicle on 17+
// needs the --add-opens/--add-exports below (found by trial: fewer fail in its static init), and
// -Dchronicle.analytics.disable=true stops it from sending usage analytics.
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms1g",
      "-Xmx1g",
      "-XX:+AlwaysPreTouch",
      "-da",
      "-XX:MaxDirectMemorySize=1g",
      "-Dchronicle.analytics.disable=true",
      "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED"
    })
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class KeyAccessBenchmark {
  /** 2^18 records of 100 bytes: 26 MB per store, beyond the caches. */
  static final int RECORDS = 1 << 18;

  private static final int RS = 100;
  private static final VarHandle BE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  @Param({"sequential", "random"})
  public String order;

  private int[] offsets;
  private RecordArena arena;
  private ByteBuffer direct;
  private byte[] heap;
  private ByteBuf netty;
  private BytesStore<?, Void> chronicle;

  @Setup(Level.Trial)
  public void setUp() {
    BenchData.requireAssertionsOff();
    SplittableRandom rnd = new SplittableRandom(42);
    heap = new byte[RECORDS * RS];
    for (int i = 0; i < heap.length; i++) {
      heap[i] = (byte) rnd.nextInt(256);
    }
    offsets = new int[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      offsets[i] = i * RS;
    }
    if ("random".equals(order)) {
      for (int i = RECORDS - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = offsets[i];
        offsets[i] = offsets[j];
        offsets[j] = t;
      }
    }
    arena = RecordArena.allocate(heap.length);
    arena.writableWindow(0, 0, heap.length).put(heap);
    arena.setFilled(0, heap.length);
    direct = arena.view().slab(0);
    netty = Unpooled.directBuffer(heap.length);
    netty.writeBytes(heap);
    chronicle = BytesStore.nativeStoreWithFixedCapacity(heap.length);
    for (int i = 0; i < heap.length; i++) {
      chronicle.writeByte(i, heap[i]);
    }
    long want = Long.reverseBytes(chronicle.readLong(offsets[7]));
    if (want != direct.getLong(offsets[7])
        || want != netty.getLong(offsets[7])
        || want != (long) BE_LONG.get(heap, offsets[7])) {
      throw new IllegalStateException("stores disagree");
    }
  }

  @Benchmark
  public long arenaDirectByteBuffer() {
    ByteBuffer b = direct;
    int[] off = offsets;
    long sum = 0;
    for (int o : off) {
      sum += b.getLong(o);
    }
    return sum;
  }

  @Benchmark
  public long heapVarHandle() {
    byte[] a = heap;
    int[] off = offsets;
    long sum = 0;
    for (int o : off) {
      sum += (long) BE_LONG.get(a, o);
    }
    return sum;
  }

  @Benchmark
  public long nettyDirectByteBuf() {
    ByteBuf b = netty;
    int[] off = offsets;
    long sum = 0;
    for (int o : off) {
      sum += b.getLong(o);
    }
    return sum;
  }

  @Benchmark
  public long chronicleNativeStore() {
    BytesStore<?, Void> b = chronicle;
    int[] off = offsets;
    long sum = 0;
    for (int o : off) {
      sum += Long.reverseBytes(b.readLong(o));
    }
    return sum;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    arena.close();
    netty.release();
    chronicle.releaseLast();
  }
}
