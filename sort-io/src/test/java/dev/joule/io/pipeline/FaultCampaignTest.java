package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import dev.joule.io.testing.PipelineTestSupport;
import dev.joule.io.testing.TestHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fault campaign (docs/reliability.md F2, F6, F16, F17) over {@link ExternalSorter#sort}:
 * each case draws a small configuration (record format, one pass / one merge / several merge
 * passes, 1–3 stripes, 1–2 threads, 4–64 KiB transfers, forced fan-in 2–4, runs of a few hundred
 * records) and one fault on the in-JVM fault layer: an IOException at the k-th operation of one
 * kind (open, read, write, force, move, delete), the disk full after N bytes, short reads and
 * writes, or nothing. k and N are drawn over the operations and bytes of a fault-free dry run of
 * the same configuration, so every phase is hit. Each case must end as a clean failure ({@link
 * CleanFailureContract}) or as output byte-identical to an in-memory reference sort.
 *
 * <p>{@code -Djoule.campaign.cases=N} (default 2000) sets the number of cases, {@code
 * -Djoule.campaign.base=S} the first case's seed; {@code -Djoule.campaign.seed=S} runs the single
 * case S (the seed every failure message prints). Per-category counts go to stdout.
 */
class FaultCampaignTest {
  static final int CASES = Integer.getInteger("joule.campaign.cases", 2000);
  static final long BASE = Long.getLong("joule.campaign.base", 0xC0FFEEL);
  static final Long ONE = Long.getLong("joule.campaign.seed");

  /** Configuration shapes the cases are spread over; each has one fault-free dry run. */
  static final int CONFIGS = Integer.getInteger("joule.campaign.configs", 64);

  static final FixedLengthFormat[] FORMATS = {
    RecordFormat.fixed(16, KeySpec.bytes(0, 10)),
    RecordFormat.fixed(32, KeySpec.bytes(4, 12)),
    RecordFormat.gensort(),
  };

  @TempDir Path dir;

  enum Fault {
    NONE,
    SHORT_IO,
    FAIL_AT,
    SHORT_IO_AND_FAIL_AT,
    DISK_FULL
  }

  /** One case, fully determined by its seed. */
  record Case(
      long seed,
      int config,
      FixedLengthFormat format,
      long records,
      long runLimit,
      int fanIn,
      int stripes,
      int threads,
      int tempKiB,
      int ioKiB,
      DirectIoPolicy direct,
      boolean previousOutput,
      Fault fault,
      FaultOp op,
      double where) {

    static Case of(long seed) {
      // The configuration comes from one of CONFIGS shapes (so their dry runs are shared), the
      // data,
      // fault and fault position from the seed itself.
      int config = (int) Math.floorMod(seed ^ (seed >>> 32), (long) CONFIGS);
      Random r = new Random(0x5EED_C0F1L + config);
      FixedLengthFormat f = FORMATS[r.nextInt(10) < 7 ? r.nextInt(2) : 2];
      long q = Alignment.recordQuantum(f.recordSize());
      int shape = r.nextInt(10); // 0-1 one pass, 2-4 one merge, 5-9 several passes
      long runLimit = q * (1 + r.nextInt(2));
      long records;
      int fanIn;
      if (shape < 2) {
        records = r.nextInt(4) == 0 ? r.nextInt(2) : 1 + r.nextInt((int) q * 2);
        runLimit = 0;
        fanIn = 0;
      } else {
        int runs = shape < 5 ? 2 + r.nextInt(2) : 5 + r.nextInt(12);
        records = (runs - 1) * runLimit + 1 + r.nextInt((int) runLimit);
        fanIn = shape < 5 ? 0 : 2 + r.nextInt(3);
      }
      int ioKiB = 4 << r.nextInt(5);
      int tempKiB = 4 << r.nextInt(3);
      DirectIoPolicy direct = r.nextInt(4) == 0 ? DirectIoPolicy.AUTO : DirectIoPolicy.OFF;
      int stripes = 1 + r.nextInt(3);
      int threads = 1 + r.nextInt(2);
      Random fr = new Random(seed);
      Fault fault = Fault.values()[pick(fr, 5, 10, 55, 10, 20)];
      FaultOp op = FaultOp.values()[pick(fr, 15, 25, 25, 15, 10, 10)];
      return new Case(
          seed,
          config,
          f,
          records,
          runLimit,
          fanIn,
          stripes,
          threads,
          tempKiB,
          ioKiB,
          direct,
          fr.nextBoolean(),
          fault,
          op,
          fr.nextDouble());
    }

    String shape() {
      return runLimit == 0 ? "one-pass" : fanIn == 0 ? "one-merge" : "multi-pass";
    }

    @Override
    public String toString() {
      return "case -Djoule.campaign.seed="
          + seed
          + " [config "
          + config
          + ", "
          + shape()
          + ", "
          + records
          + " x "
          + format.recordSize()
          + " B, runs of "
          + runLimit
          + ", fan-in "
          + fanIn
          + ", "
          + stripes
          + " stripes, "
          + threads
          + " threads, temp "
          + tempKiB
          + "K, io "
          + ioKiB
          + "K, "
          + direct
          + ", previous output "
          + previousOutput
          + ", fault "
          + fault
          + (fault == Fault.FAIL_AT || fault == Fault.SHORT_IO_AND_FAIL_AT ? " " + op : "")
          + " at "
          + where
          + "]";
    }
  }

  static int pick(Random r, int... weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int x = r.nextInt(total);
    for (int i = 0; ; i++) {
      x -= weights[i];
      if (x < 0) {
        return i;
      }
    }
  }

  /** Per category: cases, clean failures, validated successes. */
  final Map<String, long[]> tally = new TreeMap<>();

  @Test
  void everyCaseFailsCleanlyOrSortsCorrectly() throws Exception {
    long t0 = System.nanoTime();
    if (ONE != null) {
      runCase(Case.of(ONE), 0);
    } else {
      SplittableRandom seeds = new SplittableRandom(BASE);
      for (int i = 0; i < CASES; i++) {
        runCase(Case.of(seeds.nextLong()), i);
      }
    }
    StringBuilder sb = new StringBuilder("fault campaign (base seed " + BASE + "): ");
    long[] all = new long[3];
    tally.forEach(
        (k, v) -> {
          sb.append(
              String.format(
                  "%n  %-40s cases %5d  clean failures %5d  validated outputs %5d",
                  k, v[0], v[1], v[2]));
          for (int i = 0; i < 3; i++) {
            all[i] += v[i];
          }
        });
    sb.append(
        String.format(
            "%n  %-40s cases %5d  clean failures %5d  validated outputs %5d  (%d ms)",
            "TOTAL", all[0], all[1], all[2], (System.nanoTime() - t0) / 1_000_000));
    System.out.println(sb);
    if (base != null && !base.equals(dir)) {
      deleteTree(base);
    }
    if (ONE == null) {
      assertTrue(all[1] > CASES / 3, "faults were injected: " + sb);
      assertTrue(all[2] > CASES / 20, "some cases succeed: " + sb);
    }
  }

  /**
   * Cases run on /dev/shm when it is a writable tmpfs: fsync there is free, and on this VM's disk
   * the forces of a publish cost tens of milliseconds per case (the code paths are the same).
   */
  Path base() throws IOException {
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return Files.createTempDirectory(shm, "campaign-test-");
    }
    return dir;
  }

  Path base;

  /**
   * Regression sweep (fixed config, every k): a failure of any delete, force or rename at the end
   * of a sort (temp cleanup, the output's fsync, the directory fsync after the rename, the removal
   * of the previous version's link) must leave the previous output byte-identical and no temps.
   * Before the fixes, a failed run deletion after the publish and a failed directory fsync both
   * threw with the new output already in place, and a failed owner.lock deletion left the private
   * directory behind.
   */
  @Test
  void everyDeleteForceAndMoveFailureAtTheEndKeepsThePreviousOutput() throws Exception {
    base = base();
    FixedLengthFormat f = FORMATS[0];
    long q = Alignment.recordQuantum(f.recordSize());
    int failures = 0;
    for (FaultOp op : new FaultOp[] {FaultOp.DELETE, FaultOp.FORCE, FaultOp.MOVE}) {
      for (long k = 1; ; k++) {
        Case c =
            new Case(
                k,
                0,
                f,
                6 * q + 7,
                q,
                3,
                2,
                1,
                4,
                4,
                DirectIoPolicy.OFF,
                true,
                Fault.FAIL_AT,
                op,
                0);
        Path caseDir = Files.createDirectory(base.resolve("r" + op + k));
        try {
          byte[] data = PipelineTestSupport.records(k, c.records(), f, 0);
          Path in = caseDir.resolve("in");
          Files.write(in, data);
          List<Path> stripes =
              List.of(
                  Files.createDirectory(caseDir.resolve("s0")),
                  Files.createDirectory(caseDir.resolve("s1")));
          Path out = caseDir.resolve("out");
          Files.write(out, new byte[] {'o', 'l', 'd'});
          FaultFileSystemProvider faults = FaultFileSystemProvider.create(k).failAt(op, k);
          CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
          try {
            ExternalSorter.sort(
                faults.wrap(in), faults.wrap(out), config(c, faults, stripes, new int[1]));
            assertArrayEquals(
                PipelineTestSupport.reference(data, f), Files.readAllBytes(out), op + " k=" + k);
            before.assertNoTempsOrLeaks(op + " k=" + k, null);
            assertTrue(
                faults.faultIndex() < 0, op + " k=" + k + ": a fault fired and the sort succeeded");
            break; // k is past the last such operation
          } catch (IOException e) {
            before.assertCleanFailure(e, "Input/output error", false, op + " k=" + k);
            failures++;
          }
          faults.assertNoOpenHandles();
        } finally {
          deleteTree(caseDir);
        }
      }
    }
    deleteTree(base);
    assertTrue(failures > 10, "failures injected: " + failures);
  }

  void runCase(Case c, int index) throws Exception {
    if (base == null) {
      base = base();
    }
    Path caseDir = Files.createDirectory(base.resolve("c" + index));
    try {
      runCaseIn(c, caseDir);
    } catch (AssertionError | Exception e) {
      throw new AssertionError(c + ": " + e.getMessage(), e);
    } finally {
      deleteTree(caseDir);
    }
  }

  private void runCaseIn(Case c, Path caseDir) throws Exception {
    byte[] data =
        PipelineTestSupport.records(
            c.seed(), c.records(), c.format(), (int) (c.seed() & 3) == 0 ? 5 : 0);
    Path in = caseDir.resolve("in");
    Files.write(in, data);
    List<Path> stripes = new ArrayList<>();
    for (int i = 0; i < c.stripes(); i++) {
      stripes.add(Files.createDirectory(caseDir.resolve("s" + i)));
    }
    byte[] expected = PipelineTestSupport.reference(data, c.format());
    DryRun dr = dryRuns.get(c.config());
    if (dr == null) {
      dr = dryRun(c, caseDir, stripes);
      dryRuns.put(c.config(), dr);
    }
    Map<FaultOp, Long> counts = dr.counts();
    long written = dr.written();

    FaultFileSystemProvider faults = FaultFileSystemProvider.create(c.seed());
    String reason = "Input/output error";
    switch (c.fault()) {
      case NONE -> {}
      case SHORT_IO -> faults.shortIo(true);
      case FAIL_AT, SHORT_IO_AND_FAIL_AT -> {
        faults.shortIo(c.fault() == Fault.SHORT_IO_AND_FAIL_AT);
        long n = counts.get(c.op());
        faults.failAt(c.op(), 1 + (long) (c.where() * Math.max(1, n)));
      }
      case DISK_FULL -> {
        faults.diskFullAfter((long) (c.where() * written));
        reason = "No space left on device";
      }
    }
    Path out = caseDir.resolve("out");
    if (c.previousOutput()) {
      Files.write(out, new byte[] {'o', 'l', 'd', '\n'});
    }
    CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
    int[] hook = {-1};
    SortConfig config = config(c, faults, stripes, hook);
    String category;
    try {
      ExternalSorter.sort(faults.wrap(in), faults.wrap(out), config);
      assertArrayEquals(expected, Files.readAllBytes(out), "output differs from the reference");
      before.assertNoTempsOrLeaks("success", null);
      category = faults.faultIndex() < 0 ? "no fault fired" : "fault absorbed";
      count(c, category, false);
    } catch (IOException | RuntimeException e) {
      String what = before.assertCleanFailure(e, reason, false, "failure");
      category = phase(c, faults, hook[0], out);
      count(c, category + " (" + what + ")", true);
    }
    faults.assertNoOpenHandles();
  }

  record DryRun(Map<FaultOp, Long> counts, long written) {}

  final Map<Integer, DryRun> dryRuns = new java.util.HashMap<>();

  /**
   * A fault-free sort of the configuration's own data (same size as every case of it): the
   * operations per kind and the bytes written, over which k and N are drawn. Its output is checked.
   */
  DryRun dryRun(Case c, Path caseDir, List<Path> stripes) throws Exception {
    byte[] data = PipelineTestSupport.records(c.config(), c.records(), c.format(), 0);
    Path in = caseDir.resolve("dry.in");
    Files.write(in, data);
    FaultFileSystemProvider dry = FaultFileSystemProvider.create(c.config());
    Path dryOut = caseDir.resolve("dry.out");
    ExternalSorter.sort(dry.wrap(in), dry.wrap(dryOut), config(c, dry, stripes, new int[1]));
    assertArrayEquals(
        PipelineTestSupport.reference(data, c.format()), Files.readAllBytes(dryOut), "dry run");
    Files.delete(dryOut);
    Files.delete(in);
    Map<FaultOp, Long> counts = new EnumMap<>(FaultOp.class);
    for (FaultOp op : FaultOp.values()) {
      counts.put(op, dry.count(op));
    }
    return new DryRun(counts, dry.bytesWritten());
  }

  private void count(Case c, String phase, boolean failed) {
    String fault =
        switch (c.fault()) {
          case FAIL_AT, SHORT_IO_AND_FAIL_AT ->
              (c.fault() == Fault.SHORT_IO_AND_FAIL_AT ? "short+" : "")
                  + c.op().name().toLowerCase(java.util.Locale.ROOT);
          case DISK_FULL -> "disk full";
          case SHORT_IO -> "short io";
          case NONE -> "none";
        };
    long[] v = tally.computeIfAbsent(String.format("%-12s %s", fault, phase), k -> new long[3]);
    v[0]++;
    v[failed ? 1 : 2]++;
  }

  /** The phase the fault hit, from the operation log: setup, run formation, merges, publish. */
  static String phase(Case c, FaultFileSystemProvider faults, int hookIndex, Path out) {
    List<String> log = faults.log();
    int at = faults.faultIndex();
    if (at < 0) {
      return "unknown";
    }
    String entry = log.get(at);
    String outName = out.getFileName().toString();
    int outputOpened = -1;
    for (int i = 0; i < log.size(); i++) {
      String e = log.get(i);
      if (e.startsWith("OPEN ") && e.contains("/." + outName + ".")) {
        outputOpened = i;
        break;
      }
    }
    boolean onOutput =
        entry.contains("/." + outName + ".")
            || entry.endsWith("/" + outName)
            || entry.endsWith(out.getParent().toString());
    if (entry.startsWith("MOVE ") || (entry.startsWith("FORCE ") && onOutput)) {
      return "publish";
    }
    if (c.runLimit() == 0) {
      return "one-pass sort";
    }
    if (outputOpened >= 0 && at >= outputOpened) {
      return "final merge";
    }
    if (hookIndex >= 0 && at >= hookIndex) {
      return "intermediate merge";
    }
    return "run formation";
  }

  static SortConfig config(Case c, FaultFileSystemProvider fs, List<Path> stripes, int[] hook) {
    SortConfig.Builder b =
        SortConfig.builder()
            .format(c.format())
            .memoryBudget(DataSize.ofMiB(8))
            .threads(c.threads())
            .tempDirs(stripes.stream().map(fs::wrap).toList())
            .transferSize(FileKind.TEMP, DataSize.ofKiB(c.tempKiB()))
            .transferSize(FileKind.INPUT, DataSize.ofKiB(c.ioKiB()))
            .transferSize(FileKind.OUTPUT, DataSize.ofKiB(c.ioKiB()))
            .directIo(c.direct())
            .fanIn(c.fanIn());
    TestHooks.afterRunFormation(b, runs -> hook[0] = fs.log().size());
    if (c.runLimit() > 0) {
      TestHooks.runRecordsLimit(b, c.runLimit());
    }
    return b.build();
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var s = Files.walk(p)) {
      for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(x);
      }
    }
  }
}
