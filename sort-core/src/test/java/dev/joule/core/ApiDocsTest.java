package dev.joule.core;

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
                "dev.joule.core.record",
                "dev.joule.core.key",
                "dev.joule.core.gensort",
                "dev.joule.core.valsort")));
  }
}
