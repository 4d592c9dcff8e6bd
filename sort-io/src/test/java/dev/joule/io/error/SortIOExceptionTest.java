package dev.joule.io.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SortIOExceptionTest {
  @Test
  void messageNamesOpPathAndErrnoTextAndChainsTheCause() {
    Path p = Path.of("/x/joule-1/run-000017");
    IOException cause = new IOException("No space left on device");
    IOException e = SortIOException.wrap("write", p, cause);
    assertEquals("write failed: /x/joule-1/run-000017: No space left on device", e.getMessage());
    assertSame(cause, e.getCause());
    assertEquals("write", ((SortIOException) e).op());
    assertEquals(p, ((SortIOException) e).path());
    assertSame(e, SortIOException.wrap("close", p, e), "already named: not wrapped again");
    assertEquals(
        "No such file or directory", SortIOException.reasonOf(new NoSuchFileException("/a")));
    assertEquals(
        "Input/output error",
        SortIOException.reasonOf(new FileSystemException("/a", null, "Input/output error")));
  }
}
