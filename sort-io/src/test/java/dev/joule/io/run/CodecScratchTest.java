package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.DirectRegion;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.memory.MemoryMeter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Run compression's scratch buffers are the memory the plan reserves for them: however many threads
 * compress or decompress at once, no more than the limit exist or are held, each is counted in the
 * sort's meter while it exists, and closing gives all of it back.
 */
class CodecScratchTest {
  static final int BLOCK = 64 << 10;

  @Test
  void manyThreadsShareAtMostTheLimitAndTheMeterCountsThem() throws Exception {
    MemoryMeter meter = new MemoryMeter();
    int limit = 2;
    RunCompression rc =
        new RunCompression(Compression.lz4(), () -> 0, SortThreads.JOULE, meter, limit);
    AtomicInteger held = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < 200; i++) {
                    RunCompression.ScratchBuffer s = rc.acquire(BLOCK);
                    try {
                      most.accumulateAndGet(held.incrementAndGet(), Math::max);
                      assertTrue(s.buffer.capacity() >= BLOCK);
                      Thread.onSpinWait();
                    } finally {
                      held.decrementAndGet();
                      rc.release(s);
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      ts.add(th);
      th.start();
    }
    for (Thread th : ts) {
      th.join(60_000);
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue(most.get() <= limit, "held at once: " + most.get());
    assertEquals(limit, rc.scratchBuffersMade(), "eight threads asking at once made the limit");
    long each = DirectRegion.bytesFor(1, BLOCK);
    assertEquals(limit * each, meter.current(), "the meter counts the buffers that exist");
    assertEquals(limit * each, meter.peak());
    rc.close();
    assertEquals(0, meter.current(), "closing gives the buffers back");
  }

  @Test
  void aLargerBlockReplacesAnIdleSmallerBufferWithinTheLimit() throws Exception {
    MemoryMeter meter = new MemoryMeter();
    try (RunCompression rc =
        new RunCompression(Compression.lz4(), () -> 0, SortThreads.JOULE, meter, 1)) {
      rc.release(rc.acquire(BLOCK));
      RunCompression.ScratchBuffer big = rc.acquire(4 * BLOCK);
      assertTrue(big.buffer.capacity() >= 4 * BLOCK);
      assertEquals(1, rc.scratchBuffersMade());
      assertEquals(DirectRegion.bytesFor(1, 4 * BLOCK), meter.current());
      rc.release(big);
    }
    assertEquals(0, meter.current());
  }
}
