package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.joule.it.CliContract.Run;
import dev.joule.it.CliContract.Tmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --compress auto} (the default) on a real slow disk: the temp dir is a loop-mounted ext4
 * throttled to {@value #BPS} bytes/s for the sort's process alone (a cgroup v1 blkio group, which
 * throttles the O_DIRECT reads and writes of temp runs), input and output elsewhere. Text lines get
 * nearly every block compressed there; binary gensort records (random bytes) stay raw; and the same
 * text with its temp dir on a tmpfs (memory speed) stays mostly raw: the device's measured speed
 * decides, not the data alone. Each output is checked against a reference (GNU sort for the text,
 * {@code joule valsort} for the records). Root and cgroup v1 only (skipped with a reason
 * otherwise); the mount, the loop device and the group are released in a finally.
 */
class CompressAutoIT {
  /** 40 MB/s: a slow disk, yet quick enough for CI (the raw records move 120 MB through it). */
  static final long BPS = 40_000_000;

  static final String RECORDS = "600000"; // 60 MB of either kind

  static final Path BLKIO = Path.of("/sys/fs/cgroup/blkio");

  @TempDir Path lab;

  @Test
  void autoCompressesTextOnlyOnASlowTempDiskAndKeepsRandomBytesRaw() throws Exception {
    assumeTrue(CliContract.isRoot(), "not root: cannot loop-mount ext4 or throttle it (skipped)");
    assumeTrue(Files.isDirectory(BLKIO), "no cgroup v1 blkio controller here (skipped)");
    Path slow = Files.createDirectories(lab.resolve("slow"));
    Path img = lab.resolve("slow.img");
    assumeTrue(CliContract.sh("truncate", "-s", "512M", img.toString()) == 0, "truncate failed");
    assumeTrue(CliContract.sh("mkfs.ext4", "-q", "-F", img.toString()) == 0, "mkfs.ext4 failed");
    assumeTrue(
        CliContract.sh("mount", "-o", "loop", img.toString(), slow.toString()) == 0,
        "mount -o loop failed (skipped)");
    String loop = StripeFaultIT.capture("findmnt", "-n", "-o", "SOURCE", slow.toString()).strip();
    Path group = BLKIO.resolve("joule-it-" + ProcessHandle.current().pid());
    try (Tmpfs fast = new Tmpfs(lab.resolve("fast"), "256m")) {
      String device = StripeFaultIT.capture("lsblk", "-no", "MAJ:MIN", loop).strip();
      Files.createDirectory(group);
      Files.writeString(group.resolve("blkio.throttle.write_bps_device"), device + " " + BPS);
      Files.writeString(group.resolve("blkio.throttle.read_bps_device"), device + " " + BPS);
      Run g = CliContract.joule(lab, "gensort", "-a", RECORDS, "text.txt");
      assertEquals(0, g.exit(), g::toString);
      Run b = CliContract.joule(lab, "gensort", RECORDS, "records.dat");
      assertEquals(0, b.exit(), b::toString);
      Path expected = lab.resolve("expected.txt");
      assertEquals(
          0,
          new ProcessBuilder("sort", "-o", expected.toString(), lab.resolve("text.txt").toString())
              .inheritIO()
              .start()
              .waitFor(),
          "GNU sort of the text");

      long[] slowText = sort(group, slow, List.of(), "text.txt");
      assertSameText(expected);
      long[] fastText = sort(null, fast.dir, List.of(), "text.txt");
      assertSameText(expected);
      long[] slowRecords = sort(group, slow, List.of("--gensort"), "records.dat");
      Run v = CliContract.joule(lab, "valsort", "out");
      assertEquals(0, v.exit(), v::toString);
      assertTrue((v.out() + v.err()).contains(RECORDS), () -> "valsort's count: " + v);

      String seen =
          "blocks (all, compressed): text slow "
              + slowText[0]
              + ", "
              + slowText[1]
              + "; text fast "
              + fastText[0]
              + ", "
              + fastText[1]
              + "; records slow "
              + slowRecords[0]
              + ", "
              + slowRecords[1];
      System.out.println("CompressAutoIT " + seen);
      assertTrue(slowText[0] >= 40, "too few blocks to tell: " + seen);
      assertTrue(slowText[1] * 4 >= slowText[0] * 3, "text on the slow disk: " + seen);
      // On the tmpfs the probes (two blocks of each run and one in 16: 41 of 237 on a quiet
      // machine) and the blocks for which the tmpfs measured slower than LZ4 runs: its rate is
      // bytes per second of wall time in write calls, which a loaded machine's scheduler
      // stretches (99 of 237 in a CI run); at most half. Compressing regardless of the device
      // compresses all of them.
      assertTrue(fastText[1] * 2 <= fastText[0], "text on the fast disk: " + seen);
      assertEquals(0, slowRecords[1], "random records never shrink by a page: " + seen);
    } finally {
      if (Files.isDirectory(group)) {
        Files.delete(group); // its processes have exited
      }
      if (CliContract.sh("umount", slow.toString()) != 0) {
        CliContract.sh("umount", "-l", slow.toString());
      }
      if (loop.startsWith("/dev/loop")
          && StripeFaultIT.capture("losetup", "-a").contains(img.toString())) {
        CliContract.sh("losetup", "-d", loop);
      }
    }
  }

  /**
   * Sorts {@code input} into {@code out} at {@code -S 16m} with its temp dir in {@code temp}, in
   * cgroup {@code group} (null: none), and returns the run blocks written and compressed from its
   * JSON report.
   */
  private long[] sort(Path group, Path temp, List<String> flags, String input)
      throws IOException, InterruptedException {
    List<String> prefix =
        group == null
            ? List.of()
            : List.of(
                "sh", "-c", "echo $$ > " + group.resolve("cgroup.procs") + " && exec \"$@\"", "sh");
    List<String> args =
        new java.util.ArrayList<>(
            List.of("sort", "-S", "16m", "-T", temp.toString(), "--report-json", "report.json"));
    args.addAll(flags);
    args.addAll(List.of("-o", "out", input));
    Run r = CliContract.run(lab, prefix, args.toArray(new String[0]));
    assertEquals(0, r.exit(), r::toString);
    String json = Files.readString(lab.resolve("report.json"), StandardCharsets.UTF_8);
    Matcher m =
        Pattern.compile(
                "\"compression\"\\s*:\\s*\\{[^}]*?\"blocks\"\\s*:\\s*(\\d+)[^}]*?"
                    + "\"compressedBlocks\"\\s*:\\s*(\\d+)")
            .matcher(json);
    assertTrue(m.find(), "no compression blocks in the report: " + json);
    return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
  }

  private void assertSameText(Path expected) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("cmp", expected.toString(), lab.resolve("out").toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "cmp still running");
    assertEquals(0, p.exitValue(), "the output differs from GNU sort's: " + said);
  }
}
