package dev.joule.spark.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.spark.JobIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Splits, ordinals and the input checks, on the local file system through Hadoop's API. */
class InputPlanTest {
  @TempDir Path dir;

  private static final Configuration CONF = new Configuration();

  @Test
  void splitsAreWholeRecordsWithGlobalOrdinals() throws Exception {
    Path a = Files.write(dir.resolve("a"), new byte[100 * 25]);
    Path b = Files.write(dir.resolve("b"), new byte[0]);
    Path c = Files.write(dir.resolve("c"), new byte[100 * 7]);
    InputPlan p =
        InputPlan.of(List.of(a.toString(), b.toString(), c.toString()), CONF, 100, 1_000, 1);
    assertEquals(32, p.records());
    assertEquals(3, p.files().size());
    // 10 records per split: a → 10, 10, 5; c → 7
    List<InputSplit> s = p.splits();
    assertEquals(4, s.size());
    assertEquals(List.of(0L, 10L, 20L, 25L), s.stream().map(InputSplit::firstOrdinal).toList());
    assertEquals(List.of(10L, 10L, 5L, 7L), s.stream().map(InputSplit::records).toList());
    assertEquals(List.of(0L, 10L, 20L, 0L), s.stream().map(InputSplit::firstRecord).toList());
    assertEquals("file:" + c, s.get(3).path());
    for (int i = 0; i < s.size(); i++) {
      assertEquals(i, s.get(i).index());
    }
  }

  @Test
  void smallInputsAreSpreadOverTheSlots() throws Exception {
    Path a = Files.write(dir.resolve("a"), new byte[100 * 100_000]); // 10 MB
    assertEquals(1, InputPlan.of(List.of(a.toString()), CONF, 100, 128 << 20, 1).splits().size());
    // 10 MB over 2 slots: two splits of 5 MB (the 4 MB floor does not bind)
    assertEquals(2, InputPlan.of(List.of(a.toString()), CONF, 100, 128 << 20, 2).splits().size());
    // over 8 slots: 4 MiB splits at least, so three
    assertEquals(3, InputPlan.of(List.of(a.toString()), CONF, 100, 128 << 20, 8).splits().size());
  }

  @Test
  void splitsComeInWholeWavesOverTheSlots() {
    long mib = 1 << 20;
    // 300 MB in 128 MiB splits would be three; on two slots four of 75 MB keep both busy
    assertEquals(75_000_000, InputPlan.splitBytes(300_000_000, 128 * mib, 2));
    assertEquals(125_000_000, InputPlan.splitBytes(1_000_000_000, 128 * mib, 2));
    assertEquals(133_333_334, InputPlan.splitBytes(10_000_000_000L, 128 * mib, 1)); // 75 of them
    assertEquals(4 * mib, InputPlan.splitBytes(1_000_000, 128 * mib, 2));
  }

  @Test
  void badInputsAreNamed() throws Exception {
    Path missing = dir.resolve("missing");
    JobIOException e =
        assertThrows(
            JobIOException.class,
            () -> InputPlan.of(List.of(missing.toString()), CONF, 100, 1 << 20, 1));
    assertEquals("open failed: " + missing + ": No such file or directory", e.getMessage());
    Path odd = Files.write(dir.resolve("odd"), new byte[250]);
    e =
        assertThrows(
            JobIOException.class,
            () -> InputPlan.of(List.of(odd.toString()), CONF, 100, 1 << 20, 1));
    assertEquals(
        "read failed: file:"
            + odd
            + ": input size 250 is not a multiple of record size 100: 50 trailing bytes at offset"
            + " 200",
        e.getMessage());
    Path empty = Files.createDirectories(dir.resolve("emptydir"));
    Files.write(empty.resolve("_SUCCESS"), new byte[0]);
    e =
        assertThrows(
            JobIOException.class,
            () -> InputPlan.of(List.of(empty.toString()), CONF, 100, 1 << 20, 1));
    assertEquals("read failed: file:" + empty + ": directory holds no input files", e.getMessage());
  }
}
