package dev.joule.bench.io;

import dev.joule.bench.radix.BenchData;
import dev.joule.core.memory.SuppressForbidden;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockReader;
import dev.joule.io.block.BlockWriter;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * Sequential read or write of one file through the block layer, timed end to end (open to close,
 * including the final fsync of a write), for comparison with {@code dd} at the same transfer size
 * in {@code io-bench.sh}. Not a JMH benchmark: one 2 GB transfer is long enough that JIT warm-up
 * does not matter, and the page cache must be dropped between runs from outside.
 *
 * <pre>
 * java -cp benchmarks.jar dev.joule.bench.io.BlockIoThroughput write|read FILE BYTES TRANSFER_BYTES on|off [IN_FLIGHT]
 * </pre>
 *
 * Prints one line: {@code joule <op> <transfer> <direct|buffered> <bytes> <seconds> <MB/s>
 * <cpu-s/GB>} (MB = 10^6 bytes, as dd; CPU = user + system time of the whole process during the
 * transfer).
 */
public final class BlockIoThroughput {
  /**
   * Buffers queued to the I/O thread: two keep the device busy while the caller turns one around.
   */
  private static final int DEFAULT_IN_FLIGHT = 2;

  private BlockIoThroughput() {}

  public static void main(String[] args) throws Exception {
    BenchData.requireAssertionsOff();
    String op = args[0];
    Path file = Path.of(args[1]);
    long bytes = Long.parseLong(args[2]);
    int transfer = Integer.parseInt(args[3]);
    DirectIoPolicy policy = args[4].equals("on") ? DirectIoPolicy.ON : DirectIoPolicy.OFF;
    int inFlight = args.length > 5 ? Integer.parseInt(args[5]) : DEFAULT_IN_FLIGHT;
    if (op.equals("write")) {
      Files.deleteIfExists(
          file); // outside the timed region: freeing an old file's blocks is not writing
    }
    try (BlockPool pool = new BlockPool(inFlight + 1, transfer)) {
      long cpu0 = processCpuNanos();
      long t0 = System.nanoTime();
      long done =
          op.equals("write")
              ? write(file, bytes, policy, pool, inFlight)
              : read(file, policy, pool, inFlight);
      double s = (System.nanoTime() - t0) / 1e9;
      double cpu = (processCpuNanos() - cpu0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "joule %s %d %s %d %.3f %.1f %.3f%n",
          op,
          transfer,
          policy == DirectIoPolicy.ON ? "direct" : "buffered",
          done,
          s,
          done / s / 1e6,
          cpu / (done / 1e9));
    }
  }

  private static long write(
      Path file, long bytes, DirectIoPolicy policy, BlockPool pool, int inFlight)
      throws IOException {
    try (BlockFile f = BlockFile.createNew(file, policy, NoticeSink.IGNORE);
        BlockWriter w = new BlockWriter(f, pool, inFlight)) {
      int transfer = pool.bufferSize();
      long n = 0;
      while (n < bytes) {
        int len = (int) Math.min(transfer, bytes - n);
        ByteBuffer b = w.reserve(len); // filled in place, like a gather from the arena
        b.putLong(0, n); // non-zero content; the rest is whatever the pool buffer holds
        n += len;
      }
      return w.finish(true);
    }
  }

  private static long read(Path file, DirectIoPolicy policy, BlockPool pool, int inFlight)
      throws IOException, InterruptedException {
    long total = 0;
    try (BlockFile f = BlockFile.openRead(file, policy, NoticeSink.IGNORE);
        BlockReader r = new BlockReader(f, 0, f.size(), pool.bufferSize(), inFlight)) {
      ArrayDeque<ByteBuffer> mine = new ArrayDeque<>();
      for (int i = 0; i < inFlight; i++) {
        r.submit(pool.acquire());
      }
      int outstanding = inFlight;
      while (outstanding > 0) {
        ByteBuffer b = r.take();
        outstanding--;
        total += b.remaining();
        if (b.remaining() == b.capacity()) {
          r.submit(b.clear());
          outstanding++;
        } else {
          mine.add(b);
        }
      }
      for (ByteBuffer b : mine) {
        pool.release(b);
      }
    }
    return total;
  }

  @SuppressForbidden("process CPU time has no portable API; the benchmark reports it")
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
