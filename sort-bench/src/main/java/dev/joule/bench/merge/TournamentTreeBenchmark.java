package dev.joule.bench.merge;

import dev.joule.bench.radix.BenchData;
import dev.joule.core.merge.ByteBufferRunCursor;
import dev.joule.core.merge.MergeOrder;
import dev.joule.core.merge.RunCursor;
import dev.joule.core.merge.TournamentTree;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.RecordFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
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
 * k-way merge of about 10^6 gensort-shaped records (100 bytes, 10-byte keys: uniform random, or
 * with {@code keys=fewKeys} drawn from 1000 values, so that runs hold long stretches of equal keys,
 * as in GNU's {@code -n} on a column of few values) from in-memory sorted runs into a 1 MB output
 * block that is reused like an output buffer: the loser tree against a {@link PriorityQueue} of
 * cursors with a comparator (Lucene {@code OfflineSorter}'s shape), both following {@link
 * MergeOrder}. Score is records/s (one operation = one record).
 *
 * <p>Run: {@code java -jar sort-bench/target/benchmarks.jar TournamentTreeBenchmark -f 1 -wi 2 -i 3
 * -w 1s -r 1s}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
// Fixed heap and pre-touched pages: these VMs charge 3-7 us per freshly touched 4 KiB page
// (docs/decisions/D5), which would otherwise land in the first measured iterations.
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-XX:MaxDirectMemorySize=512m"})
public class TournamentTreeBenchmark {
  static final int RECORDS = 1 << 20;
  static final FixedLengthFormat FORMAT = RecordFormat.gensort();
  static final int RECORD_SIZE = FORMAT.recordSize();

  /** One output block of 10,000 records, overwritten cyclically: the merge's copy-out target. */
  static final int OUT_BYTES = 10_000 * RECORD_SIZE;

  @Param({"2", "16", "128"})
  int k;

  @Param({"loserTree", "priorityQueue"})
  String impl;

  @Param({"uniform", "fewKeys"})
  String keys;

  private ByteBuffer[] runs;
  private ByteBuffer out;

  @Setup
  public void setUp() {
    BenchData.requireAssertionsOff();
    SplittableRandom rnd = new SplittableRandom(42);
    // Direct buffers, as the engine's arenas and blocks are (allocated once per trial).
    ByteBuffer all = ByteBuffer.allocateDirect(RECORDS * RECORD_SIZE);
    runs = new ByteBuffer[k];
    byte[] payload = new byte[RECORD_SIZE - 10];
    byte[][] values = new byte[1000][10];
    for (byte[] v : values) {
      for (int b = 0; b < v.length; b++) {
        v[b] = (byte) rnd.nextInt(256);
      }
    }
    if (!keys.equals("uniform") && !keys.equals("fewKeys")) {
      throw new IllegalArgumentException("keys " + keys);
    }
    int start = 0;
    for (int r = 0; r < k; r++) {
      int n = RECORDS / k + (r < RECORDS % k ? 1 : 0);
      byte[][] runKeys = new byte[n][10];
      for (int i = 0; i < n; i++) {
        if (keys.equals("fewKeys")) {
          runKeys[i] = values[rnd.nextInt(values.length)];
          continue;
        }
        for (int b = 0; b < runKeys[i].length; b++) {
          runKeys[i][b] = (byte) rnd.nextInt(256);
        }
      }
      Arrays.sort(runKeys, Arrays::compareUnsigned);
      ByteBuffer run = all.slice(start * RECORD_SIZE, n * RECORD_SIZE);
      for (int i = 0; i < n; i++) {
        for (int b = 0; b < payload.length; b++) {
          payload[b] = (byte) rnd.nextInt(256);
        }
        run.put(runKeys[i]).put(payload);
      }
      run.flip();
      runs[r] = run;
      start += n;
    }
    out = ByteBuffer.allocateDirect(OUT_BYTES);
    if (!impl.equals("loserTree") && !impl.equals("priorityQueue")) {
      throw new IllegalArgumentException("impl " + impl);
    }
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long merge() {
    return impl.equals("loserTree") ? loserTree() : priorityQueue();
  }

  private long loserTree() {
    RunCursor[] cursors = new RunCursor[k];
    for (int i = 0; i < k; i++) {
      cursors[i] = new ByteBufferRunCursor(runs[i], FORMAT);
    }
    TournamentTree tree = new TournamentTree(cursors);
    ByteBuffer out = this.out;
    int at = 0;
    long n = 0;
    while (tree.next()) {
      RunCursor c = tree.current();
      if (at == OUT_BYTES) {
        at = 0;
      }
      out.put(at, c.buffer(), c.position(), RECORD_SIZE);
      at += RECORD_SIZE;
      n++;
    }
    return check(n);
  }

  /** Per-run head holding the cached prefix; allocated once per run, not per record. */
  private static final class Head {
    final RunCursor cursor;
    final int run;
    long prefix;

    Head(RunCursor cursor, int run) {
      this.cursor = cursor;
      this.run = run;
    }
  }

  private static final Comparator<Head> HEAD_ORDER =
      (a, b) -> {
        int c = Long.compareUnsigned(a.prefix, b.prefix);
        if (c == 0) {
          RunCursor x = a.cursor;
          RunCursor y = b.cursor;
          c =
              MergeOrder.compareKeys(
                  x.buffer(), x.keyPosition(), y.buffer(), y.keyPosition(), x.keyLength());
          if (c == 0) {
            c = Integer.compare(a.run, b.run);
          }
        }
        return c;
      };

  private long priorityQueue() {
    PriorityQueue<Head> queue = new PriorityQueue<>(k, HEAD_ORDER);
    for (int i = 0; i < k; i++) {
      Head h = new Head(new ByteBufferRunCursor(runs[i], FORMAT), i);
      if (h.cursor.advance()) {
        h.prefix = h.cursor.prefix();
        queue.add(h);
      }
    }
    ByteBuffer out = this.out;
    int at = 0;
    long n = 0;
    Head h;
    while ((h = queue.poll()) != null) {
      RunCursor c = h.cursor;
      if (at == OUT_BYTES) {
        at = 0;
      }
      out.put(at, c.buffer(), c.position(), RECORD_SIZE);
      at += RECORD_SIZE;
      n++;
      if (c.advance()) {
        h.prefix = c.prefix();
        queue.add(h);
      }
    }
    return check(n);
  }

  private long check(long n) {
    if (n != RECORDS) {
      throw new IllegalStateException("merged " + n + " of " + RECORDS + " records");
    }
    return n ^ out.getLong(0);
  }
}
