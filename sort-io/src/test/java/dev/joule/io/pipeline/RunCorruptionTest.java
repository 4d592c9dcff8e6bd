package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reliability.md F5: between run formation and the merge ({@link
 * TestHooks#afterRunFormation}), one run file is damaged in one of Lucene's {@code crash()} ways,
 * and the sort must detect it every time: {@link CorruptRunException} (exit 3), or for a deleted
 * run a {@link SortIOException} naming that file; never a success. The damage modes: a single-bit
 * flip anywhere (at random), in the header, in a data block, in the last data byte, in the footer;
 * truncation to 0, to half, by one byte; zero fill; deletion; garbage appended; and the footer's
 * record count, the footer's block count and a block's record count rewritten to a huge value with
 * the region's CRC recomputed (so only the structural checks can catch them). "Undamaged" must sort
 * correctly. {@code -Djoule.corruption.flips=N} (default 1000) sets the number of random single-bit
 * flips; every case is reproducible from the seed in its message.
 */
class RunCorruptionTest {
  static final int FLIPS = Integer.getInteger("joule.corruption.flips", 1000);
  static final long BASE = Long.getLong("joule.corruption.base", 0xBADB17L);
  static final FixedLengthFormat FORMAT = RecordFormat.fixed(16, KeySpec.bytes(0, 10));
  static final byte[] FOOTER_MAGIC = "JRUNFOOT".getBytes(StandardCharsets.US_ASCII);

  enum Damage {
    UNDAMAGED,
    FLIP_ANY,
    FLIP_HEADER,
    FLIP_DATA,
    FLIP_LAST_DATA_BYTE,
    FLIP_FOOTER,
    TRUNCATE_0,
    TRUNCATE_HALF,
    TRUNCATE_MINUS_1,
    ZERO_FILL,
    DELETE,
    APPEND_GARBAGE,
    HUGE_RECORD_COUNT,
    HUGE_BLOCK_COUNT,
    HUGE_BLOCK_RECORDS
  }

  @TempDir Path dir;

  final Map<Damage, int[]> tally =
      new EnumMap<>(Damage.class); // cases, ok, CorruptRunException, SortIOException

  @Test
  void everyDamageModeIsDetectedAndUndamagedPasses() throws Exception {
    Path base =
        Files.isWritable(Path.of("/dev/shm"))
            ? Files.createTempDirectory(Path.of("/dev/shm"), "corruption-test-")
            : dir;
    try {
      SplittableRandom seeds = new SplittableRandom(BASE);
      int i = 0;
      for (Damage d : Damage.values()) {
        for (int rep = 0; rep < 8; rep++) {
          runCase(base, i++, seeds.nextLong(), d);
        }
      }
      Damage[] flips = {
        Damage.FLIP_ANY, Damage.FLIP_HEADER, Damage.FLIP_DATA, Damage.FLIP_FOOTER, Damage.FLIP_ANY
      };
      for (int f = 0; f < FLIPS; f++) {
        long seed = seeds.nextLong();
        runCase(base, i++, seed, flips[(int) Math.floorMod(seed, (long) flips.length)]);
      }
    } finally {
      if (!base.equals(dir)) {
        FaultCampaignTest.deleteTree(base);
      }
    }
    StringBuilder sb = new StringBuilder("run corruption (base seed " + BASE + "):");
    int cases = 0;
    int detected = 0;
    for (Map.Entry<Damage, int[]> e : tally.entrySet()) {
      int[] v = e.getValue();
      sb.append(
          String.format(
              "%n  %-20s cases %5d  as expected %5d  (corrupt run: %d, I/O error naming the run:"
                  + " %d)",
              e.getKey(), v[0], v[1], v[2], v[3]));
      if (e.getKey() != Damage.UNDAMAGED) {
        cases += e.getValue()[0];
        detected += e.getValue()[1];
      }
    }
    sb.append(
        String.format(
            "%n  detection rate %d/%d = %.2f %%", detected, cases, 100.0 * detected / cases));
    System.out.println(sb);
    assertEquals(cases, detected, sb.toString());
  }

  void runCase(Path base, int index, long seed, Damage damage) throws Exception {
    String ctx = "-Djoule.corruption.base=... case seed " + seed + " damage " + damage;
    Path caseDir = Files.createDirectory(base.resolve("c" + index));
    try {
      Random r = new Random(seed);
      long q = Alignment.recordQuantum(FORMAT.recordSize());
      int runs = 3 + r.nextInt(4);
      byte[] data =
          PipelineTestSupport.records(seed, (runs - 1) * q + 1 + r.nextInt((int) q), FORMAT, 0);
      Path in = caseDir.resolve("in");
      Files.write(in, data);
      List<Path> stripes = new ArrayList<>();
      for (int s = 0; s < 1 + r.nextInt(2); s++) {
        stripes.add(Files.createDirectory(caseDir.resolve("s" + s)));
      }
      Path out = caseDir.resolve("out");
      boolean previous = r.nextBoolean();
      if (previous) {
        Files.write(out, new byte[] {'o', 'l', 'd'});
      }
      Path[] victim = new Path[1];
      SortConfig c =
          TestHooks.afterRunFormation(
                  TestHooks.runRecordsLimit(SortConfig.builder(), q),
                  files -> {
                    victim[0] = files.get(r.nextInt(files.size()));
                    try {
                      damage(victim[0], damage, r);
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  })
              .format(FORMAT)
              .memoryBudget(DataSize.ofMiB(8))
              .threads(1 + r.nextInt(2))
              .tempDirs(stripes)
              .transferSize(FileKind.TEMP, DataSize.ofKiB(4 << r.nextInt(2)))
              .transferSize(FileKind.INPUT, DataSize.ofKiB(16))
              .transferSize(FileKind.OUTPUT, DataSize.ofKiB(16))
              .directIo(DirectIoPolicy.OFF)
              .fanIn(
                  r.nextBoolean()
                      ? 2
                      : 0) // intermediate merges read the damaged run, or the final merge does
              .build();
      CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
      int[] t = tally.computeIfAbsent(damage, k -> new int[4]);
      t[0]++;
      try {
        ExternalSorter.sort(in, out, c);
        assertTrue(
            damage == Damage.UNDAMAGED,
            () -> ctx + ": damage not detected, sort succeeded (victim " + victim[0] + ")");
        assertArrayEquals(
            PipelineTestSupport.reference(data, FORMAT), Files.readAllBytes(out), ctx);
        before.assertNoTempsOrLeaks(ctx, null);
        t[1]++;
      } catch (CorruptRunException e) {
        before.assertCleanFailure(e, null, false, ctx);
        assertEquals(victim[0], e.file(), ctx + ": names another file: " + e.getMessage());
        t[1]++;
        t[2]++;
      } catch (SortIOException e) {
        assertTrue(
            damage == Damage.DELETE || damage == Damage.TRUNCATE_0,
            ctx + ": damage reported as an I/O error, not as corruption: " + e.getMessage());
        assertEquals(victim[0].toString(), String.valueOf(e.path()), ctx + ": " + e.getMessage());
        before.assertCleanFailure(e, "No such file or directory|.+", false, ctx);
        t[1]++;
        t[3]++;
      } catch (IOException | RuntimeException e) {
        throw new AssertionError(ctx + ": untyped failure " + e, e);
      }
    } finally {
      FaultCampaignTest.deleteTree(caseDir);
    }
  }

  /** Applies {@code d} to run file {@code f} in place. */
  static void damage(Path f, Damage d, Random r) throws IOException {
    byte[] b = Files.readAllBytes(f);
    int footer = lastIndexOf(b, FOOTER_MAGIC);
    assertTrue(footer > 4096, "footer not found in " + f);
    switch (d) {
      case UNDAMAGED -> {}
      case FLIP_ANY -> flip(b, r.nextInt(b.length), r);
      case FLIP_HEADER -> flip(b, r.nextInt(4096), r);
      case FLIP_DATA -> flip(b, 4096 + r.nextInt(footer - 4096), r);
      case FLIP_LAST_DATA_BYTE -> flip(b, footer - 1, r);
      case FLIP_FOOTER -> flip(b, footer + r.nextInt(b.length - footer), r);
      case TRUNCATE_0 -> b = new byte[0];
      case TRUNCATE_HALF -> b = java.util.Arrays.copyOf(b, b.length / 2);
      case TRUNCATE_MINUS_1 -> b = java.util.Arrays.copyOf(b, b.length - 1);
      case ZERO_FILL -> b = new byte[b.length];
      case DELETE -> {
        Files.delete(f);
        return;
      }
      case APPEND_GARBAGE -> {
        byte[] g = new byte[1 + r.nextInt(8192)];
        r.nextBytes(g);
        Files.write(f, g, StandardOpenOption.APPEND);
        return;
      }
      case HUGE_RECORD_COUNT -> {
        ByteBuffer.wrap(b).putLong(footer + 8, Long.MAX_VALUE / 3);
        recrcFooter(b, footer);
      }
      case HUGE_BLOCK_COUNT -> {
        ByteBuffer.wrap(b).putInt(footer + 32, Integer.MAX_VALUE - 7);
        recrcFooter(b, footer);
      }
      case HUGE_BLOCK_RECORDS -> {
        // the first data block: its length is the header's block size B (or the whole data if one
        // block)
        int blockSize = ByteBuffer.wrap(b).getInt(28);
        int len = Math.min(blockSize, footer - 4096);
        ByteBuffer bb = ByteBuffer.wrap(b);
        bb.putInt(4096 + len - 8, Integer.MAX_VALUE - 3);
        bb.putInt(4096 + len - 4, crc(b, 4096, 4096 + len - 4));
      }
    }
    Files.write(f, b);
  }

  private static void recrcFooter(byte[] b, int footer) {
    int len = b.length - footer;
    ByteBuffer.wrap(b).putInt(b.length - 4, crc(b, footer, footer + len - 4));
  }

  private static int crc(byte[] b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b, from, to - from);
    return (int) c.getValue();
  }

  private static void flip(byte[] b, int at, Random r) {
    b[at] ^= (byte) (1 << r.nextInt(8));
  }

  /** Offset of the footer region: the last 4096-aligned page starting with the footer magic. */
  private static int lastIndexOf(byte[] b, byte[] m) {
    for (int i = (b.length / 4096 - 1) * 4096; i >= 0; i -= 4096) {
      if (java.util.Arrays.equals(b, i, i + m.length, m, 0, m.length)) {
        return i;
      }
    }
    return -1;
  }
}
