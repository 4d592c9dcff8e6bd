package dev.joule.cli;

import dev.joule.core.key.GnuDebug;
import dev.joule.io.error.SortIOException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the sorted, validated output of a {@code --debug} sort as GNU shows it: each line followed
 * by the marks of its keys ({@link GnuDebug#annotate}). Streams: memory is a read buffer, the
 * current line and a write buffer.
 */
final class DebugAnnotation {
  private static final int BUFFER = 1 << 16;

  private DebugAnnotation() {}

  /**
   * Annotates the lines of {@code sorted}, ended by {@code delimiter} (a last line may lack it), to
   * {@code o}, which errors call {@code name}.
   */
  static void write(Path sorted, byte delimiter, GnuDebug debug, OutputStream o, Path name)
      throws SortIOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    byte[] buf = new byte[BUFFER];
    try (InputStream in = Files.newInputStream(sorted)) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (buf[i] == delimiter) {
            line.write(buf, from, i - from);
            annotate(line, debug, shown);
            from = i + 1;
            if (shown.size() >= BUFFER) {
              flush(shown, o, name);
            }
          }
        }
        line.write(buf, from, n - from);
      }
      if (line.size() > 0) {
        annotate(line, debug, shown);
      }
    } catch (IOException e) {
      throw new SortIOException("read", sorted, SortIOException.reasonOf(e), e);
    }
    flush(shown, o, name);
    try {
      o.flush();
    } catch (IOException e) {
      throw new SortIOException("write", name, SortIOException.reasonOf(e), e);
    }
  }

  private static void annotate(
      ByteArrayOutputStream line, GnuDebug debug, ByteArrayOutputStream shown) {
    byte[] bytes = line.toByteArray();
    debug.annotate(ByteBuffer.wrap(bytes), 0, bytes.length, shown);
    line.reset();
  }

  private static void flush(ByteArrayOutputStream shown, OutputStream o, Path name)
      throws SortIOException {
    try {
      shown.writeTo(o);
    } catch (IOException e) {
      throw new SortIOException("write", name, SortIOException.reasonOf(e), e);
    }
    shown.reset();
  }
}
