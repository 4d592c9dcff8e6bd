package dev.joule.io.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.SortIOException;
import dev.joule.io.testing.PipelineTestSupport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records a format refuses: a line one byte over the 64 MiB limit (gathered across input
 * buffers, and found whole inside one buffer larger than the limit), a row whose length is over the
 * limit, and an input that ends inside a row. Each is a {@link SortIOException} naming the file and
 * the record's offset, and nothing is published.
 */
class RecordLimitsTest {
  static final int LIMIT = RecordFormat.DEFAULT_MAX_RECORD_LENGTH;

  @TempDir Path dir;

  @AfterEach
  void leaks() throws Exception {
    PipelineTestSupport.assertNoLeaks("RecordLimitsTest", List.of(dir.resolve("tmp")));
  }

  SortConfig.Builder config(RecordFormat format) throws IOException {
    return SortConfig.builder()
        .format(format)
        .memoryBudget(DataSize.ofMiB(32))
        .threads(2)
        .tempDirs(List.of(Files.createDirectories(dir.resolve("tmp"))));
  }

  /**
   * Sorts {@code in} expecting a refusal; returns its message after checking nothing was made. The
   * sort of streams, reading {@code in} as a stream, refuses it in the same words.
   */
  String refused(Path in, SortConfig c) throws IOException {
    Path out = dir.resolve("out");
    SortIOException e = assertThrows(SortIOException.class, () -> ExternalSorter.sort(in, out, c));
    assertFalse(Files.exists(out), "an output was published");
    assertTrue(e.getMessage().startsWith("read failed: " + in + ": "), e.getMessage());
    List<SortedInputs.Input> stream = List.of(new SortedInputs.Input(in, Files.newInputStream(in)));
    SortIOException s =
        assertThrows(SortIOException.class, () -> ExternalSorter.sort(stream, out, c));
    assertFalse(Files.exists(out), "an output was published");
    assertEquals(e.getMessage(), s.getMessage());
    return e.getMessage();
  }

  @Test
  void aLineOverTheLimitIsRefusedWithItsOffset() throws IOException {
    Path in = dir.resolve("in");
    byte[] line = new byte[1 << 20];
    Arrays.fill(line, (byte) 'x');
    try (OutputStream o = Files.newOutputStream(in)) {
      o.write("first\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      for (int i = 0; i < LIMIT / line.length; i++) {
        o.write(line);
      }
      o.write("y\nlast\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
    String across = refused(in, config(RecordFormat.lines()).build());
    assertTrue(across.contains("the line at offset 6 is longer than " + LIMIT + " bytes"), across);
    // One input buffer holds the whole line: the limit still holds.
    SortConfig whole =
        config(RecordFormat.lines())
            .memoryBudget(DataSize.ofMiB(4096))
            .transferSize(FileKind.INPUT, DataSize.ofMiB(128))
            .build();
    String inside = refused(in, whole);
    assertTrue(
        inside.contains("the line at offset 6 is longer than " + LIMIT + " bytes")
            && inside.contains((LIMIT + 1) + " bytes or more"),
        inside);
  }

  @Test
  void aRowLengthOverTheLimitIsRefusedWithItsOffset() throws IOException {
    Path in = dir.resolve("in");
    ByteBuffer b = ByteBuffer.allocate(4 + 3 + 4);
    b.putInt(3).put(new byte[] {1, 2, 3}).putInt(LIMIT + 1);
    Files.write(in, b.array());
    String m = refused(in, config(RecordFormat.lengthPrefixed()).build());
    assertTrue(m.contains("the row at offset 7 is longer than " + LIMIT + " bytes"), m);
  }

  @Test
  void anInputEndingInsideARowIsRefused() throws IOException {
    Path in = dir.resolve("in");
    ByteBuffer b = ByteBuffer.allocate(4 + 3 + 4 + 5);
    b.putInt(3).put(new byte[] {1, 2, 3}).putInt(9).put(new byte[5]);
    Files.write(in, b.array());
    String m = refused(in, config(RecordFormat.lengthPrefixed()).build());
    assertTrue(m.contains("the input ends inside the row at offset 7 (4 bytes missing)"), m);
    // And inside the length itself.
    Files.write(in, Arrays.copyOf(b.array(), 4 + 3 + 2));
    String cut = refused(in, config(RecordFormat.lengthPrefixed()).build());
    assertTrue(cut.contains("the input ends inside the row at offset 7"), cut);
    assertEquals(0, countFiles(dir.resolve("tmp")), "temp files left");
  }

  static long countFiles(Path d) throws IOException {
    try (var s = Files.list(d)) {
      return s.count();
    }
  }
}
