package dev.joule.cli;

import dev.joule.core.key.GnuDebug;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The sorted output of a {@code --debug} sort or merge, written through as GNU shows it: each line
 * followed by the marks of its keys ({@link GnuDebug#annotate}). Bytes arrive as the sort writes
 * them (the copy of the staged, validated output, or the merge's stream); a line is marked once its
 * delimiter arrives, {@link #finish()} marks a last line without one.
 *
 * <p>Memory: the current line (GNU holds it too) and a write buffer; marks go straight to the
 * buffer, so a long line costs its own length once. Not thread-safe; {@link #close()} does not
 * close the downstream stream (it may be standard output).
 */
final class DebugAnnotation extends OutputStream {
  private static final int BUFFER = 1 << 16;

  private final GnuDebug debug;
  private final byte delimiter;
  private final BufferedOutputStream out;
  private byte[] line = new byte[256];
  private int length;

  /** Marks the lines, ended by {@code delimiter}, written to it into {@code downstream}. */
  DebugAnnotation(GnuDebug debug, byte delimiter, OutputStream downstream) {
    this.debug = debug;
    this.delimiter = delimiter;
    this.out = new BufferedOutputStream(downstream, BUFFER);
  }

  @Override
  public void write(int b) throws IOException {
    if ((byte) b == delimiter) {
      markLine();
    } else {
      room(1);
      line[length++] = (byte) b;
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    int from = off;
    for (int i = off, end = off + len; i < end; i++) {
      if (b[i] == delimiter) {
        append(b, from, i - from);
        markLine();
        from = i + 1;
      }
    }
    append(b, from, off + len - from);
  }

  /** Marks a last line that has no delimiter, then flushes. */
  void finish() throws IOException {
    if (length > 0) {
      markLine();
    }
    out.flush();
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  private void append(byte[] b, int off, int len) {
    room(len);
    System.arraycopy(b, off, line, length, len);
    length += len;
  }

  private void room(int more) {
    if (length + more > line.length) {
      line = Arrays.copyOf(line, Math.max(length + more, 2 * line.length));
    }
  }

  private void markLine() throws IOException {
    debug.annotate(ByteBuffer.wrap(line, 0, length), 0, length, out);
    length = 0;
  }
}
