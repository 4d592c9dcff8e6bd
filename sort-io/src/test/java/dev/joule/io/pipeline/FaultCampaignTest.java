package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.memory.Alignment;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.CleanFailureContract;
import dev.joule.io.testing.FaultFileSystemProvider;
import dev.joule.io.testing.FaultOp;
import dev.joule.io.testing.SortInputs;
import dev.joule.io.testing.SortInputs.Family;
import dev.joule.io.testing.SortInputs.Input;
import dev.joule.io.testing.SortInputs.Kind;
import dev.joule.io.testing.TestHooks;
import dev.joule.io.testing.Watchdog;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
 * <p>The formats ({@link SortInputs}): half of the configurations sort fixed records (three
 * layouts), a quarter lines ({@code \n} or {@code \0}, with or without a last delimiter, whole-line
 * keys or GNU's {@code -k2,2n} with its last resort), a quarter length-prefixed rows (whole-row
 * keys, or a typed int32 descending). Their long records span temp blocks (run format v3), and one
 * in six of their configurations plans one pass from a sample that misleads it, so the arena
 * overflows into a first run and the rest forms runs under a second plan.
 *
 * <p>{@code -Djoule.campaign.cases=N} (default 2500) sets the number of cases, {@code
 * -Djoule.campaign.base=S} the first case's seed; {@code -Djoule.campaign.seed=S} runs the single
 * case S (the seed every failure message prints). Per-category counts go to stdout.
 */
class FaultCampaignTest {
  static final int CASES = Integer.getInteger("joule.campaign.cases", 2500);
  static final long BASE = Long.getLong("joule.campaign.base", 0xC0FFEEL);
  static final Long ONE = Long.getLong("joule.campaign.seed");

  /** Configuration shapes the cases are spread over; each has one fault-free dry run. */
  static final int CONFIGS = Integer.getInteger("joule.campaign.configs", 64);

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
      Kind kind,
      boolean misleadSample,
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
      // data, fault and fault position from the seed itself.
      int config = (int) Math.floorMod(seed ^ (seed >>> 32), (long) CONFIGS);
      // Mixed: java.util.Random's first draws for neighbouring seeds agree in their high bits, and
      // nextInt(4) takes only those, so every configuration would get the same record format.
      Random r = new Random(new SplittableRandom(0x5EED_C0F1L + config).nextLong());
      Kind kind = kind(r);
      int shape = r.nextInt(10); // 0-1 one pass, 2-4 one merge, 5-9 several passes
      long records;
      long runLimit;
      int fanIn;
      boolean mislead = false;
      if (kind.family == Family.FIXED) {
        long q = Alignment.recordQuantum(kind.fixedFormat().recordSize());
        runLimit = q * (1 + r.nextInt(2));
        if (shape < 2) {
          records = r.nextInt(4) == 0 ? r.nextInt(2) : 1 + r.nextInt((int) q * 2);
          runLimit = 0;
          fanIn = 0;
        } else {
          int runs = shape < 5 ? 2 + r.nextInt(2) : 5 + r.nextInt(12);
          records = (runs - 1) * runLimit + 1 + r.nextInt((int) runLimit);
          fanIn = shape < 5 ? 0 : 2 + r.nextInt(3);
        }
      } else if (r.nextInt(6) == 0) {
        // One pass planned from a sample that misleads: the arena overflows into a first run,
        // and the rest forms runs as large as the budget allows, or capped for several passes.
        mislead = true;
        records = 150L + r.nextInt(300);
        runLimit = shape < 5 ? 0 : 300L + r.nextInt(200);
        fanIn = shape < 5 ? 0 : 2 + r.nextInt(3);
      } else {
        // Runs end when the arena is full, whose size the plan takes from the run limit and the
        // sampled record size: the run count is about records / runLimit.
        runLimit = 70L + r.nextInt(100);
        if (shape < 2) {
          records = r.nextInt(4) == 0 ? r.nextInt(2) : 1 + r.nextInt(400);
          runLimit = 0;
          fanIn = 0;
        } else {
          int runs = shape < 5 ? 2 + r.nextInt(2) : 5 + r.nextInt(6);
          records = (runs - 1) * runLimit + 1 + r.nextInt((int) runLimit);
          fanIn = shape < 5 ? 0 : 2 + r.nextInt(3);
        }
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
          kind,
          mislead,
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

    /**
     * Half of the configurations sort fixed records, a quarter lines, a quarter length-prefixed
     * rows.
     */
    private static Kind kind(Random r) {
      return switch (r.nextInt(4)) {
        case 0, 1 ->
            r.nextInt(10) < 7 ? (r.nextBoolean() ? Kind.FIXED_16 : Kind.FIXED_32) : Kind.GENSORT;
        case 2 -> r.nextBoolean() ? Kind.LINES : Kind.LINES_K2N;
        default -> r.nextBoolean() ? Kind.ROWS : Kind.ROWS_INT_DESC;
      };
    }

    /** This case's input (the dry run of its configuration uses another seed). */
    Input input(long dataSeed) {
      int distinct = kind.family == Family.FIXED && (dataSeed & 3) == 0 ? 5 : 0;
      return SortInputs.of(
          kind, dataSeed, records, distinct, new SortInputs.Options(true, misleadSample));
    }

    String shape() {
      return misleadSample
          ? "overflow"
          : runLimit == 0 ? "one-pass" : fanIn == 0 ? "one-merge" : "multi-pass";
    }

    @Override
    public String toString() {
      return "case -Djoule.campaign.seed="
          + seed
          + " [config "
          + config
          + ", "
          + kind
          + ", "
          + shape()
          + ", "
          + records
          + " records, runs of "
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

  /** Per category (family, fault, phase): cases, clean failures, validated successes. */
  final Map<String, long[]> tally = new TreeMap<>();

  /**
   * The phases every record format must have failed in cleanly at least once over a full campaign:
   * otherwise a change of the case distribution has silently stopped covering one.
   */
  static final List<String> PHASES =
      List.of("one-pass sort", "run formation", "intermediate merge", "final merge", "publish");

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
    Map<Family, long[]> families = new EnumMap<>(Family.class);
    tally.forEach(
        (k, v) -> {
          sb.append(
              String.format(
                  "%n  %-52s cases %5d  clean failures %5d  validated outputs %5d",
                  k, v[0], v[1], v[2]));
          long[] f =
              families.computeIfAbsent(
                  Family.valueOf(k.substring(0, k.indexOf(' '))), x -> new long[3]);
          for (int i = 0; i < 3; i++) {
            all[i] += v[i];
            f[i] += v[i];
          }
        });
    families.forEach(
        (k, v) ->
            sb.append(
                String.format(
                    "%n  %-52s cases %5d  clean failures %5d  validated outputs %5d  (%d ms)",
                    "all " + k, v[0], v[1], v[2], nanos.getOrDefault(k, 0L) / 1_000_000)));
    sb.append(
        String.format(
            "%n  %-52s cases %5d  clean failures %5d  validated outputs %5d  (%d ms)",
            "TOTAL", all[0], all[1], all[2], (System.nanoTime() - t0) / 1_000_000));
    System.out.println(sb);
    if (base != null && !base.equals(dir)) {
      deleteTree(base);
    }
    if (ONE == null) {
      assertTrue(all[1] > CASES / 3, "faults were injected: " + sb);
      assertTrue(all[2] > CASES / 20, "some cases succeed: " + sb);
    }
    if (ONE == null && CASES >= 1000) {
      for (Family f : Family.values()) {
        long[] v = families.getOrDefault(f, new long[3]);
        assertTrue(v[1] > 0 && v[2] > 0, f + ": failures and successes: " + sb);
        for (String phase : PHASES) {
          assertTrue(
              tally.entrySet().stream()
                  .anyMatch(
                      e ->
                          e.getKey().startsWith(f + " ")
                              && e.getKey().contains(" " + phase + " (")
                              && e.getValue()[1] > 0),
              f + ": no clean failure in the " + phase + ": " + sb);
        }
      }
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

  /** Also after a failure: a failed case would otherwise leave its base directory in /dev/shm. */
  @AfterEach
  void deleteBase() throws IOException {
    if (base != null && !base.equals(dir)) {
      deleteTree(base);
    }
  }

  /**
   * Regression sweep (fixed config, every k): a failure of any delete, force or rename at the end
   * of a sort (temp cleanup, the output's fsync, the directory fsync after the rename, the removal
   * of the previous version's link) must leave the previous output byte-identical and no temps.
   * Before the fixes, a failed run deletion after the publish and a failed directory fsync both
   * threw with the new output already in place, and a failed owner.lock deletion left the private
   * directory behind.
   */
  @ParameterizedTest
  @EnumSource(names = {"FIXED_16", "LINES_K2N", "ROWS"})
  void everyDeleteForceAndMoveFailureAtTheEndKeepsThePreviousOutput(Kind kind) throws Exception {
    base = base();
    long runLimit =
        kind.family == Family.FIXED
            ? Alignment.recordQuantum(kind.fixedFormat().recordSize())
            : 150;
    int failures = 0;
    for (FaultOp op : new FaultOp[] {FaultOp.DELETE, FaultOp.FORCE, FaultOp.MOVE}) {
      for (long k = 1; ; k++) {
        Case c =
            new Case(
                k,
                0,
                kind,
                false,
                6 * runLimit + 7,
                runLimit,
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
        String ctx = kind + " " + op + " k=" + k;
        Path caseDir = Files.createDirectory(base.resolve("r" + op + k));
        try {
          Input input = c.input(k);
          Path in = caseDir.resolve("in");
          Files.write(in, input.data());
          List<Path> stripes =
              List.of(
                  Files.createDirectory(caseDir.resolve("s0")),
                  Files.createDirectory(caseDir.resolve("s1")));
          Path out = caseDir.resolve("out");
          Files.write(out, new byte[] {'o', 'l', 'd'});
          FaultFileSystemProvider faults = FaultFileSystemProvider.create(k).failAt(op, k);
          CleanFailureContract.Snapshot before = CleanFailureContract.before(out, stripes);
          try {
            SortReport rep =
                ExternalSorter.sort(
                    faults.wrap(in),
                    faults.wrap(out),
                    config(c, input, faults, stripes, new int[1]));
            assertArrayEquals(input.expected(), Files.readAllBytes(out), ctx);
            assertTrue(rep.mergePasses() > 1, ctx + ": merge passes " + rep.mergePasses());
            before.assertNoTempsOrLeaks(ctx, null);
            assertTrue(faults.faultIndex() < 0, ctx + ": a fault fired and the sort succeeded");
            break; // k is past the last such operation
          } catch (IOException e) {
            before.assertCleanFailure(e, "Input/output error", false, ctx);
            failures++;
          }
          faults.assertNoOpenHandles();
        } finally {
          deleteTree(caseDir);
        }
      }
    }
    deleteTree(base);
    assertTrue(failures > 10, kind + ": failures injected: " + failures);
  }

  void runCase(Case c, int index) throws Exception {
    if (base == null) {
      base = base();
    }
    Path caseDir = Files.createDirectory(base.resolve("c" + index));
    long t0 = System.nanoTime();
    try {
      runCaseIn(c, caseDir);
    } catch (AssertionError | Exception e) {
      throw new AssertionError(c + ": " + e.getMessage(), e);
    } finally {
      deleteTree(caseDir);
      nanos.merge(c.kind().family, System.nanoTime() - t0, Long::sum);
    }
  }

  /** Time spent per record format, dry runs included. */
  final Map<Family, Long> nanos = new EnumMap<>(Family.class);

  private void runCaseIn(Case c, Path caseDir) throws Exception {
    Input input = c.input(c.seed());
    Path in = caseDir.resolve("in");
    Files.write(in, input.data());
    List<Path> stripes = new ArrayList<>();
    for (int i = 0; i < c.stripes(); i++) {
      stripes.add(Files.createDirectory(caseDir.resolve("s" + i)));
    }
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
    SortConfig config = config(c, input, faults, stripes, hook);
    Throwable failure = null;
    try (Watchdog dog = Watchdog.start(RunCorruptionTest.HANG)) {
      try {
        ExternalSorter.sort(faults.wrap(in), faults.wrap(out), config);
      } catch (IOException | RuntimeException e) {
        failure = e;
      }
      if (dog.fired()) {
        throw new AssertionError(
            input + ": the sort hung: interrupted after " + RunCorruptionTest.HANG, failure);
      }
    }
    String category;
    if (failure == null) {
      assertArrayEquals(
          input.expected(), Files.readAllBytes(out), input + ": output differs from the reference");
      before.assertNoTempsOrLeaks("success", null);
      category = faults.faultIndex() < 0 ? "no fault fired" : "fault absorbed";
      count(c, category, false);
    } else {
      String what = before.assertCleanFailure(failure, reason, false, input + ": failure");
      category = phase(c, faults, hook[0], out);
      count(c, category + " (" + what + ")", true);
    }
    faults.assertNoOpenHandles();
  }

  record DryRun(Map<FaultOp, Long> counts, long written) {}

  final Map<Integer, DryRun> dryRuns = new java.util.HashMap<>();

  /**
   * A fault-free sort of the configuration's own data (as large as every case of it): the
   * operations per kind and the bytes written, over which k and N are drawn. Its output is checked,
   * and so is its shape: a configuration meant to merge must have formed runs, one meant for
   * several merge passes must have made them, so that the faults drawn over it reach those phases.
   */
  DryRun dryRun(Case c, Path caseDir, List<Path> stripes) throws Exception {
    Input input = c.input(c.config());
    Path in = caseDir.resolve("dry.in");
    Files.write(in, input.data());
    FaultFileSystemProvider dry = FaultFileSystemProvider.create(c.config());
    Path dryOut = caseDir.resolve("dry.out");
    SortReport rep =
        ExternalSorter.sort(
            dry.wrap(in), dry.wrap(dryOut), config(c, input, dry, stripes, new int[1]));
    assertArrayEquals(input.expected(), Files.readAllBytes(dryOut), input + ": dry run");
    String shape = "dry run of " + input + ": " + rep.runs() + " runs, " + rep.mergePasses();
    switch (c.shape()) {
      case "one-pass" -> assertTrue(rep.runs() == 0, shape);
      case "one-merge" ->
          assertTrue(input.records() < 2 || (rep.runs() >= 2 && rep.mergePasses() == 1), shape);
      case "multi-pass" -> assertTrue(rep.mergePasses() >= 2, shape);
      default -> assertTrue(rep.runs() >= 2, shape);
    }
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
    long[] v =
        tally.computeIfAbsent(
            String.format("%-5s %-12s %s", c.kind().family, fault, phase), k -> new long[3]);
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
    if (c.shape().equals("one-pass")) {
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

  static SortConfig config(
      Case c, Input input, FaultFileSystemProvider fs, List<Path> stripes, int[] hook) {
    SortConfig.Builder b =
        input
            .configure(SortConfig.builder())
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
