package dev.joule.io.pipeline;

import dev.joule.io.testing.PipelineTestSupport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of the session suites: a temp dir with one stripe, and after every test the leak
 * check of {@link PipelineTestSupport#assertNoLeaks} (no joule thread, direct memory or temp file
 * left behind).
 */
abstract class OneStripeTest {
  @TempDir Path dir;
  List<Path> stripes;
  String name;

  @BeforeEach
  void setUp(TestInfo info) throws IOException {
    name = info.getDisplayName();
    stripes = List.of(Files.createDirectories(dir.resolve("stripe")));
  }

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks(name, stripes);
  }
}
