package dev.joule.io.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.index.EntryLayout;
import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.stripe.RoundRobinStripes;
import dev.joule.io.stripe.TempSpace;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spilling runs to striped temp space under injected faults: every failure names the op and the
 * path, and after the space is closed no temp file or directory is left on any stripe. Over fixed
 * gensort entries and over variable entries (length-prefixed records, some larger than the 8 KiB
 * blocks, so that run format v3 writes and reads entries that span blocks).
 */
class RunSpillFaultTest {
  private static final int RUNS = 3;
  private static final int RECORDS = 700; // 70 000 bytes per run: several 8 KiB blocks

  @TempDir Path tmp;

  /** Entries of one run, sorted, and their layout. */
  enum Entries {
    GENSORT,
    VARIABLE;

    EntryLayout layout() {
      return this == GENSORT ? RunFileTest.GENSORT_ENTRIES : EntryLayout.whole();
    }

    /** About 70 000 bytes of entries; variable records of 0..200 bytes, every 70th of 9..14 KB. */
    byte[] bytes() {
      if (this == GENSORT) {
        return RunFileTest.sortedRecords(1, RECORDS, RunFileTest.GENSORT);
      }
      Random r = new Random(1);
      byte[][] recs = new byte[RECORDS / 2][];
      for (int i = 0; i < recs.length; i++) {
        recs[i] = new byte[i % 70 == 35 ? 9000 + r.nextInt(5000) : r.nextInt(200)];
        r.nextBytes(recs[i]);
      }
      Arrays.sort(recs, Arrays::compareUnsigned);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (byte[] rec : recs) {
        out.writeBytes(ByteBuffer.allocate(4).putInt(rec.length).array());
        out.writeBytes(rec);
      }
      return out.toByteArray();
    }
  }

  /**
   * Writes and reads back RUNS runs over two stripes; returns normally or throws the first failure.
   */
  private static void spill(
      List<Path> stripes, BlockPool pool, DirectIoPolicy policy, Entries entries, byte[] bytes)
      throws IOException {
    TempSpace space = TempSpace.open(stripes, new RoundRobinStripes(), NoticeSink.IGNORE);
    try {
      for (int i = 0; i < RUNS; i++) {
        try (BlockFile f = space.createFile("run", bytes.length, policy)) {
          RunDescriptor d;
          try (RunWriter w = new RunWriter(f, entries.layout(), 8192, pool, 2, SortThreads.JOULE)) {
            w.add(ByteBuffer.wrap(bytes));
            d = w.finish();
          }
          ByteBuffer buf = pool.acquire();
          try {
            assertEquals(
                d.checksum(), RunReader.open(f, entries.layout()).verifyAll(buf).checksum());
          } finally {
            pool.release(buf);
          }
        }
      }
      space.close();
    } catch (IOException | RuntimeException e) {
      space.closeAfterFailure(e);
      throw e;
    } catch (InterruptedException e) {
      space.closeAfterFailure(e);
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest
  @EnumSource(Entries.class)
  void kthOperationFailureAndDiskFullLeaveNothingBehind(Entries entries) throws IOException {
    Path s1 = Files.createDirectory(tmp.resolve("s1"));
    Path s2 = Files.createDirectory(tmp.resolve("s2"));
    byte[] bytes = entries.bytes();
    int failures = 0;
    try (BlockPool pool = new BlockPool(3, 16384)) {
      for (DirectIoPolicy policy : new DirectIoPolicy[] {DirectIoPolicy.ON, DirectIoPolicy.OFF}) {
        for (FaultOp op : new FaultOp[] {FaultOp.OPEN, FaultOp.READ, FaultOp.WRITE}) {
          for (int k = 1; ; k++) {
            FaultFileSystemProvider faults = FaultFileSystemProvider.create(k).shortIo(k % 2 == 1);
            faults.failAt(op, k);
            if (!attempt(
                List.of(faults.wrap(s1), faults.wrap(s2)),
                pool,
                policy,
                entries,
                bytes,
                entries + " " + op + " k=" + k,
                "Input/output error")) {
              break;
            }
            failures++;
            assertNothingLeft(faults, pool, s1, s2);
          }
        }
        for (long n = 0; n < RUNS * 90_000L; n += 7919) {
          FaultFileSystemProvider faults = FaultFileSystemProvider.create(n).diskFullAfter(n);
          if (attempt(
              List.of(faults.wrap(s1), faults.wrap(s2)),
              pool,
              policy,
              entries,
              bytes,
              entries + " full at " + n,
              "No space left on device")) {
            failures++;
          }
          assertNothingLeft(faults, pool, s1, s2);
        }
      }
    }
    assertTrue(failures > 50, "faults were injected: " + failures);
  }

  /** Returns whether the spill failed (as it must, with a message naming op, path and reason). */
  private static boolean attempt(
      List<Path> stripes,
      BlockPool pool,
      DirectIoPolicy policy,
      Entries entries,
      byte[] bytes,
      String what,
      String reason)
      throws IOException {
    try {
      spill(stripes, pool, policy, entries, bytes);
      return false;
    } catch (SortIOException e) {
      assertTrue(
          e.getMessage().matches("[a-z ()]+ failed: /\\S+: " + reason + ".*"),
          what + ": " + e.getMessage());
      return true;
    }
  }

  private static void assertNothingLeft(
      FaultFileSystemProvider faults, BlockPool pool, Path... stripes) throws IOException {
    for (Path s : stripes) {
      assertEquals(List.of(), IoTestSupport.listRecursive(s));
    }
    faults.assertNoOpenHandles();
    IoTestSupport.assertPoolFull(pool);
  }
}
