package dev.joule.io.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFileTest {
  @TempDir Path tmp;

  @Test
  void partialTrailingRecordIsAnErrorNamingTheOffset() throws IOException {
    Path f = Files.write(tmp.resolve("in"), new byte[250]);
    try (InputFile in = InputFile.open(f, DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
      in.checkWholeRecords(50);
      SortIOException e = assertThrows(SortIOException.class, () -> in.checkWholeRecords(100));
      assertEquals(
          "read failed: "
              + f
              + ": input size 250 is not a multiple of record size 100: 50 trailing bytes at offset"
              + " 200",
          e.getMessage());
    }
  }

  @Test
  void changesWhileReadingAreDetected() throws IOException {
    Path f = Files.write(tmp.resolve("in"), new byte[100]);
    try (InputFile in = InputFile.open(f, DirectIoPolicy.AUTO, NoticeSink.IGNORE)) {
      in.checkUnchanged(100);
      assertThrows(SortIOException.class, () -> in.checkUnchanged(99));
      Files.write(f, new byte[1], StandardOpenOption.APPEND);
      SortIOException e = assertThrows(SortIOException.class, () -> in.checkUnchanged(100));
      assertEquals(
          "read failed: "
              + f
              + ": input changed while being read (size 100 at start, 101 now, 100 bytes read)",
          e.getMessage());
    }
  }

  @Test
  void directoriesAndMissingFilesAreRefused() {
    SortIOException dir =
        assertThrows(
            SortIOException.class,
            () -> InputFile.open(tmp, DirectIoPolicy.AUTO, NoticeSink.IGNORE));
    assertEquals("open failed: " + tmp + ": Is a directory", dir.getMessage());
    Path missing = tmp.resolve("nope");
    SortIOException e =
        assertThrows(
            SortIOException.class,
            () -> InputFile.open(missing, DirectIoPolicy.AUTO, NoticeSink.IGNORE));
    assertEquals("open failed: " + missing + ": No such file or directory", e.getMessage());
  }
}
