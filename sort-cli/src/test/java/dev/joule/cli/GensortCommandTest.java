package dev.joule.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.gensort.Vectors;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GensortCommandTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "gensort {0} 1000 -> {1}")
  @CsvSource({
    "'', bin-1000.dat, 1ea6370b955",
    "-a, ascii-1000.dat, 1f5dfb3631a",
    "-s, skew-1000.dat, 1e96301166b",
    "-a -s, ascii-skew-1000.dat, 1eef17d1cac",
    "-as, ascii-skew-1000.dat, 1eef17d1cac",
    "-b123456789, bin-b123456789-1000.dat, 1f013ceee6d",
    "-b 123456789, bin-b123456789-1000.dat, 1f013ceee6d",
    "-t3 -b123456789, bin-b123456789-1000.dat, 1f013ceee6d",
  })
  void writesTheReferenceFileAndPrintsItsChecksumOnStderr(String flags, String vector, String sum)
      throws Exception {
    Path f = dir.resolve("out.dat");
    String cmd = ("gensort -c " + flags + " 1000 " + f).replaceAll(" +", " ");
    CliRun r = CliRun.run(cmd.split(" "));
    assertEquals(0, r.exitCode, r::toString);
    assertEquals(sum + "\n", r.err);
    assertEquals("", r.out);
    assertArrayEquals(Vectors.load(vector), Files.readAllBytes(f));
  }

  @Test
  void devNullIsChecksumOnly() {
    CliRun r = CliRun.run("gensort", "-c", "-t2", "1000000", "/dev/null");
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("7a0e0d4868cd4\n", r.err);
  }

  @Test
  void withoutMinusCNothingIsPrinted() throws Exception {
    Path f = dir.resolve("x.dat");
    CliRun r = CliRun.run("gensort", "10", f.toString());
    assertEquals(0, r.exitCode, r::toString);
    assertEquals("", r.err + r.out);
    assertEquals(1000, Files.size(f));
  }

  @Test
  void rangesConcatenateThroughTheCli() throws Exception {
    for (String mode : new String[] {"", "-a", "-s", "-a -s", "-l"}) {
      Path whole = dir.resolve("whole");
      Path a = dir.resolve("a");
      Path b = dir.resolve("b");
      String base = "18446744073709551000"; // 2^64 − 616: the second range crosses 2^64
      run(mode, "-b" + base, "700", whole);
      run(mode, "-b" + base, "250", a);
      run(mode, "-b18446744073709551250", "450", b);
      ByteArrayOutputStream joined = new ByteArrayOutputStream();
      joined.write(Files.readAllBytes(a));
      joined.write(Files.readAllBytes(b));
      assertArrayEquals(Files.readAllBytes(whole), joined.toByteArray(), "mode '" + mode + "'");
    }
  }

  private void run(String mode, String b, String n, Path f) {
    String cmd = ("gensort " + mode + " " + b + " -t2 " + n + " " + f).replaceAll(" +", " ");
    CliRun r = CliRun.run(cmd.split(" "));
    assertEquals(0, r.exitCode, r::toString);
  }

  @Test
  void overwritesALongerExistingFile() throws Exception {
    Path f = dir.resolve("old.dat");
    Files.write(f, new byte[5000]);
    assertEquals(0, CliRun.run("gensort", "3", f.toString()).exitCode);
    assertEquals(300, Files.size(f));
  }

  @Test
  void uncreatableOutputNamesThePathAndTheCause() {
    String f = dir.resolve("no/such/dir/out.dat").toString();
    CliRun r = CliRun.run("gensort", "10", f);
    assertEquals(ExitCodes.USAGE_OR_IO, r.exitCode, r::toString);
    assertEquals("gensort: cannot create " + f + ": No such file or directory\n", r.err);
  }

  @Test
  void usageErrors() {
    CliRun missing = CliRun.run("gensort", "10");
    assertEquals(ExitCodes.USAGE_OR_IO, missing.exitCode);
    assertTrue(missing.err.startsWith("Missing required parameter: 'FILE'"), missing::toString);

    CliRun badStart = CliRun.run("gensort", "-bx1", "10", "/dev/null");
    assertEquals(ExitCodes.USAGE_OR_IO, badStart.exitCode);
    assertTrue(badStart.err.contains("'x1' is not an unsigned decimal"), badStart::toString);

    CliRun legacySkew = CliRun.run("gensort", "-l", "-s", "10", "/dev/null");
    assertEquals(ExitCodes.USAGE_OR_IO, legacySkew.exitCode);
    assertTrue(
        legacySkew.err.startsWith("-s is not defined for the legacy layout"), legacySkew::toString);

    CliRun zeroThreads = CliRun.run("gensort", "-t0", "10", "/dev/null");
    assertEquals(ExitCodes.USAGE_OR_IO, zeroThreads.exitCode);
  }

  @Test
  void helpDescribesEveryFlagWithExamples() {
    CliRun r = CliRun.run("gensort", "--help");
    assertEquals(0, r.exitCode);
    for (String s :
        new String[] {
          "-a ",
          "-s ",
          "-l ",
          "-b N",
          "-c ",
          "-t N",
          "NUM_RECS",
          "FILE",
          "Examples:",
          "gensort -b2000 1000 partition2"
        }) {
      assertTrue(r.out.contains(s), () -> "help lacks " + s + "\n" + r.out);
    }
  }
}
