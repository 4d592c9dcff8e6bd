package dev.joule.spark.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.JobIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit protocol on the local file system, without Spark: the tasks' side is simulated. */
class StagedOutputTest {
  @TempDir Path dir;

  private static final Configuration CONF = new Configuration();

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  /** What a reduce task reports after writing its attempt files. */
  private static PartResult attempt(StagedOutput s, int partition, long attemptId, String data)
      throws IOException {
    Path part =
        Path.of(s.attemptDir().substring("file:".length()))
            .resolve(StagedOutput.partName(partition) + ".attempt-" + attemptId);
    Files.writeString(part, data);
    Files.writeString(Path.of(part + ".sum"), "sum" + partition);
    return new PartResult(
        partition, "file:" + part, "file:" + part + ".sum", 1, 0, 0, 0, 0, null, null, null, 0, 0);
  }

  @Test
  void commitPublishesTheReportedAttemptsOnly() throws Exception {
    Path out = dir.resolve("out");
    StagedOutput s = StagedOutput.create(out.toString(), false, CONF);
    assertFalse(Files.exists(out), "nothing under the output's name before the commit");
    PartResult p0 = attempt(s, 0, 11, "zero");
    attempt(s, 1, 12, "failed attempt"); // a retried task: the earlier attempt's files
    PartResult p1 = attempt(s, 1, 13, "one");
    s.commit(List.of(p0, p1));
    assertEquals(
        List.of("_SUCCESS", "part-00000", "part-00000.sum", "part-00001", "part-00001.sum"),
        names(out));
    assertEquals("one", Files.readString(out.resolve("part-00001")));
    assertEquals(List.of("out"), names(dir), "the staging directory became the output");
  }

  @Test
  void abortLeavesNothing() throws Exception {
    Path out = dir.resolve("out");
    StagedOutput s = StagedOutput.create(out.toString(), false, CONF);
    attempt(s, 0, 1, "zero");
    s.abort(new IOException("the job failed"));
    assertEquals(List.of(), names(dir));
  }

  @Test
  void overwriteSwapsTheOutputAndRefusalKeepsIt() throws Exception {
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.writeString(out.resolve("old"), "old");
    JobIOException e =
        assertThrows(JobIOException.class, () -> StagedOutput.create(out.toString(), false, CONF));
    assertEquals(
        "create failed: file:" + out + ": File exists (give --overwrite to replace it)",
        e.getMessage());
    StagedOutput s = StagedOutput.create(out.toString(), true, CONF);
    assertEquals(List.of("old"), names(out), "the old output stays until the commit");
    s.commit(List.of(attempt(s, 0, 5, "new")));
    assertEquals(List.of("_SUCCESS", "part-00000", "part-00000.sum"), names(out));
    assertEquals(List.of("out"), names(dir));
  }

  @Test
  void missingParentIsRefused() {
    Path out = dir.resolve("no/such/parent/out");
    JobIOException e =
        assertThrows(JobIOException.class, () -> StagedOutput.create(out.toString(), false, CONF));
    assertEquals("create failed: file:" + out + ": No such file or directory", e.getMessage());
    assertTrue(Files.notExists(dir.resolve("no")));
  }

  @Test
  void partNamesSortInPartitionOrder() {
    assertEquals("part-00000", StagedOutput.partName(0));
    assertEquals("part-99999", StagedOutput.partName(StagedOutput.MAX_PARTITIONS - 1));
  }
}
