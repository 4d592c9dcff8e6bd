package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cursor allocates nothing per record: over 10^6 pairs, read from memory (one chunk) and from a
 * merge of spilled runs, with and without validation, the heap bytes the reading thread allocates
 * in {@code next()}, {@code key()} and {@code value()} stay under {@value #BYTES_PER_RECORD} a
 * record (views are made once per slab or per block of a run; a 1 MiB block of 40-byte pairs holds
 * 26 000 of them). Before, two {@code ByteBuffer} slices per record were about 100 bytes.
 */
class SessionCursorAllocationTest {
  static final long SEED = TestSeed.of(SessionCursorAllocationTest.class, 0xA110CL);
  static final int PAIRS = 1_000_000;
  static final double BYTES_PER_RECORD = 1.0;

  Path stripe;
  String name;

  @org.junit.jupiter.api.io.TempDir Path dir;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripe = Files.createDirectories(dir.resolve("stripe"));
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, List.of(stripe));
  }

  @ParameterizedTest(name = "budget {0} MiB, validate {1}")
  @CsvSource({"256, true", "256, false", "16, true", "16, false"})
  void nextAllocatesNothingPerRecord(int mib, boolean validate) throws IOException {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    assumeTrue(
        mx instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported(),
        "this JVM does not count allocated bytes per thread");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
    String setting = mib + " MiB, validate " + validate;
    SortConfig c =
        SortConfig.builder()
            .memoryBudget(DataSize.ofMiB(mib))
            .threads(2)
            .tempDirs(List.of(stripe))
            .validate(validate)
            .build();
    SplittableRandom r = new SplittableRandom(SEED);
    ByteBuffer key = ByteBuffer.allocate(8);
    ByteBuffer value = ByteBuffer.allocate(32);
    try (PairSession s = ExternalSorter.openPairs(c)) {
      for (int i = 0; i < PAIRS; i++) {
        key.clear().putLong(0, r.nextLong());
        value.clear().putLong(0, i).limit(8 + r.nextInt(24));
        s.add(key, value);
      }
      boolean merged = s.spilledRuns() > 0;
      assertEquals(mib == 16, merged, "a 16 MiB session spills, a 256 MiB one does not");
      try (RecordCursor cur = s.finish()) {
        // The first records warm up the cursor's views and the JIT's code; then measure.
        long sum = 0;
        for (int i = 0; i < 1000 && cur.next(); i++) {
          sum += cur.key().remaining() + cur.value().remaining();
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        long n = 0;
        long previous = Long.MIN_VALUE;
        while (cur.next()) {
          ByteBuffer k = cur.key();
          long kv = k.getLong(k.position()) ^ Long.MIN_VALUE; // unsigned order as signed
          assertTrue(kv >= previous, "keys out of order");
          previous = kv;
          sum += cur.value().remaining();
          n++;
        }
        long after = threads.getThreadAllocatedBytes(tid);
        double perRecord = (double) (after - before) / n;
        assertTrue(sum > 0);
        assertTrue(
            perRecord < BYTES_PER_RECORD,
            String.format(
                java.util.Locale.ROOT,
                "%s: %.2f bytes allocated per record over %d records (%d bytes)",
                setting,
                perRecord,
                n,
                after - before));
      }
    }
  }
}
