package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.DirectRegion;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Run compression's scratch buffers stay within what the plan reserves and the run store charges
 * for them (the limit, a block each): however many threads compress or decompress at once, no more
 * than the limit exist or are held, and closing frees them. That the charge is in the sort's meter
 * and the reserve in its plan, MemoryBudgetTest.compressedRunsStayWithinTheBudget shows.
 */
class CodecScratchTest {
  static final int BLOCK = 64 << 10;

  @Test
  void manyThreadsShareAtMostTheLimitAndTheMeterCountsThem() throws Exception {
    int limit = 2;
    RunCompression rc = new RunCompression(Compression.lz4(), () -> 0, SortThreads.JOULE, limit);
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
    assertTrue(rc.scratchBuffersMade() <= limit, "made: " + rc.scratchBuffersMade());
    assertTrue(rc.scratchBytes() <= limit * DirectRegion.bytesFor(1, BLOCK));
    rc.close();
    assertEquals(0, rc.scratchBuffersMade(), "closing frees the buffers");
  }

  @Test
  void aThreadPastTheLimitWaitsForABufferToComeBack() throws Exception {
    try (RunCompression rc = new RunCompression(Compression.lz4(), () -> 0, SortThreads.JOULE, 2)) {
      RunCompression.ScratchBuffer a = rc.acquire(BLOCK);
      RunCompression.ScratchBuffer b = rc.acquire(BLOCK);
      AtomicReference<RunCompression.ScratchBuffer> third = new AtomicReference<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  third.set(rc.acquire(BLOCK));
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      t.start();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(Thread.State.WAITING, t.getState(), "the third thread waits");
      assertEquals(2, rc.scratchBuffersMade(), "no third buffer is made");
      rc.release(a);
      t.join(10_000);
      assertTrue(third.get() != null && !t.isAlive(), "the third got the buffer given back");
      assertEquals(2, rc.scratchBuffersMade());
      rc.release(b);
      rc.release(third.get());
    }
  }

  @Test
  void aLargerBlockReplacesAnIdleSmallerBufferWithinTheLimit() throws Exception {
    try (RunCompression rc = new RunCompression(Compression.lz4(), () -> 0, SortThreads.JOULE, 1)) {
      rc.release(rc.acquire(BLOCK));
      RunCompression.ScratchBuffer big = rc.acquire(4 * BLOCK);
      assertTrue(big.buffer.capacity() >= 4 * BLOCK);
      assertEquals(1, rc.scratchBuffersMade());
      assertEquals(DirectRegion.bytesFor(1, 4 * BLOCK), rc.scratchBytes());
      rc.release(big);
    }
  }
}
