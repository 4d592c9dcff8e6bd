package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.it.CliContract.Run;
import dev.joule.it.CliContract.Snapshot;
import dev.joule.it.CliContract.Tmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real OS faults on one stripe through {@code ./joule sort} (docs/reliability.md F11, F8), checked
 * with {@link CliContract}: a tmpfs stripe with 8 inodes (file creation fails with ENOSPC), and a
 * loop-mounted ext4 stripe whose "disk dies" mid-run ({@code EXT4_IOC_SHUTDOWN}: every later
 * syscall on it returns EIO). Root only (skipped with a reason otherwise); every mount and loop
 * device is released in a finally, and {@code findmnt}/{@code losetup -a} are checked at the end.
 * Over gensort records through the launcher and over lines or length-prefixed rows through the API
 * in a child JVM ({@link Workload}).
 */
class StripeFaultIT {
  static final String RECORDS = "300000"; // 30 MB: 9 runs at --memory 8m
  static final List<Path> MOUNTS = new ArrayList<>();
  static final List<Path> IMAGES = new ArrayList<>();

  @TempDir static Path shared;
  static final Map<Workload, Path> INPUTS = new EnumMap<>(Workload.class);
  @TempDir Path lab;

  /** The workload's input (30 MB), written once per class. */
  static synchronized Path input(Workload w) throws Exception {
    Path p = INPUTS.get(w);
    if (p == null) {
      p = w.input(Files.createDirectories(shared.resolve(w.name())), RECORDS, OsFaultIT.MEGABYTES);
      INPUTS.put(w, p);
    }
    return p;
  }

  @AfterAll
  static void nothingMountedOrAttached() throws Exception {
    for (Path m : MOUNTS) {
      CliContract.assertNoMountsUnder(m);
    }
    String loops = capture("losetup", "-a");
    for (Path img : IMAGES) {
      assertTrue(!loops.contains(img.toString()), "loop device still attached: " + loops);
    }
  }

  Path dir(String name) throws IOException {
    return Files.createDirectories(lab.resolve(name));
  }

  /** F11: run file creation on a stripe out of inodes is ENOSPC naming that stripe, exit 2, CFC. */
  @ParameterizedTest
  @EnumSource(Workload.class)
  void inodeExhaustionOnOneStripeNamesThatStripe(Workload w) throws Exception {
    Path input = input(w);
    Path s1 = dir("s1");
    Path out = lab.resolve("out.dat");
    // Tmpfs appends ",mode=0755" to "size=<size>"; a large size so the up-front space check passes
    // and it is the inode limit (root dir + private dir + owner.lock + a few runs) that fails.
    Tmpfs s2 = new Tmpfs(lab.resolve("s2"), "100m,nr_inodes=8");
    MOUNTS.add(s2.dir);
    try (s2) {
      Snapshot before = CliContract.before(out, s1, s2.dir);
      Run r =
          w.run(
              lab,
              "sort",
              "-q",
              "--memory",
              "8m",
              "--direct",
              "off",
              "--temp",
              s1.toString(),
              "--temp",
              s2.dir.toString(),
              "-o",
              out.toString(),
              input.toString());
      before.assertCleanFailure(
          r,
          2,
          String.format(
              CliContract.IO_ERROR,
              Pattern.quote(s2.dir.toString()) + "(/\\S*)?",
              "No space left on device.*"),
          15_000,
          w + ": tmpfs stripe with nr_inodes=8");
    }
  }

  /**
   * F8: once a run file exists on the ext4 stripe, {@code EXT4_IOC_SHUTDOWN} kills that file
   * system. The sort must fail (2 for the EIO, or 3 if it surfaces as a corrupt run) within 10 s,
   * naming a path on that stripe; the output is absent and the <em>other</em> stripe and the output
   * dir hold no temps. The dead stripe is excluded from the temp check: nothing can delete files on
   * a shut down file system (every syscall is EIO), so its private dir stays until the next mount.
   */
  @ParameterizedTest
  @EnumSource(names = {"GENSORT", "ROWS"})
  void stripeDiskDiesMidRunFailsNamingThatStripe(Workload w) throws Exception {
    Path input = input(w);
    assumeTrue(CliContract.isRoot(), "not root: cannot loop-mount ext4 (skipped)");
    assumeTrue(
        CliContract.sh("python3", "-c", "import fcntl") == 0, "python3 is not installed: skipped");
    Path s1 = dir("s1");
    Path s2 = dir("s2");
    Path img = lab.resolve("s2.img");
    Path out = lab.resolve("out.dat");
    assumeTrue(
        CliContract.sh("truncate", "-s", "64M", img.toString()) == 0, "truncate failed: skipped");
    assumeTrue(
        CliContract.sh("mkfs.ext4", "-q", "-F", img.toString()) == 0, "mkfs.ext4 failed: skipped");
    IMAGES.add(img);
    MOUNTS.add(s2);
    assumeTrue(
        CliContract.sh("mount", "-o", "loop", img.toString(), s2.toString()) == 0,
        "mount -o loop failed: skipped");
    String loop = capture("findmnt", "-n", "-o", "SOURCE", s2.toString()).strip();
    Process p = null;
    try {
      Snapshot before =
          CliContract.before(out, s1); // the dead stripe cannot be cleaned: not watched
      long t0 = System.nanoTime();
      p =
          CliContract.start(
              lab,
              w.command(
                  List.of(),
                  "sort",
                  "-q",
                  "--memory",
                  "8m",
                  "--direct",
                  "off",
                  "--fan-in",
                  "2",
                  "--transfer-temp",
                  "64k",
                  "--temp",
                  s1.toString(),
                  "--temp",
                  s2.toString(),
                  "-o",
                  out.toString(),
                  input.toString()));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!hasRunFile(s2)) {
        final Process q = p;
        assertTrue(
            p.isAlive(),
            () ->
                "the sort ended before a run file appeared on the ext4 stripe (exit "
                    + q.exitValue()
                    + "): "
                    + OsFaultIT.read(lab.resolve("stderr.txt")));
        assertTrue(System.nanoTime() < deadline, "no run file on the ext4 stripe within 60 s");
        Thread.sleep(1);
      }
      assertEquals(
          0,
          CliContract.sh(
              "python3",
              "-c",
              "import fcntl, os, struct\n"
                  + "fcntl.ioctl(os.open('"
                  + s2
                  + "', os.O_RDONLY), 0x8004587d, struct.pack('I', 2))"),
          "EXT4_IOC_SHUTDOWN");
      long fault = System.nanoTime();
      assertTrue(
          p.waitFor(10, TimeUnit.SECONDS),
          "still running 10 s after the stripe's file system was shut down");
      long ms = (System.nanoTime() - fault) / 1_000_000;
      Run r = CliContract.finish(lab, p, t0);
      assertTrue(
          r.exit() == 2 || r.exit() == 3,
          () -> "exit " + r.exit() + " after the stripe died; stderr:\n" + r.err());
      String line = r.lastErrLine();
      assertTrue(
          Pattern.compile(
                      String.format(
                          CliContract.IO_ERROR, Pattern.quote(s2.toString()) + "/\\S*", ".+"))
                  .matcher(line)
                  .matches()
              || (r.exit() == 3 && line.contains(s2 + "/")),
          () ->
              "stderr's last line does not name a path on the dead stripe " + s2 + ":\n" + r.err());
      System.out.println(
          "F8 " + w + ": exit " + r.exit() + " " + ms + " ms after EXT4_IOC_SHUTDOWN: " + line);
      before.assertOutputUnchanged(w + ": ext4 stripe shut down");
      before.assertNoTemps(w + ": ext4 stripe shut down (other stripe and output dir)");
    } finally {
      if (p != null && p.isAlive()) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      if (CliContract.sh("umount", s2.toString()) != 0) {
        CliContract.sh("umount", "-l", s2.toString());
      }
      if (loop.startsWith("/dev/loop") && capture("losetup", "-a").contains(img.toString())) {
        CliContract.sh("losetup", "-d", loop);
      }
    }
  }

  /**
   * F7: the output's directory is a 64 MiB sparse ext4 image stored on a 4 MiB tmpfs (thin
   * provisioning). With {@code --direct off} the output's {@code write}s land in the page cache and
   * "succeed"; the blocks cannot be stored, so the error is deferred to {@code fsync} (ENOSPC, then
   * EIO as ext4 aborts its journal). The sort must exit 2 naming the output's temp on that file
   * system, never 0; the previous output (written and synced before the fs filled) is unchanged and
   * no temp is left in the output dir or the stripe (both checked while the sick fs is still
   * mounted).
   */
  @ParameterizedTest
  @EnumSource(names = {"GENSORT", "LINES"})
  void deferredWritebackErrorOnTheOutputIsCaughtAtFsync(Workload w) throws Exception {
    assumeTrue(CliContract.isRoot(), "not root: cannot mount (skipped)");
    Path s1 = dir("s1");
    Path o = dir("outfs");
    Path gen = lab.resolve("in25.dat");
    if (w == Workload.GENSORT) {
      Run g = CliContract.joule(lab, "gensort", "-t2", "250000", gen.toString()); // 25 MB
      assertEquals(0, g.exit(), g::toString);
    } else {
      gen = input(w);
    }
    Tmpfs thin = new Tmpfs(lab.resolve("thin"), "4m");
    MOUNTS.add(thin.dir);
    try (thin) {
      Path img = thin.dir.resolve("out.img");
      IMAGES.add(img);
      assumeTrue(
          CliContract.sh("truncate", "-s", "64M", img.toString()) == 0, "truncate failed: skipped");
      assumeTrue(
          CliContract.sh("mkfs.ext4", "-q", "-F", img.toString()) == 0,
          "mkfs.ext4 failed: skipped");
      MOUNTS.add(o);
      assumeTrue(
          CliContract.sh("mount", "-o", "loop", img.toString(), o.toString()) == 0,
          "mount -o loop failed: skipped");
      String loop = capture("findmnt", "-n", "-o", "SOURCE", o.toString()).strip();
      try {
        Path out = o.resolve("out.dat");
        Files.write(out, "previous output\n".repeat(4096).getBytes(StandardCharsets.US_ASCII));
        assertEquals(
            0, CliContract.sh("sync", "-f", out.toString()), "sync of the previous output");
        Snapshot before = CliContract.before(out, s1);
        Run r =
            w.run(
                lab,
                "sort",
                "-q",
                "--memory",
                "8m",
                "--direct",
                "off",
                "--temp",
                s1.toString(),
                "-o",
                out.toString(),
                gen.toString());
        assertTrue(
            r.exit() != 0,
            w + ": exit 0 although the output's blocks could not be written (thin loop device)");
        System.out.println(
            "F7 " + w + ": exit " + r.exit() + " in " + r.millis() + " ms: " + r.lastErrLine());
        before.assertCleanFailure(
            r,
            2,
            String.format(
                CliContract.IO_ERROR,
                Pattern.quote(o.toString()) + "/\\S*",
                "(No space left on device|Input/output error).*"),
            15_000,
            w + ": thin-provisioned output fs");
      } finally {
        if (CliContract.sh("umount", o.toString()) != 0) {
          CliContract.sh("umount", "-l", o.toString());
        }
        if (loop.startsWith("/dev/loop") && capture("losetup", "-a").contains(img.toString())) {
          CliContract.sh("losetup", "-d", loop);
        }
      }
    }
  }

  /** A {@code run-*} file in a private dir of {@code stripe}. */
  static boolean hasRunFile(Path stripe) {
    try (Stream<Path> privs = Files.list(stripe)) {
      for (Path priv : privs.toList()) {
        if (!priv.getFileName().toString().startsWith("joule-")) {
          continue;
        }
        try (Stream<Path> f = Files.list(priv)) {
          if (f.anyMatch(x -> x.getFileName().toString().startsWith("run-"))) {
            return true;
          }
        } catch (IOException e) {
          // raced with the cleanup
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  static String capture(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return s;
  }
}
