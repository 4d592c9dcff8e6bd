package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.it.CliContract.Run;
import dev.joule.it.CliContract.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reliability.md S1–S3, S5 through {@code ./joule sort}: run files 0600 in a 0700 private dir
 * even under {@code umask 000}; symlinks planted under guessable names in the stripe and output
 * dirs are never followed (their targets are untouched); a world-writable temp dir without the
 * sticky bit is refused with exit 2 and the reason.
 */
class SecurityIT {
  @TempDir static Path shared;
  static Path input;
  @TempDir Path lab;

  @BeforeAll
  static void input() throws Exception {
    input = CliContract.gensortInput(shared, "200000");
  }

  @Test
  void runFilesAre0600InA0700DirUnderUmask000() throws Exception {
    Path tmp = Files.createDirectory(lab.resolve("tmp"));
    Path out = lab.resolve("out.dat");
    Process p =
        CliContract.start(
            lab,
            CliContract.command(
                List.of("bash", "-c", "umask 000 && exec \"$0\" \"$@\""),
                "sort",
                "--gensort",
                "-q",
                "--memory",
                "8m",
                "--fan-in",
                "2",
                "--transfer-temp",
                "64k",
                "--temp",
                tmp.toString(),
                "-o",
                out.toString(),
                input.toString()));
    List<String> seen = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (seen.isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
      try (Stream<Path> privs = Files.list(tmp)) {
        for (Path d : privs.toList()) {
          try (Stream<Path> files = Files.list(d)) {
            for (Path f : files.toList()) {
              if (f.getFileName().toString().startsWith("run-")) {
                seen.add(mode(d) + " " + mode(f) + " " + f);
              }
            }
          } catch (IOException e) {
            // raced with a deletion
          }
        }
      }
      Thread.sleep(1);
    }
    Run r = CliContract.finish(lab, p, System.nanoTime());
    assertEquals(0, r.exit(), r::toString);
    assertTrue(!seen.isEmpty(), "no run file seen while the sort ran");
    for (String s : seen) {
      assertTrue(
          s.startsWith("rwx------ rw------- "),
          "private dir 0700 and run file 0600 under umask 000: " + s);
    }
  }

  static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void plantedSymlinksAreNeverFollowed() throws Exception {
    Path tmp = Files.createDirectory(lab.resolve("tmp"));
    Path victimDir = Files.createDirectory(lab.resolve("victim"));
    Path victimFile = victimDir.resolve("precious.dat");
    Files.writeString(victimFile, "precious\n");
    String sha = CliContract.sha256(victimFile);
    List<Path> links = new ArrayList<>();
    // guessable names: a stale-looking private dir, an output temporary, a lock file, the stripe's
    // own names
    links.add(
        Files.createSymbolicLink(
            tmp.resolve("joule-00000000-0000-0000-0000-000000000000"), victimDir));
    links.add(Files.createSymbolicLink(tmp.resolve("joule-stale"), victimDir));
    links.add(Files.createSymbolicLink(tmp.resolve("owner.lock"), victimFile));
    links.add(Files.createSymbolicLink(lab.resolve(".out.dat.0.tmp"), victimFile));
    links.add(Files.createSymbolicLink(lab.resolve(".out.dat.tmp"), victimFile));
    links.add(Files.createSymbolicLink(lab.resolve("joule-out"), victimDir));
    for (Path l : links) {
      // older than the stale-dir grace period, so the sweep considers them
      assertEquals(0, CliContract.sh("touch", "-h", "-d", "2000-01-01", l.toString()));
    }
    Path out = lab.resolve("out.dat");
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-q",
            "--memory",
            "8m",
            "--fan-in",
            "2",
            "--temp",
            tmp.toString(),
            "-o",
            out.toString(),
            input.toString());
    assertEquals(0, r.exit(), r::toString);
    assertEquals(sha, CliContract.sha256(victimFile), "symlink target changed");
    try (Stream<Path> s = Files.list(victimDir)) {
      assertEquals(List.of(victimFile), s.toList(), "symlinked dir's contents changed");
    }
    for (Path l : links) {
      assertTrue(Files.isSymbolicLink(l), "planted link removed or replaced: " + l);
    }
    Run v = CliContract.joule(lab, "valsort", out.toString());
    assertEquals(0, v.exit(), v::toString);
  }

  @Test
  void worldWritableTempDirWithoutStickyBitIsRefused() throws Exception {
    Path tmp = Files.createDirectory(lab.resolve("ww"));
    assertEquals(0, CliContract.sh("chmod", "0777", tmp.toString()));
    Path out = lab.resolve("out.dat");
    Snapshot before = CliContract.before(out, tmp);
    // 20 MB at 8 MiB: runs go to the temp dir (a sort that fits in memory needs none, as GNU's)
    Run r =
        CliContract.joule(
            lab,
            "sort",
            "--gensort",
            "-q",
            "--memory",
            "8m",
            "--temp",
            tmp.toString(),
            "-o",
            out.toString(),
            input.toString());
    before.assertCleanFailure(
        r,
        2,
        String.format(
            CliContract.IO_ERROR,
            Pattern.quote(tmp.toString()),
            "world-writable without the sticky bit"),
        10_000,
        "world-writable temp dir");
  }
}
