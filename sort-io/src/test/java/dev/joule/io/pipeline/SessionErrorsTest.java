package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.hooks.SortHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Errors early and honest: a temp directory that cannot be used fails {@code open}, not the first
 * spill gigabytes later; a null argument is a {@link NullPointerException} naming it; a last resort
 * on pairs orders equal keys by their values (checked against a reference written from that
 * definition); {@code peakMemoryBytes()} counts an outsized value's own memory.
 */
class SessionErrorsTest extends OneStripeTest {
  static final long SEED = TestSeed.of(SessionErrorsTest.class, 0xE44_0125L);

  SortConfig.Builder config() {
    return SortConfig.builder().memoryBudget(DataSize.ofMiB(8)).threads(2).tempDirs(stripes);
  }

  @Test
  void aMissingTempDirFailsAtOpen() {
    Path missing = dir.resolve("no-such-dir");
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () -> ExternalSorter.openPairs(config().tempDirs(List.of(missing)).build()));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    SortIOException r =
        assertThrows(
            SortIOException.class,
            () -> ExternalSorter.open(config().tempDirs(List.of(missing)).build()));
    assertTrue(r.getMessage().contains(missing.toString()), r.getMessage());
  }

  @Test
  void nullArgumentsAreNamed() throws IOException {
    try (PairSession s = ExternalSorter.openPairs(config().build());
        RecordSession r = ExternalSorter.open(config().build())) {
      ByteBuffer b = ByteBuffer.allocate(1);
      NullPointerException k = assertThrows(NullPointerException.class, () -> s.add(null, b));
      assertEquals("key", k.getMessage());
      NullPointerException v = assertThrows(NullPointerException.class, () -> s.add(b, null));
      assertEquals("value", v.getMessage());
      NullPointerException x = assertThrows(NullPointerException.class, () -> r.add(null));
      assertEquals("records", x.getMessage());
      assertEquals(0, s.memoryBytes(), "a session that took nothing holds nothing");
    }
  }

  /** Pairs of few keys: the last resort orders each key's pairs by their values. */
  @Test
  void aLastResortOrdersEqualKeysByTheirValues() throws IOException {
    Random r = new Random(SEED);
    List<byte[][]> pairs = new ArrayList<>();
    for (int i = 0; i < 40_000; i++) {
      byte[] v = new byte[r.nextInt(6)];
      for (int j = 0; j < v.length; j++) {
        v[j] = (byte) r.nextInt(256);
      }
      pairs.add(new byte[][] {{(byte) r.nextInt(4)}, v});
    }
    for (LastResort last : new LastResort[] {LastResort.ASCENDING, LastResort.DESCENDING}) {
      Comparator<byte[]> values =
          last == LastResort.ASCENDING
              ? Arrays::compareUnsigned
              : (a, b) -> Arrays.compareUnsigned(b, a);
      List<byte[][]> expected = new ArrayList<>(pairs);
      expected.sort(
          Comparator.comparing((byte[][] p) -> p[0], Arrays::compareUnsigned)
              .thenComparing(p -> p[1], values));
      // 8 MiB with spills every 5000 pairs: the order holds across runs and merges too.
      try (PairSession s = ExternalSorter.openPairs(config().lastResort(last).build())) {
        int n = 0;
        for (byte[][] p : pairs) {
          s.add(ByteBuffer.wrap(p[0]), ByteBuffer.wrap(p[1]));
          if (++n % 5000 == 0) {
            s.spill();
          }
        }
        try (RecordCursor c = s.finish()) {
          int i = 0;
          while (c.next()) {
            assertArrayEquals(
                expected.get(i)[1],
                SortSessionTest.copy(c.value()),
                last + ": pair " + i + ", seed " + SEED);
            i++;
          }
          assertEquals(expected.size(), i);
        }
      }
    }
  }

  /** A 12 MB value under an 8 MiB budget is held alone in memory of its own: the peak says so. */
  @Test
  void peakMemoryCountsAnOutsizedValue() throws IOException {
    byte[] big = new byte[12 << 20];
    new Random(SEED).nextBytes(big);
    try (PairSession s = ExternalSorter.openPairs(config().build())) {
      s.add(ByteBuffer.wrap(new byte[] {2}), ByteBuffer.wrap(new byte[] {1}));
      s.add(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(big));
      assertTrue(s.peakMemoryBytes() >= big.length, "peak " + s.peakMemoryBytes());
      try (RecordCursor c = s.finish()) {
        assertTrue(c.next());
        assertArrayEquals(big, SortSessionTest.copy(c.value()));
        assertTrue(c.next());
        assertArrayEquals(new byte[] {1}, SortSessionTest.copy(c.value()));
        assertTrue(!c.next());
      }
    }
  }

  /**
   * After a run write failed, the session takes nothing more: the failed chunk may still view
   * memory the other chunk took since (the first chunk's tail slabs), so adding on, finishing or
   * spilling would write into another run's entries. Each says so, naming the failure; close still
   * gives everything back.
   */
  @Test
  void aSessionWhoseRunWriteFailedRefusesMore() throws IOException {
    AtomicInteger writes = new AtomicInteger();
    SortConfig.Builder b = config();
    SortHooks.set(
        b,
        SortHooks.of(b)
            .withBeforeSessionRunWrite(
                at -> {
                  if (writes.incrementAndGet() == 2) {
                    throw new java.io.UncheckedIOException(new IOException("disk gone (test)"));
                  }
                }));
    Random r = new Random(SEED + 7);
    byte[] value = new byte[100];
    try (PairSession s = ExternalSorter.openPairs(b.build())) {
      IOException failure = null;
      for (int i = 0; i < 400_000 && failure == null; i++) {
        r.nextBytes(value);
        try {
          s.add(ByteBuffer.wrap(value, 0, 8), ByteBuffer.wrap(value));
        } catch (IOException e) {
          failure = e;
        }
      }
      assertTrue(failure != null, "no write failed: " + writes + " writes");
      assertTrue(failure.getMessage().contains("disk gone"), failure.toString());
      IllegalStateException again =
          assertThrows(
              IllegalStateException.class,
              () -> s.add(ByteBuffer.wrap(value, 0, 8), ByteBuffer.wrap(value)));
      assertTrue(again.getMessage().contains("disk gone"), again.getMessage());
      assertThrows(IllegalStateException.class, s::finish);
      assertEquals(0, s.spill(), "a failed session spills nothing");
    }
  }
}
