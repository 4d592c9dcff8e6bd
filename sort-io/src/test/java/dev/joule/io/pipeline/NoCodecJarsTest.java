package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.io.IoTestSupport;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default compression ({@code auto}) needs neither codec library: a child JVM whose class path
 * lacks lz4-java and zstd-jni (an embedder that leaves them out, or a platform that brings its own
 * elsewhere) runs a pair session that spills runs and merges them, raw. Before the codecs' types
 * moved into {@code BlockCodec}'s nested classes, verifying {@code BlockCodec} loaded {@code
 * LZ4Exception} (an exception handler's type) and the first spill died of {@code
 * NoClassDefFoundError}; with {@code auto} the default, its LZ4 must be optional too.
 */
class NoCodecJarsTest {
  @TempDir Path dir;

  @Test
  void aSessionWithTheDefaultCompressionSpillsAndMergesWithoutTheCodecJars() throws Exception {
    List<String> entries =
        Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    List<String> kept =
        entries.stream()
            .filter(e -> !e.contains("lz4-java") && !e.contains("zstd-jni"))
            .collect(Collectors.toList());
    assertTrue(
        kept.size() < entries.size(), "the codec jars are not on this class path: " + entries);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    long seed = IoTestSupport.seed();
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                String.join(File.pathSeparator, kept),
                NoCodecJarsChild.class.getName(),
                dir.toString(),
                Long.toString(seed))
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try (var r = p.inputReader(StandardCharsets.UTF_8)) {
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        lines.add(l);
      }
    }
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), "child still running");
    assertEquals(0, p.exitValue(), "seed " + seed + ": " + lines);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("sorted ")), lines.toString());
    try (var left = Files.list(dir)) {
      assertEquals(0, left.count(), "temp files left");
    }
  }
}
