package dev.joule.cli;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.error.SortIOException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The FILE operands of {@code joule sort}: {@code -} is standard input; with none, standard input
 * alone. The engine sorts one regular file it can size and read by position, so standard input, a
 * pipe or device, or several files are first copied into one private file (a line format's file
 * whose last line lacks its delimiter gets one, so that its last line stays a line of its own, as
 * GNU sort reads each file).
 */
final class SortInputs {
  static final String STDIN = "-";
  private static final int COPY_BUFFER = 1 << 20;

  private final List<String> names;
  private final InputStream stdin;

  SortInputs(List<String> names, InputStream stdin) {
    this.names = names.isEmpty() ? List.of(STDIN) : List.copyOf(names);
    this.stdin = stdin;
  }

  /**
   * The operands named in {@code list} ({@code --files0-from}): NUL-separated names, read from
   * standard input when {@code list} is {@code -}. GNU's errors: an empty name, {@code -} among
   * names read from standard input, and no name at all.
   */
  static List<String> files0From(String list, InputStream stdin) throws SortIOException {
    byte[] bytes;
    Path path = Path.of(list);
    try {
      bytes = STDIN.equals(list) ? readAll(stdin) : Files.readAllBytes(path);
    } catch (IOException e) {
      throw new SortIOException("open", path, SortIOException.reasonOf(e), e);
    }
    List<String> names = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length && start == i) {
        break;
      }
      if (i == bytes.length || bytes[i] == 0) {
        String name = new String(bytes, start, i - start, StandardCharsets.UTF_8);
        int number = names.size() + 1;
        if (name.isEmpty()) {
          throw new IllegalArgumentException(
              list + ":" + number + ": invalid zero-length file name");
        }
        if (STDIN.equals(list) && STDIN.equals(name)) {
          throw new IllegalArgumentException(
              "when reading file names from standard input, no file name of '-' allowed");
        }
        names.add(name);
        start = i + 1;
      }
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException("no input from '" + list + "'");
    }
    return names;
  }

  /**
   * All of {@code in}, read with plain reads: JDK 17's {@code FileInputStream.readAllBytes} asks
   * for the file position first, which fails with "Illegal seek" when standard input is a pipe.
   */
  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    in.transferTo(all);
    return all.toByteArray();
  }

  List<String> names() {
    return names;
  }

  /** Checks that every named file exists, is readable and is not a directory. */
  void checkReadable() throws SortIOException {
    for (String n : names) {
      if (!STDIN.equals(n)) {
        SortCommand.checkInput(Path.of(n));
      }
    }
  }

  /** The one regular file to sort in place of the operands, or null if they must be copied. */
  Path direct() {
    if (names.size() != 1 || STDIN.equals(names.get(0))) {
      return null;
    }
    Path p = Path.of(names.get(0));
    return Files.isRegularFile(p) ? p : null;
  }

  /** An open stream of each operand, in order, for a merge or a check. */
  List<InputStream> open() throws SortIOException {
    List<InputStream> streams = new ArrayList<>();
    try {
      for (String n : names) {
        streams.add(STDIN.equals(n) ? stdin : open(Path.of(n)));
      }
    } catch (SortIOException e) {
      for (InputStream s : streams) {
        closeQuietly(s);
      }
      throw e;
    }
    return streams;
  }

  /** Copies the operands, in order, into {@code target} (a new private file). */
  void copyInto(Path target, RecordFormat format) throws SortIOException {
    byte[] buf = new byte[COPY_BUFFER];
    int delimiter = format instanceof LineFormat lf ? lf.delimiter() & 0xFF : -1;
    int recordSize = format instanceof FixedLengthFormat f ? f.recordSize() : 0;
    try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.WRITE)) {
      for (String n : names) {
        Path source = STDIN.equals(n) ? Path.of("/dev/stdin") : Path.of(n);
        InputStream in = STDIN.equals(n) ? stdin : open(source);
        long copied = 0;
        int last = -1;
        try {
          int r;
          while ((r = read(in, buf, source)) >= 0) {
            if (r > 0) {
              write(out, buf, r, target);
              copied += r;
              last = buf[r - 1] & 0xFF;
            }
          }
        } finally {
          if (in != stdin) {
            closeQuietly(in);
          }
        }
        if (delimiter >= 0 && copied > 0 && last != delimiter) {
          buf[0] = (byte) delimiter;
          write(out, buf, 1, target);
        }
        if (recordSize > 0 && copied % recordSize != 0) {
          throw new SortIOException(
              "read",
              source,
              "size " + copied + " is not a multiple of the record size " + recordSize);
        }
      }
    } catch (SortIOException e) {
      throw e;
    } catch (IOException e) {
      throw new SortIOException("write", target, SortIOException.reasonOf(e), e);
    }
  }

  private static InputStream open(Path p) throws SortIOException {
    try {
      return Files.newInputStream(p);
    } catch (IOException e) {
      throw new SortIOException("open", p, SortIOException.reasonOf(e), e);
    }
  }

  private static int read(InputStream in, byte[] buf, Path source) throws SortIOException {
    try {
      return in.read(buf);
    } catch (IOException e) {
      throw new SortIOException("read", source, SortIOException.reasonOf(e), e);
    }
  }

  private static void write(OutputStream out, byte[] buf, int n, Path target)
      throws SortIOException {
    try {
      out.write(buf, 0, n);
    } catch (IOException e) {
      throw new SortIOException("write", target, SortIOException.reasonOf(e), e);
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // a read-only stream: nothing was lost; the copy or merge reports its own errors
    }
  }
}
