package dev.joule.io.prefetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.FileParts;
import dev.joule.io.block.SortThreads;
import dev.joule.io.block.StripeMap;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.run.RunDescriptor;
import dev.joule.io.run.RunReader;
import dev.joule.io.run.RunWriter;
import dev.joule.testing.TestSeed;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prefetch overlaps reads with the merge, one queue per device: runs block-striped over 4 devices,
 * each device answering a read only after {@link #READ_MS}, and a consumer that takes the blocks in
 * the schedule's order and spends {@link #MERGE_MS} on each (the merge's work). One device alone
 * delivers a block per READ_MS, slower than the consumer; four devices in parallel deliver four.
 * Counts the takes that had to wait for a read (or read the block themselves): few with a queue per
 * device; most when prefetch is off or all blocks share one queue. Sleeps stand in for slow
 * devices; the assertion counts waits, with a factor of 2 or more between the cases.
 */
class DevicePrefetchTest {
  private static final long SEED = TestSeed.of(DevicePrefetchTest.class, 0x5EED_0D15L);
  private static final int BLOCK = 4096;
  private static final int DEVICES = 4;
  private static final int RUNS = 4;
  private static final long READ_MS = 24;
  private static final long MERGE_MS = 10;

  @TempDir Path dir;
  private RunDescriptor[] runs;

  @BeforeEach
  void writeStripedRuns() throws Exception {
    Random rnd = new Random(SEED);
    List<Path> devices = new ArrayList<>();
    for (int i = 0; i < DEVICES; i++) {
      devices.add(Files.createDirectory(dir.resolve("d" + i)));
    }
    EntryLayout layout = EntryLayout.of(BlockPrefetcherTest.F);
    runs = new RunDescriptor[RUNS];
    try (BlockPool pool = new BlockPool(DEVICES + 1, BLOCK)) {
      for (int r = 0; r < RUNS; r++) {
        byte[][] recs = new byte[4000 + rnd.nextInt(200)][16];
        for (byte[] rec : recs) {
          rnd.nextBytes(rec);
        }
        Arrays.sort(recs, (a, b) -> Arrays.compareUnsigned(a, 0, 8, b, 0, 8));
        List<Path> paths = new ArrayList<>();
        int[] stripes = new int[DEVICES];
        int[] pattern = new int[DEVICES];
        for (int i = 0; i < DEVICES; i++) {
          stripes[i] = (r + i) % DEVICES;
          pattern[i] = i;
          paths.add(devices.get(stripes[i]).resolve("run" + r));
        }
        FileParts parts = FileParts.striped(paths, stripes, new StripeMap(4096, BLOCK, pattern));
        try (BlockFile f =
            BlockFile.createNew(parts, DirectIoPolicy.AUTO, NoticeSink.IGNORE, p -> {})) {
          RunWriter w = new RunWriter(f, layout, BLOCK, pool, DEVICES, SortThreads.JOULE);
          for (byte[] rec : recs) {
            w.add(ByteBuffer.wrap(rec));
          }
          runs[r] = w.finish();
        }
        for (int i = 0; i < DEVICES; i++) {
          assertTrue(Files.size(paths.get(i)) > 4096, "every device holds blocks of run " + r);
        }
      }
    }
  }

  @Test
  void aQueuePerDeviceKeepsTheMergeFromWaiting() throws Exception {
    long[] perDevice = consume(1, true);
    long[] oneQueue = consume(1, false);
    long[] none = consume(0, true);
    String ctx =
        "takes/waits/self-reads/wait-ns: per device "
            + Arrays.toString(perDevice)
            + ", one queue "
            + Arrays.toString(oneQueue)
            + ", no prefetch "
            + Arrays.toString(none)
            + ", seed "
            + SEED;
    System.out.println("DevicePrefetchTest " + ctx);
    assertEquals(none[0], none[2], "without prefetch the merge reads every block itself: " + ctx);
    long blocked = perDevice[1] + perDevice[2];
    assertTrue(blocked * 5 <= perDevice[0], "with a queue per device few takes wait: " + ctx);
    assertTrue(
        (oneQueue[1] + oneQueue[2]) >= 2 * Math.max(blocked, perDevice[0] / 5),
        "one queue for four devices waits far more often: " + ctx);
  }

  /**
   * A device that serves several reads at once (as an SSD's queue does): the merge's prefetcher
   * keeps {@link MergeSource#PREFETCH_THREADS} reads in flight on each, more than one.
   */
  @Test
  void theMergeKeepsSeveralReadsInFlightPerDevice() throws Exception {
    int[] most = new int[1];
    long[] stats = consume(MergeSource.PREFETCH_THREADS, true, most);
    assertTrue(
        most[0] >= 2,
        "at most "
            + most[0]
            + " reads in flight on a device; takes/waits/self-reads/wait-ns "
            + Arrays.toString(stats));
    int[] one = new int[1];
    consume(1, true, one);
    assertEquals(1, one[0], "one prefetch thread per device reads one block at a time");
  }

  /** Takes every block in the schedule's order, as the merge does, spending MERGE_MS on each. */
  private long[] consume(int threadsPerDevice, boolean byDevice) throws Exception {
    return consume(threadsPerDevice, byDevice, null);
  }

  /**
   * As {@link #consume(int, boolean)}; with {@code mostInFlight}, devices serve reads concurrently
   * and the most reads seen in flight on one device by prefetch threads goes to its element 0.
   */
  private long[] consume(int threadsPerDevice, boolean byDevice, int[] mostInFlight)
      throws Exception {
    int k = runs.length;
    int[] from = new int[k];
    int[] to = new int[k];
    RunReader[] readers = new RunReader[k];
    List<BlockFile> files = new ArrayList<>();
    try {
      for (int r = 0; r < k; r++) {
        to[r] = runs[r].blockCount();
        BlockFile f = BlockFile.openRead(runs[r].parts(), DirectIoPolicy.AUTO, NoticeSink.IGNORE);
        files.add(f);
        readers[r] = RunReader.open(f, runs[r].layout());
      }
      PrefetchSchedule schedule = PrefetchSchedule.of(runs, from, to);
      RunReader[] rs = readers.clone();
      AtomicInteger[] inFlight = new AtomicInteger[DEVICES];
      Arrays.setAll(inFlight, i -> new AtomicInteger());
      BlockPrefetcher.BlockRead slow =
          (r, b, dst) -> {
            if (mostInFlight != null) {
              // Only the prefetcher's reads count: the merge reading a block itself beside one of
              // them would make two in flight with a single prefetch thread.
              if (!Thread.currentThread().getName().startsWith("joule-prefetch")) {
                sleep(READ_MS);
                return rs[r].readBlock(b, dst);
              }
              AtomicInteger n = inFlight[rs[r].stripeOf(b)];
              int now = n.incrementAndGet();
              try {
                synchronized (mostInFlight) {
                  mostInFlight[0] = Math.max(mostInFlight[0], now);
                }
                sleep(READ_MS);
                return rs[r].readBlock(b, dst);
              } finally {
                n.decrementAndGet();
              }
            }
            // One read at a time per device, as a disk serves them.
            synchronized (DEVICE_LOCKS[rs[r].stripeOf(b)]) {
              sleep(READ_MS);
              return rs[r].readBlock(b, dst);
            }
          };
      try (BlockPool pool = new BlockPool(3 * k, BLOCK);
          BlockPrefetcher p =
              new BlockPrefetcher(
                  readers,
                  from,
                  to,
                  schedule,
                  pool,
                  threadsPerDevice,
                  SortThreads.JOULE,
                  slow,
                  byDevice)) {
        for (int i = 0; i < schedule.size(); i++) {
          int r = schedule.run(i);
          int b = schedule.block(i);
          ByteBuffer buf = p.take(r, b);
          assertEquals(
              runs[r].entriesStarting(b) * 16, buf.remaining(), "block " + b + " of run " + r);
          sleep(MERGE_MS);
          p.release(buf);
        }
        return p.takeStats();
      }
    } finally {
      for (BlockFile f : files) {
        f.close();
      }
    }
  }

  private static final Object[] DEVICE_LOCKS = {
    new Object(), new Object(), new Object(), new Object()
  };

  private static void sleep(long ms) throws java.io.InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }
}
