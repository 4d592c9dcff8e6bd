package dev.joule.io.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.IoTestSupport;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.config.TransferSizes;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BlockIoTest {
  private static final int[] SIZES = {0, 1, 4095, 4096, 4097, 65536, 3 * (1 << 20) + 13};
  private static final int TRANSFER = 64 << 10;

  @TempDir Path tmp;
  private BlockPool pool;

  @BeforeEach
  void setUp() {
    pool = new BlockPool(4, TRANSFER);
  }

  @AfterEach
  void tearDown() {
    IoTestSupport.assertPoolFull(pool);
    pool.close();
  }

  static List<Arguments> cases() {
    List<Arguments> a = new ArrayList<>();
    for (DirectIoPolicy p : DirectIoPolicy.values()) {
      for (int size : SIZES) {
        a.add(Arguments.of(p, size, false));
        a.add(Arguments.of(p, size, true));
      }
    }
    return a;
  }

  /**
   * Writes with write-behind, reads back with read-ahead and positionally: same bytes for every
   * policy, size and short I/O.
   */
  @ParameterizedTest(name = "{0} size={1} shortIo={2}")
  @MethodSource("cases")
  void roundTripIsIdentical(DirectIoPolicy policy, int size, boolean shortIo) throws IOException {
    long seed = IoTestSupport.seed() + size;
    byte[] data = IoTestSupport.randomBytes(seed, size);
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(seed).shortIo(shortIo);
    Path file = faults.wrap(tmp.resolve("f.bin"));
    try (BlockFile f = BlockFile.createNew(file, policy, NoticeSink.IGNORE);
        BlockWriter w = new BlockWriter(f, pool, 2)) {
      assertEquals(policy != DirectIoPolicy.OFF, f.isDirect());
      ByteBuffer src = ByteBuffer.wrap(data);
      while (src.hasRemaining()) { // uneven pieces, to cross buffer boundaries anywhere
        int n = Math.min(src.remaining(), 1 + (int) ((seed ^ src.position()) & 0x1FFFF));
        w.write(src.slice(src.position(), n));
        src.position(src.position() + n);
      }
      assertEquals(size, w.finish(true));
    }
    assertArrayEquals(data, Files.readAllBytes(tmp.resolve("f.bin")), "seed " + seed);

    try (BlockFile f = BlockFile.openRead(file, policy, NoticeSink.IGNORE);
        BlockReader r = new BlockReader(f, 0, f.size(), 16 << 10, 2)) {
      ByteBuffer got = ByteBuffer.allocate(size);
      ByteBuffer a = pool.tryAcquire();
      ByteBuffer b = pool.tryAcquire();
      r.submit(a);
      r.submit(b);
      while (true) {
        ByteBuffer x = r.take();
        int n = x.remaining();
        got.put(x);
        if (n < TRANSFER) {
          pool.release(x);
          pool.release(r.take());
          break;
        }
        r.submit(x.clear());
      }
      assertArrayEquals(data, got.array(), "seed " + seed);

      // positional: odd offsets and a heap buffer
      if (size > 10) {
        ByteBuffer h = ByteBuffer.allocate(size - 7);
        assertEquals(size - 7, f.read(7, h));
        assertEquals(ByteBuffer.wrap(data, 7, size - 7), h.flip());
      }
    }
    faults.assertNoOpenHandles();
  }

  @Test
  void autoFallsBackToBufferedWithOneNoticeWhenDirectIsRefused() throws IOException {
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(1).refuseDirect(true);
    List<String> notices = new ArrayList<>();
    Path file = faults.wrap(tmp.resolve("g.bin"));
    try (BlockFile f = BlockFile.createNew(file, DirectIoPolicy.AUTO, notices::add)) {
      assertFalse(f.isDirect());
      f.write(0, ByteBuffer.wrap(new byte[] {1, 2, 3}));
    }
    assertEquals(1, notices.size(), notices.toString());
    assertEquals(
        "direct I/O not supported in " + tmp + " (Invalid argument); using buffered I/O",
        notices.get(0));
    NoticeSink once = NoticeSink.distinct(notices::add);
    for (String name : new String[] {"g1", "g2"}) {
      try (BlockFile f =
          BlockFile.createNew(faults.wrap(tmp.resolve(name)), DirectIoPolicy.AUTO, once)) {
        assertFalse(f.isDirect());
      }
    }
    assertEquals(
        2, notices.size(), "one more notice for the directory, not one per file: " + notices);
    Files.delete(tmp.resolve("g1"));
    Files.delete(tmp.resolve("g2"));
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(tmp.resolve("g.bin")));

    SortIOException e =
        assertThrows(
            SortIOException.class,
            () -> BlockFile.openRead(file, DirectIoPolicy.ON, NoticeSink.IGNORE));
    assertEquals("open (direct I/O)", e.op());
    assertTrue(
        e.getMessage()
            .startsWith(
                "open (direct I/O) failed: "
                    + tmp.resolve("g.bin")
                    + ": file system does not support direct I/O"),
        e.getMessage());
    faults.assertNoOpenHandles();
  }

  @Test
  void realErrorsAreNotHiddenByTheFallback() {
    Path missing = tmp.resolve("missing");
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () -> BlockFile.openRead(missing, DirectIoPolicy.AUTO, NoticeSink.IGNORE));
    assertEquals("open failed: " + missing + ": No such file or directory", e.getMessage());
  }

  @Test
  void backgroundWriteErrorSurfacesOnTheNextCall() throws IOException {
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(2);
    Path file = faults.wrap(tmp.resolve("h.bin"));
    try (BlockFile f = BlockFile.createNew(file, DirectIoPolicy.ON, NoticeSink.IGNORE);
        BlockWriter w = new BlockWriter(f, pool, 2)) {
      faults.failAt(FaultOp.WRITE, 2);
      ByteBuffer chunk = ByteBuffer.allocate(TRANSFER);
      IOException e =
          assertThrows(
              IOException.class,
              () -> {
                for (int i = 0; i < 100; i++) {
                  w.write(chunk.clear());
                }
                w.finish(true);
              });
      assertEquals(
          "write failed: " + tmp.resolve("h.bin") + ": Input/output error", e.getMessage());
    }
    faults.assertNoOpenHandles();
  }

  @Test
  void backgroundReadErrorSurfacesOnTake() throws IOException {
    Files.write(tmp.resolve("r.bin"), new byte[3 * TRANSFER]);
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(3);
    Path file = faults.wrap(tmp.resolve("r.bin"));
    try (BlockFile f = BlockFile.openRead(file, DirectIoPolicy.AUTO, NoticeSink.IGNORE);
        BlockReader r = new BlockReader(f, 0, f.size(), TRANSFER, 2)) {
      faults.failAt(FaultOp.READ, 1);
      ByteBuffer a = pool.tryAcquire();
      try {
        r.submit(a);
        SortIOException e = assertThrows(SortIOException.class, r::take);
        assertEquals("read", e.op());
        assertEquals(tmp.resolve("r.bin").toString(), e.path().toString());
        assertThrows(SortIOException.class, r::take, "the error is not consumed by the first call");
      } finally {
        pool.release(a);
      }
    }
  }

  @Test
  void forceIsNeverRetriedAfterFailure() throws IOException {
    FaultFileSystemProvider faults = FaultFileSystemProvider.create(4);
    Path file = faults.wrap(tmp.resolve("s.bin"));
    try (BlockFile f = BlockFile.createNew(file, DirectIoPolicy.OFF, NoticeSink.IGNORE)) {
      f.write(0, ByteBuffer.wrap(new byte[10]));
      faults.failAt(FaultOp.FORCE, 1);
      assertThrows(SortIOException.class, f::force);
      long forces = faults.count(FaultOp.FORCE);
      SortIOException again = assertThrows(SortIOException.class, f::force);
      assertTrue(
          again.getMessage().contains("an earlier fsync of this file failed"), again.getMessage());
      assertEquals(forces, faults.count(FaultOp.FORCE), "force() must not reach the OS again");
    }
  }

  @Test
  void poolRefusesForeignAndDoubleRelease() throws InterruptedException {
    ByteBuffer b = pool.acquire();
    assertEquals(0, b.alignmentOffset(0, 4096));
    assertEquals(TRANSFER, b.capacity());
    pool.release(b);
    assertThrows(IllegalArgumentException.class, () -> pool.release(b));
    assertThrows(
        IllegalArgumentException.class, () -> pool.release(ByteBuffer.allocateDirect(TRANSFER)));
  }

  /** O_DIRECT works on tmpfs on these machines: the same bytes as buffered, odd size included. */
  @Test
  void directOnTmpfs() throws IOException {
    Path shm = Path.of("/dev/shm");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(shm), "no /dev/shm");
    Path dir = Files.createTempDirectory(shm, "joule-io-test");
    try {
      byte[] data = IoTestSupport.randomBytes(9, 3 * TRANSFER + 4095);
      Path f = dir.resolve("t");
      try (BlockFile bf = BlockFile.createNew(f, DirectIoPolicy.ON, NoticeSink.IGNORE);
          BlockWriter w = new BlockWriter(bf, pool, 2)) {
        assertTrue(bf.isDirect());
        w.write(ByteBuffer.wrap(data));
        w.finish(true);
      }
      try (BlockFile bf = BlockFile.openRead(f, DirectIoPolicy.ON, NoticeSink.IGNORE)) {
        ByteBuffer b = pool.tryAcquire();
        try {
          assertEquals(TRANSFER, bf.read(TRANSFER, b));
          assertEquals(ByteBuffer.wrap(data, TRANSFER, TRANSFER), b.flip());
        } finally {
          pool.release(b);
        }
      }
      assertArrayEquals(data, Files.readAllBytes(f));
    } finally {
      Files.deleteIfExists(dir.resolve("t"));
      Files.delete(dir);
    }
  }

  /** Several threads read blocks of one shared file by position at the same time. */
  @Test
  void concurrentPositionalReadersShareOneFile() throws Exception {
    byte[] data = IoTestSupport.randomBytes(12, 64 * 4096 + 123);
    Files.write(tmp.resolve("shared"), data);
    try (BlockFile f =
        BlockFile.openRead(tmp.resolve("shared"), DirectIoPolicy.ON, NoticeSink.IGNORE)) {
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < 3; t++) {
        ByteBuffer buf = pool.acquire();
        int seed = t;
        threads.add(
            new Thread(
                () -> {
                  try {
                    java.util.Random r = new java.util.Random(seed);
                    for (int i = 0; i < 200; i++) {
                      int block = r.nextInt(65);
                      buf.clear().limit(8192);
                      int n = f.read(block * 4096L, buf);
                      assertEquals(ByteBuffer.wrap(data, block * 4096, n), buf.flip());
                    }
                  } catch (Throwable e) {
                    errors.add(e);
                  } finally {
                    pool.release(buf);
                  }
                },
                "test-reader-" + t));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(List.of(), errors);
    }
  }

  @Test
  void transferSizesAreAlignedAndPerKind() {
    TransferSizes t = TransferSizes.defaults().with(FileKind.TEMP, 1 << 20);
    assertEquals(4 << 20, t.of(FileKind.INPUT));
    assertEquals(1 << 20, t.of(FileKind.TEMP));
    assertThrows(IllegalArgumentException.class, () -> t.with(FileKind.OUTPUT, 1000));
  }
}
