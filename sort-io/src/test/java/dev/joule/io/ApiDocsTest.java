package dev.joule.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.testing.ApiDocs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every public element of the packages module-info exports has a javadoc comment. */
class ApiDocsTest {
  @Test
  void exportedApiIsDocumented() throws Exception {
    assertEquals(
        List.of(),
        ApiDocs.undocumented(
            Path.of("src/main/java"),
            List.of(
                "dev.joule.io.config",
                "dev.joule.io.error",
                "dev.joule.io.plan",
                "dev.joule.io.report",
                "dev.joule.io.pipeline")));
  }
}
