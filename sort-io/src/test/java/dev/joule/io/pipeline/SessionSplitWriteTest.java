package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import dev.joule.io.hooks.SortHooks;
import dev.joule.testing.TestSeed;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A session's first chunk grows into the whole budget; when it spills, its later slabs are sorted
 * and written as a run of their own first (so that adding goes on after half a write) and the rest
 * after them, and the store keeps the two runs in input order. Equal keys must still leave in input
 * order across that split: many records share each key here, their input position rides in the
 * record, and the reference is a stable sort of the input by the key alone. Both entry kinds take
 * the path: key/value pairs (entries appended slab by slab) and fixed records read in place
 * (indexed only when the chunk is sorted, their index charged with the slabs). The tail's slabs,
 * once written, are the next chunk's memory ({@code RecordArena.adoptSlab}): the same bytes hold
 * other entries then, which the reference would catch if the head's run still read them.
 */
class SessionSplitWriteTest extends OneStripeTest {
  static final long SEED = TestSeed.of(SessionSplitWriteTest.class, 0x5B11_7AL);

  @Test
  void pairsWithEqualKeysKeepInputOrderAcrossTheSplit() throws IOException {
    Random r = new Random(SEED);
    List<byte[][]> pairs = new ArrayList<>();
    for (int i = 0; i < 120_000; i++) {
      byte[] k = {(byte) r.nextInt(4), (byte) r.nextInt(256)}; // 1,024 keys
      byte[] v = new byte[8 + r.nextInt(120)];
      r.nextBytes(v);
      ByteBuffer.wrap(v).putLong(0, i);
      pairs.add(new byte[][] {k, v});
    }
    Map<Long, Integer> writes = new ConcurrentHashMap<>();
    List<byte[][]> got = new ArrayList<>();
    try (PairSession s = ExternalSorter.openPairs(config(writes).build())) {
      for (byte[][] p : pairs) {
        s.add(ByteBuffer.wrap(p[0]), ByteBuffer.wrap(p[1]));
      }
      assertAdopted(s);
      try (RecordCursor c = s.finish()) {
        assertRunSumsAddUp(s);
        while (c.next()) {
          got.add(new byte[][] {SortSessionTest.copy(c.key()), SortSessionTest.copy(c.value())});
        }
      }
    }
    assertSplit(writes);
    SortSessionTest.assertStablySorted(pairs, got, "seed " + SEED);
  }

  @Test
  void fixedRecordsInPlaceWithEqualKeysKeepInputOrderAcrossTheSplit() throws IOException {
    int size = 32;
    Random r = new Random(SEED + 1);
    int n = 600_000; // 19.2 MB through an 8 MiB budget
    ByteBuffer all = ByteBuffer.allocate(n * size);
    for (int i = 0; i < n; i++) {
      all.putShort(i * size, (short) r.nextInt(1000)); // the key: 2 bytes
      all.putLong(i * size + 2, i); // its input position
    }
    Map<Long, Integer> writes = new ConcurrentHashMap<>();
    SortConfig c = config(writes).format(RecordFormat.fixed(size, KeySpec.bytes(0, 2))).build();
    List<byte[]> got = new ArrayList<>();
    try (RecordSession s = ExternalSorter.open(c)) {
      for (int at = 0; at < n * size; at += 64 * size) { // 64 records per add
        s.add(all.slice(at, Math.min(64 * size, n * size - at)));
      }
      assertAdopted(s);
      try (RecordCursor cur = s.finish()) {
        assertRunSumsAddUp(s);
        while (cur.next()) {
          got.add(SortSessionTest.copy(cur.record()));
        }
      }
    }
    assertSplit(writes);
    List<byte[]> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] rec = new byte[size];
      all.get(i * size, rec);
      expected.add(rec);
    }
    expected.sort(
        Comparator.comparing((byte[] rec) -> Arrays.copyOf(rec, 2), Arrays::compareUnsigned));
    SortSessionTest.assertSameRecords(expected, got, "seed " + SEED);
  }

  /** An 8 MiB session whose hook counts the run writes of each hand-off. */
  private SortConfig.Builder config(Map<Long, Integer> writes) {
    SortConfig.Builder b =
        SortConfig.builder().memoryBudget(DataSize.ofMiB(8)).threads(2).tempDirs(stripes);
    SortHooks.set(
        b, SortHooks.of(b).withBeforeSessionRunWrite(at -> writes.merge(at, 1, Integer::sum)));
    return b;
  }

  /**
   * The chunk that filled while the first one's head was written grew into the first one's tail
   * slabs (adopted, not allocated afresh: fresh memory costs 3-7 µs a page on these VMs).
   */
  private static void assertAdopted(SortSession s) {
    assertTrue(s.engine.adoptedSlabs() > 0, "no spare slab was adopted");
  }

  /**
   * Every run carries the checksum of exactly its entries, the split first chunk's two included
   * (their slabs' sums, taken as the entries were added, instead of a CRC pass while writing): the
   * runs' sums add up to the input's.
   */
  private static void assertRunSumsAddUp(SortSession s) {
    RunStore store = s.engine.store();
    dev.joule.core.valsort.RecordChecksum runs = dev.joule.core.valsort.RecordChecksum.of(0, 0);
    long records = 0;
    for (dev.joule.io.run.RunDescriptor d : store.runs()) {
      runs.add(d.checksum()); // a run file keeps the sum, not its kind
      records += d.recordCount();
    }
    dev.joule.core.valsort.RecordChecksum input = store.inputChecksum();
    assertEquals(store.inputRecords(), records, "records in runs");
    assertEquals(input.toHex(), runs.toHex(), "the runs' checksums against the input's");
  }

  /** The first chunk went out as two runs (the path under test was taken), the others as one. */
  private static void assertSplit(Map<Long, Integer> writes) {
    long first = writes.keySet().stream().mapToLong(Long::longValue).min().orElse(-1);
    assertEquals(2, writes.getOrDefault(first, 0), "runs of the first chunk: " + writes);
    assertTrue(writes.size() >= 3, "too few chunks to test: " + writes);
    writes.forEach((at, runs) -> assertTrue(at == first || runs == 1, "runs per chunk " + writes));
  }
}
