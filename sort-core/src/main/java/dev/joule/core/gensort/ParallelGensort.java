package dev.joule.core.gensort;

import dev.joule.core.memory.SuppressForbidden;
import dev.joule.core.valsort.RecordChecksum;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Generates a record range [first, first+count) on several threads, byte-identical for any thread
 * count, and hands the blocks to a {@link BlockSink} together with their offset in the output.
 *
 * <p>Algorithm: the range is cut into fixed blocks of {@value #BLOCK_RECORDS} records; threads
 * claim block numbers from a shared counter and each skip-aheads its own {@link GensortGenerator}
 * to the block's first record, so a block's bytes depend only on its number. The sink receives
 * blocks out of order but with their byte offset (positional writes need no ordering); the
 * per-thread checksums are added at the end (the sum is order-independent).
 *
 * <p>Memory: one direct buffer of {@value #BLOCK_RECORDS}·100 bytes per thread, allocated once per
 * run. Thread-safety: {@link #run} may be called from any thread; threads are named {@code
 * joule-gensort-N}; the sink is called concurrently from all of them.
 */
public final class ParallelGensort {
  /**
   * Records per block: 4 MB, the transfer size found large enough for writes (docs/decisions/D4).
   */
  public static final int BLOCK_RECORDS = 40_000;

  /** Receives generated blocks; called concurrently, must consume the buffer before returning. */
  @FunctionalInterface
  public interface BlockSink {
    /**
     * Takes one block.
     *
     * @param byteOffset offset of the block's first byte from the start of the range's output
     * @param block the records, from position to limit; reused after this call returns
     */
    void accept(long byteOffset, ByteBuffer block) throws IOException;
  }

  private final GensortMode mode;
  private final int threads;

  /**
   * @param mode what to generate
   * @param threads worker threads, at least 1 (1 runs in the calling thread)
   */
  public ParallelGensort(GensortMode mode, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.mode = mode;
    this.threads = threads;
  }

  /**
   * Generates {@code count} records starting at record {@code first} and returns their checksum.
   *
   * @param sink where the blocks go, or {@code null} to only compute the checksum
   * @throws IOException the first exception a sink threw; the other threads stop at their next
   *     block
   */
  public RecordChecksum run(Uint128 first, long count, BlockSink sink)
      throws IOException, InterruptedException {
    if (count < 0) {
      throw new IllegalArgumentException("count < 0: " + count);
    }
    long blocks = (count + BLOCK_RECORDS - 1) / BLOCK_RECORDS;
    int workers = (int) Math.min(threads, Math.max(1, blocks));
    AtomicLong nextBlock = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    RecordChecksum total = new RecordChecksum();
    if (workers == 1) {
      total.add(work(first, count, blocks, nextBlock, failure, sink));
    } else {
      List<Thread> started = new ArrayList<>();
      RecordChecksum[] sums = new RecordChecksum[workers];
      for (int w = 0; w < workers; w++) {
        int id = w;
        Thread t =
            new Thread(
                () -> {
                  try {
                    sums[id] = work(first, count, blocks, nextBlock, failure, sink);
                  } catch (IOException | RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                  }
                },
                "joule-gensort-" + w);
        t.start();
        started.add(t);
      }
      for (Thread t : started) {
        t.join();
      }
      rethrow(failure.get());
      for (RecordChecksum s : sums) {
        total.add(s);
      }
    }
    return total;
  }

  @SuppressForbidden("the generator tool's own block buffer per thread, not a sort's memory")
  private RecordChecksum work(
      Uint128 first,
      long count,
      long blocks,
      AtomicLong nextBlock,
      AtomicReference<Throwable> failure,
      BlockSink sink)
      throws IOException {
    GensortGenerator gen = new GensortGenerator(mode);
    RecordChecksum sum = new RecordChecksum();
    ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK_RECORDS * GensortGenerator.RECORD_SIZE);
    long k;
    while (failure.get() == null && (k = nextBlock.getAndIncrement()) < blocks) {
      long firstInBlock = k * BLOCK_RECORDS;
      int n = (int) Math.min(BLOCK_RECORDS, count - firstInBlock);
      buf.clear();
      gen.seek(first.plus(firstInBlock)).generate(buf, n);
      buf.flip();
      sum.addRecords(buf, 0, n, GensortGenerator.RECORD_SIZE);
      if (sink != null) {
        sink.accept(firstInBlock * GensortGenerator.RECORD_SIZE, buf);
      }
    }
    return sum;
  }

  private static void rethrow(Throwable t) throws IOException {
    if (t == null) {
      return;
    }
    if (t instanceof IOException io) {
      throw io;
    }
    if (t instanceof RuntimeException re) {
      throw re;
    }
    throw (Error) t;
  }
}
