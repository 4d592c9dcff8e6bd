package dev.joule.io.output;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.joule.io.IoTestSupport;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.BlockReader;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.input.InputFile;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicOutputTest {
  private static final int SIZE = 5 * 65536 + 4097; // several buffers plus an unaligned tail

  @TempDir Path tmp;
  private BlockPool pool;

  @BeforeEach
  void setUp() {
    pool = new BlockPool(3, 65536);
  }

  @AfterEach
  void tearDown() {
    IoTestSupport.assertPoolFull(pool);
    pool.close();
  }

  private void publish(Path target, byte[] data, DirectIoPolicy policy) throws IOException {
    try (AtomicOutput out = AtomicOutput.create(target, policy, NoticeSink.IGNORE, pool, 2)) {
      out.writer().write(ByteBuffer.wrap(data));
      out.commit();
    }
  }

  @Test
  void publishesAndReplacesKeepingTheOldMode() throws IOException {
    Path out = tmp.resolve("out.dat");
    byte[] a = IoTestSupport.randomBytes(1, SIZE);
    publish(out, a, DirectIoPolicy.ON);
    assertArrayEquals(a, Files.readAllBytes(out));
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
    byte[] b = IoTestSupport.randomBytes(2, 17);
    publish(out, b, DirectIoPolicy.OFF);
    assertArrayEquals(b, Files.readAllBytes(out));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
    assertEquals(List.of("out.dat"), IoTestSupport.listRecursive(tmp));
  }

  @Test
  void emptyOutputIsCreated() throws IOException {
    Path out = tmp.resolve("empty");
    publish(out, new byte[0], DirectIoPolicy.AUTO);
    assertEquals(0, Files.size(out));
  }

  /**
   * Sorting a file onto itself: the input is read while the output is written, and replaced only at
   * the rename.
   */
  @Test
  void outputMayBeTheInput() throws IOException {
    Path f = tmp.resolve("same");
    byte[] data = IoTestSupport.randomBytes(3, SIZE);
    Files.write(f, data);
    try (InputFile in = InputFile.open(f, DirectIoPolicy.AUTO, NoticeSink.IGNORE);
        BlockReader r = in.reader(65536, 1);
        AtomicOutput out =
            AtomicOutput.create(f, DirectIoPolicy.AUTO, NoticeSink.IGNORE, pool, 2)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(65536 + 4096).alignedSlice(4096);
      long read = 0;
      while (true) {
        r.submit(buf.clear());
        ByteBuffer got = r.take();
        int n = got.remaining();
        read += n;
        for (int i = got.position(); i < got.limit(); i++) {
          got.put(i, (byte) ~got.get(i)); // some transformation of the input
        }
        out.writer().write(got);
        if (n < 65536) {
          break;
        }
      }
      in.checkUnchanged(read);
      out.commit();
    }
    byte[] expect = data.clone();
    for (int i = 0; i < expect.length; i++) {
      expect[i] = (byte) ~expect[i];
    }
    assertArrayEquals(expect, Files.readAllBytes(f));
    assertEquals(List.of("same"), IoTestSupport.listRecursive(tmp));
  }

  /**
   * The k-th operation of each kind fails: either success, or a named error, the old output intact
   * and nothing left.
   */
  @Test
  void kthOperationFailureSweep() throws IOException {
    Path realOut = tmp.resolve("out");
    byte[] old = IoTestSupport.randomBytes(10, 999);
    byte[] neu = IoTestSupport.randomBytes(11, SIZE);
    int failures = 0;
    for (DirectIoPolicy policy : new DirectIoPolicy[] {DirectIoPolicy.ON, DirectIoPolicy.OFF})
      for (FaultOp op : new FaultOp[] {FaultOp.OPEN, FaultOp.WRITE, FaultOp.FORCE, FaultOp.MOVE}) {
        for (int k = 1; ; k++) {
          Files.write(realOut, old);
          String sha = IoTestSupport.sha256(realOut);
          FaultFileSystemProvider faults =
              FaultFileSystemProvider.create(IoTestSupport.seed() + k).shortIo(k % 2 == 0);
          faults.failAt(op, k);
          try {
            publish(faults.wrap(realOut), neu, policy);
            assertArrayEquals(neu, Files.readAllBytes(realOut), op + " k=" + k);
            assertEquals(List.of("out"), IoTestSupport.listRecursive(tmp));
            faults.assertNoOpenHandles();
            break; // k passed the number of such operations: the sweep for this op is complete
          } catch (SortIOException e) {
            failures++;
            if (e.op().equals("fsync directory")) {
              // after the rename: the previous version is renamed back from its hard link (CFC 3)
              assertEquals(
                  "fsync directory failed: " + tmp + ": Input/output error", e.getMessage());
              assertEquals(sha, IoTestSupport.sha256(realOut), "previous output restored");
              assertEquals(List.of("out"), IoTestSupport.listRecursive(tmp));
              faults.assertNoOpenHandles();
              continue;
            }
            assertTrue(
                e.getMessage()
                    .matches(
                        "[a-z ()]+ failed: " + tmp + "/\\.?out[.a-z0-9]*: Input/output error.*"),
                policy + " " + op + " k=" + k + ": " + e.getMessage());
            assertEquals(sha, IoTestSupport.sha256(realOut), op + " k=" + k);
            assertEquals(List.of("out"), IoTestSupport.listRecursive(tmp), op + " k=" + k);
            faults.assertNoOpenHandles();
          }
        }
      }
    assertTrue(failures >= 12, "the sweep must actually fail something: " + failures);
  }

  @Test
  void diskFullAtManySizes() throws IOException {
    Path realOut = tmp.resolve("out");
    byte[] old = IoTestSupport.randomBytes(20, 4096);
    byte[] neu = IoTestSupport.randomBytes(21, SIZE);
    for (long n = 0; n <= SIZE + 1; n += 4093) {
      Files.write(realOut, old);
      FaultFileSystemProvider faults = FaultFileSystemProvider.create(n).diskFullAfter(n);
      try {
        publish(faults.wrap(realOut), neu, n % 2 == 0 ? DirectIoPolicy.ON : DirectIoPolicy.OFF);
        if (n < SIZE) {
          fail("disk full after " + n + " bytes went unnoticed");
        }
        assertArrayEquals(neu, Files.readAllBytes(realOut));
      } catch (SortIOException e) {
        assertTrue(
            e.getMessage()
                .matches(
                    "write failed: " + tmp + "/\\.out\\.[a-z0-9]+\\.tmp: No space left on device"),
            e.getMessage());
        assertEquals("write", e.op());
        assertArrayEquals(old, Files.readAllBytes(realOut), "n=" + n);
      }
      assertEquals(List.of("out"), IoTestSupport.listRecursive(tmp), "n=" + n);
      faults.assertNoOpenHandles();
    }
  }

  /** fsync(tmp) before rename(tmp, out) before fsync(dir); a failed fsync is not retried. */
  @Test
  void publishOrderAndFsyncgate() throws IOException {
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(5);
    Path out = faults.wrap(tmp.resolve("o"));
    publish(out, new byte[10_000], DirectIoPolicy.ON);
    List<String> log = faults.log();
    int force = -1;
    int move = -1;
    int dirForce = -1;
    for (int i = 0; i < log.size(); i++) {
      String l = log.get(i);
      if (l.startsWith("FORCE " + tmp + "/.o.") && force < 0) {
        force = i;
      } else if (l.startsWith("MOVE " + tmp + "/.o.")) {
        move = i;
      } else if (l.equals("FORCE " + tmp)) {
        dirForce = i;
      }
    }
    assertTrue(force >= 0 && force < move && move < dirForce, log.toString());

    faults = FaultFileSystemProvider.create(6);
    faults.failAt(FaultOp.FORCE, 1);
    try {
      publish(faults.wrap(tmp.resolve("o")), new byte[10_000], DirectIoPolicy.ON);
      fail("force failure went unnoticed");
    } catch (SortIOException e) {
      assertEquals("fsync", e.op());
    }
    assertEquals(1, faults.count(FaultOp.FORCE), faults.log().toString());
    assertEquals(0, faults.count(FaultOp.MOVE));
    assertEquals(List.of("o"), IoTestSupport.listRecursive(tmp));
  }

  @Test
  void missingOutputDirectoryNamesThePath() {
    Path out = tmp.resolve("no/such/dir/out");
    try {
      publish(out, new byte[1], DirectIoPolicy.AUTO);
      fail();
    } catch (IOException e) {
      assertTrue(
          e.getMessage()
              .matches(
                  "create failed: "
                      + tmp
                      + "/no/such/dir/\\.out\\.[a-z0-9]+\\.tmp: No such file or directory"),
          e.getMessage());
    }
  }
}
