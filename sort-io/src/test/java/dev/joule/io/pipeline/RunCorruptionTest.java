package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.SortInputs;
import dev.joule.io.testing.SortInputs.Family;
import dev.joule.io.testing.SortInputs.Input;
import dev.joule.io.testing.SortInputs.Kind;
import dev.joule.io.testing.TestHooks;
import dev.joule.io.testing.Watchdog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/reliability.md F5: between run formation and the merge ({@link
 * TestHooks#afterRunFormation}), one run file is damaged in one of Lucene's {@code crash()} ways,
 * and the sort must detect it every time: {@link CorruptRunException} (exit 3) naming that file, or
 * for a deleted run a {@link SortIOException} naming it; never a success. The damage modes: a
 * single-bit flip anywhere (at random), in the header, in a data block, in the last data byte, in
 * the footer, in a record that spans blocks; truncation to 0, to half, by one byte; zero fill;
 * deletion; garbage appended; and fields rewritten with the region's CRC recomputed, so that only
 * the structural checks can catch them: the footer's entry count and block count, a block's entry
 * count and used bytes, the length of an entry inside a block. "Undamaged" must sort correctly.
 *
 * <p>Run over fixed records, text lines with GNU's {@code -k2,2n} (entries with a stored key) and
 * length-prefixed rows (entries that are the record), both with records longer than a temp block:
 * where an entry spans blocks; and over lines and rows whose run blocks are compressed (LZ4, zstd).
 * {@code -Djoule.corruption.flips=N} (default 1000) sets the number of random single-bit flips over
 * fixed records (an eighth of that over each variable format, whose flips the same CRCs catch, at
 * twice the cost per case); every case is reproducible from the seed in its message.
 */
class RunCorruptionTest {
  static final int FLIPS = Integer.getInteger("joule.corruption.flips", 1000);
  static final long BASE = Long.getLong("joule.corruption.base", 0xBADB17L);
  static final byte[] FOOTER_MAGIC = "JRUNFOOT".getBytes(StandardCharsets.US_ASCII);

  /** A case still running after this has hung (each takes well under a second). */
  static final Duration HANG = Duration.ofSeconds(20);

  enum Damage {
    UNDAMAGED,
    FLIP_ANY,
    FLIP_HEADER,
    FLIP_DATA,
    FLIP_LAST_DATA_BYTE,
    FLIP_FOOTER,
    FLIP_SPANNING_RECORD,
    TRUNCATE_0,
    TRUNCATE_HALF,
    TRUNCATE_MINUS_1,
    ZERO_FILL,
    DELETE,
    APPEND_GARBAGE,
    HUGE_RECORD_COUNT,
    HUGE_BLOCK_COUNT,
    HUGE_BLOCK_RECORDS,
    BLOCK_USED_BYTES,
    ENTRY_LENGTH;

    /** Whether the damage exists for runs of {@code kind}: fixed-size entries never span. */
    boolean appliesTo(Kind kind) {
      return kind.family != Family.FIXED || (this != FLIP_SPANNING_RECORD && this != ENTRY_LENGTH);
    }

    /**
     * What the message must say for a rewritten field (its CRC recomputed): the structural check
     * meant for it caught it, not another check by accident.
     */
    String expectedCheck() {
      return switch (this) {
        case HUGE_RECORD_COUNT -> "inconsistent footer|footer geometry";
        case HUGE_BLOCK_COUNT -> "inconsistent footer";
        case HUGE_BLOCK_RECORDS -> "block \\d+ entry count mismatch";
        // in a continuation piece only the cursor that joins the pieces can tell
        case BLOCK_USED_BYTES -> "block \\d+.*(used bytes|continuation|last piece)";
        case ENTRY_LENGTH -> "block \\d+\\b.*entr";
        default -> null;
      };
    }
  }

  @TempDir Path dir;

  final Map<Damage, int[]> tally =
      new EnumMap<>(Damage.class); // cases, ok, CorruptRunException, SortIOException

  /** How the campaign's sorts compress their runs. */
  Compression compression = Compression.off();

  /** Victim runs that held at least one compressed block. */
  int compressedVictims;

  @ParameterizedTest
  @EnumSource(names = {"FIXED_16", "LINES_K2N", "ROWS"})
  void everyDamageModeIsDetectedAndUndamagedPasses(Kind kind) throws Exception {
    boolean fixed = kind.family == Family.FIXED;
    campaign(kind, fixed ? 8 : 4, fixed ? FLIPS : FLIPS / 8);
  }

  /**
   * The same damage over runs whose blocks are compressed (run format v3): a flipped bit in a
   * compressed block is caught by the CRC32C of its stored bytes before it is decompressed, and the
   * rewritten trailer fields by the same structural checks. The length of an entry inside a block
   * is not a damage mode here: the entries of a compressed block are not in the file as such.
   */
  @ParameterizedTest
  @EnumSource(names = {"LINES_K2N", "ROWS"})
  void everyDamageModeIsDetectedInCompressedRuns(Kind kind) throws Exception {
    compression = kind == Kind.ROWS ? Compression.zstd(3) : Compression.lz4();
    campaign(kind, 1, FLIPS / 25);
    assertTrue(
        compressedVictims > 0, "no damaged run held a compressed block: the test proves nothing");
  }

  private void campaign(Kind kind, int reps, int flipCases) throws Exception {
    Path base =
        Files.isWritable(Path.of("/dev/shm"))
            ? Files.createTempDirectory(Path.of("/dev/shm"), "corruption-test-")
            : dir;
    boolean fixed = kind.family == Family.FIXED;
    try {
      SplittableRandom seeds = new SplittableRandom(BASE ^ kind.ordinal());
      int i = 0;
      for (Damage d : Damage.values()) {
        boolean applies =
            d.appliesTo(kind)
                && (d != Damage.ENTRY_LENGTH || compression.equals(Compression.off()));
        for (int rep = 0; rep < reps && applies; rep++) {
          runCase(base, kind, i++, seeds.nextLong(), d);
        }
      }
      Damage[] flips = {
        Damage.FLIP_ANY,
        Damage.FLIP_HEADER,
        Damage.FLIP_DATA,
        Damage.FLIP_FOOTER,
        Damage.FLIP_ANY,
        fixed ? Damage.FLIP_DATA : Damage.FLIP_SPANNING_RECORD
      };
      for (int f = 0; f < flipCases; f++) {
        long seed = seeds.nextLong();
        runCase(base, kind, i++, seed, flips[(int) Math.floorMod(seed, (long) flips.length)]);
      }
    } finally {
      if (!base.equals(dir)) {
        FaultCampaignTest.deleteTree(base);
      }
    }
    StringBuilder sb =
        new StringBuilder(
            "run corruption, " + kind + ", " + compression + " (base seed " + BASE + "):");
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

  /** Records per run of {@code kind} (with the tests' run limit hook). */
  static long runRecords(Kind kind) {
    return kind.family == Family.FIXED
        ? Alignment.recordQuantum(kind.fixedFormat().recordSize())
        : 150;
  }

  void runCase(Path base, Kind kind, int index, long seed, Damage damage) throws Exception {
    String ctx =
        kind + ", -Djoule.corruption.base=... case seed " + seed + " damage " + damage + ": ";
    Path caseDir = Files.createDirectory(base.resolve("c" + index));
    try {
      Random r = new Random(seed);
      long q = runRecords(kind);
      int runs = 3 + r.nextInt(4);
      Input input =
          SortInputs.of(
              kind, seed, (runs - 1) * q + 1 + r.nextInt((int) q), 0, SortInputs.Options.DEFAULT);
      ctx += input + ": ";
      Path in = caseDir.resolve("in");
      Files.write(in, input.data());
      List<Path> stripes = new ArrayList<>();
      // One stripe: the damage is laid out on a whole run file (a striped run's segments each hold
      // every other block; StripeMapTest and the striped sorts cover that layout).
      stripes.add(Files.createDirectory(caseDir.resolve("s0")));
      r.nextInt(2); // keeps the later draws, and so the cases, of a seed as they were
      Path out = caseDir.resolve("out");
      boolean previous = r.nextBoolean();
      if (previous) {
        Files.write(out, new byte[] {'o', 'l', 'd'});
      }
      Path[] victim = new Path[1];
      SortConfig.Builder b =
          TestHooks.afterRunFormation(
              TestHooks.runRecordsLimit(SortConfig.builder(), q),
              files -> {
                try {
                  victim[0] = victim(files, damage, r);
                  if (RunFileLayout.of(Files.readAllBytes(victim[0])).anyCompressed()) {
                    compressedVictims++;
                  }
                  damage(victim[0], damage, r);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      SortConfig c =
          input
              .configure(b)
              .memoryBudget(DataSize.ofMiB(8))
              .threads(1 + r.nextInt(2))
              .tempDirs(stripes)
              .transferSize(FileKind.TEMP, DataSize.ofKiB(4 << r.nextInt(2)))
              .transferSize(FileKind.INPUT, DataSize.ofKiB(16))
              .transferSize(FileKind.OUTPUT, DataSize.ofKiB(16))
              .directIo(DirectIoPolicy.OFF)
              .compression(compression)
              // intermediate merges read the damaged run, or the final merge does
              .fanIn(r.nextBoolean() ? 2 : 0)
              .build();
      CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
      int[] t = tally.computeIfAbsent(damage, k -> new int[4]);
      t[0]++;
      Throwable failure = null;
      try (Watchdog dog = Watchdog.start(HANG)) {
        try {
          ExternalSorter.sort(in, out, c);
        } catch (IOException | RuntimeException e) {
          failure = e;
        }
        if (dog.fired()) {
          throw new AssertionError(ctx + "the sort hung: interrupted after " + HANG, failure);
        }
      }
      if (failure == null) {
        assertTrue(
            damage == Damage.UNDAMAGED,
            ctx + "damage not detected, sort succeeded (victim " + victim[0] + ")");
        assertArrayEquals(input.expected(), Files.readAllBytes(out), ctx);
        before.assertNoTempsOrLeaks(ctx, null);
        t[1]++;
      } else if (failure instanceof CorruptRunException e) {
        before.assertCleanFailure(e, null, false, ctx);
        assertEquals(victim[0], e.file(), ctx + "names another file: " + e.getMessage());
        String check = damage.expectedCheck();
        assertTrue(
            check == null || Pattern.compile(check).matcher(e.getMessage()).find(),
            ctx + "not caught by the check for it (" + check + "): " + e.getMessage());
        t[1]++;
        t[2]++;
      } else if (failure instanceof SortIOException e) {
        assertTrue(
            damage == Damage.DELETE || damage == Damage.TRUNCATE_0,
            ctx + "damage reported as an I/O error, not as corruption: " + e.getMessage());
        assertEquals(victim[0].toString(), String.valueOf(e.path()), ctx + e.getMessage());
        before.assertCleanFailure(e, "No such file or directory|.+", false, ctx);
        t[1]++;
        t[3]++;
      } else {
        throw new AssertionError(ctx + "untyped failure " + failure, failure);
      }
    } finally {
      FaultCampaignTest.deleteTree(caseDir);
    }
  }

  /**
   * The run to damage: any, or for {@link Damage#FLIP_SPANNING_RECORD} one holding an entry that
   * spans blocks (every input has such entries in some run).
   */
  static Path victim(List<Path> files, Damage d, Random r) throws IOException {
    List<Path> candidates = new ArrayList<>();
    for (Path f : files) {
      if (d != Damage.FLIP_SPANNING_RECORD
          || !RunFileLayout.of(Files.readAllBytes(f)).continuationBlocks().isEmpty()) {
        candidates.add(f);
      }
    }
    assertTrue(!candidates.isEmpty(), "no run for " + d + " among " + files);
    return candidates.get(r.nextInt(candidates.size()));
  }

  /** Applies {@code d} to run file {@code f} in place. */
  static void damage(Path f, Damage d, Random r) throws IOException {
    byte[] b = Files.readAllBytes(f);
    RunFileLayout run = RunFileLayout.of(b);
    int footer = run.footerOffset();
    assertEquals(footer, lastIndexOf(b, FOOTER_MAGIC), "footer of " + f);
    ByteBuffer bb = ByteBuffer.wrap(b);
    switch (d) {
      case UNDAMAGED -> {}
      case FLIP_ANY -> flip(b, r.nextInt(b.length), r);
      case FLIP_HEADER -> flip(b, r.nextInt(4096), r);
      case FLIP_DATA -> flip(b, 4096 + r.nextInt(footer - 4096), r);
      case FLIP_LAST_DATA_BYTE -> flip(b, footer - 1, r);
      case FLIP_FOOTER -> flip(b, footer + r.nextInt(b.length - footer), r);
      case FLIP_SPANNING_RECORD -> {
        // a byte of an entry's continuation in a block that starts no entry
        List<Integer> blocks = run.continuationBlocks();
        int k = blocks.get(r.nextInt(blocks.size()));
        flip(b, run.blockOffset(k) + r.nextInt(run.dataBytes(bb, k)), r);
      }
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
        bb.putLong(footer + 8, Long.MAX_VALUE / 3);
        recrcFooter(b, footer);
      }
      case HUGE_BLOCK_COUNT -> {
        bb.putInt(footer + 32, Integer.MAX_VALUE - 7);
        recrcFooter(b, footer);
      }
      case HUGE_BLOCK_RECORDS -> {
        int k = r.nextInt(run.blockCount());
        bb.putInt(run.blockEnd(k) - 8, Integer.MAX_VALUE - 3);
        run.recrcBlock(b, k);
      }
      case BLOCK_USED_BYTES -> {
        int k = r.nextInt(run.blockCount());
        int used = run.usedBytes(bb, k);
        int len = run.blockLength(k);
        // past the block's payload, or short of what its entries fill
        bb.putInt(run.blockEnd(k) - 12, r.nextBoolean() ? len - 11 + r.nextInt(1 << 20) : used - 1);
        run.recrcBlock(b, k);
      }
      case ENTRY_LENGTH -> {
        // the length field of an entry that is not its block's first (the footer keeps the
        // first one's key), made a little shorter or longer, or huge
        int[] at = run.nonFirstEntry(bb, r);
        assertTrue(at != null, "no block of " + f + " starts two entries");
        int len = bb.getInt(at[1]);
        int delta = 1 + r.nextInt(8);
        bb.putInt(
            at[1],
            switch (r.nextInt(3)) {
              case 0 -> Math.max(0, len - delta);
              case 1 -> len + delta;
              default -> 0x1000_0000 + r.nextInt(1 << 20);
            });
        if (bb.getInt(at[1]) == len) {
          bb.putInt(at[1], len + 1);
        }
        run.recrcBlock(b, at[0]);
      }
    }
    Files.write(f, b);
  }

  /**
   * A run file's geometry read from its bytes by the documented format v3 (independently of {@code
   * RunReader}): header fields at 16 (key place) and 32 (block size B); blocks one after another
   * from 4096, each as long as the footer's row says (B, or L for the last, when stored raw; fewer
   * pages when compressed), each ending with used bytes, entries starting there and the CRC32C; the
   * footer found through its trailer, with the block count at 32, L at 36 and per block 76 bytes
   * from 56: the entries starting in the block, the first key's length, the stored length.
   */
  static final class RunFileLayout {
    final int keyPlace;
    final int blockSize;
    final int footerOffset;
    final int blockCount;
    final int lastLength;
    final int[] starting;
    final int[] stored;
    final int[] offset;

    private RunFileLayout(byte[] file) {
      ByteBuffer b = ByteBuffer.wrap(file);
      keyPlace = b.getInt(16);
      blockSize = b.getInt(32);
      footerOffset = (int) b.getLong(file.length - 16);
      blockCount = b.getInt(footerOffset + 32);
      lastLength = b.getInt(footerOffset + 36);
      starting = new int[blockCount];
      stored = new int[blockCount];
      offset = new int[blockCount];
      int at = 4096;
      for (int k = 0; k < blockCount; k++) {
        starting[k] = b.getInt(footerOffset + 56 + 76 * k);
        stored[k] = b.getInt(footerOffset + 56 + 76 * k + 8);
        offset[k] = at;
        at += stored[k];
      }
    }

    static RunFileLayout of(byte[] file) {
      return new RunFileLayout(file);
    }

    int footerOffset() {
      return footerOffset;
    }

    int blockCount() {
      return blockCount;
    }

    int blockOffset(int k) {
      return offset[k];
    }

    /** Bytes of block {@code k} uncompressed. */
    int blockLength(int k) {
      return k == blockCount - 1 ? lastLength : blockSize;
    }

    /** Whether any block is stored compressed. */
    boolean anyCompressed() {
      for (int k = 0; k < blockCount; k++) {
        if (compressed(k)) {
          return true;
        }
      }
      return false;
    }

    /** Whether block {@code k} is stored compressed (its entries are not where they seem). */
    boolean compressed(int k) {
      return stored[k] < blockLength(k);
    }

    int blockEnd(int k) {
      return blockOffset(k) + stored[k];
    }

    /** Bytes of block {@code k} that hold data: its used bytes raw, or its compressed bytes. */
    int dataBytes(ByteBuffer b, int k) {
      return compressed(k) ? b.getInt(blockEnd(k) - 16) : usedBytes(b, k);
    }

    int usedBytes(ByteBuffer b, int k) {
      return b.getInt(blockEnd(k) - 12);
    }

    /** Blocks that start no entry: they continue one that spans blocks. */
    List<Integer> continuationBlocks() {
      List<Integer> out = new ArrayList<>();
      for (int k = 0; k < blockCount; k++) {
        if (starting[k] == 0) {
          out.add(k);
        }
      }
      return out;
    }

    /**
     * {block, offset} of the length field that frames an entry (the record length; the key length
     * when the key ends with the record), the entry not its block's first; null if no block starts
     * two entries. Variable entries: a u32 record length, then for a stored key of variable length
     * its u32 length and the key, then the record (unless the key ends with it).
     */
    int[] nonFirstEntry(ByteBuffer b, Random r) { // in a block stored raw
      List<int[]> found = new ArrayList<>();
      for (int k = 0; k < blockCount; k++) {
        int at = blockOffset(k);
        for (int e = 0; e < starting[k] && !compressed(k); e++) {
          if (e > 0) {
            found.add(new int[] {k, keyPlace == 3 ? at + 4 : at});
          }
          int len = 4 + b.getInt(at);
          if (keyPlace == 2) {
            len += 4 + b.getInt(at + 4);
          } else if (keyPlace == 3) {
            len = 8 + b.getInt(at + 4); // TAIL: the key ends with the record
          }
          at += len;
        }
      }
      return found.isEmpty() ? null : found.get(r.nextInt(found.size()));
    }

    /** Recomputes block {@code k}'s CRC32C after a field was rewritten. */
    void recrcBlock(byte[] file, int k) {
      int end = blockEnd(k);
      ByteBuffer.wrap(file).putInt(end - 4, crc(file, blockOffset(k), end - 4));
    }
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
