package dev.joule.cli;

import dev.joule.io.error.SortIOException;
import dev.joule.io.pipeline.SortedInputs;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The FILE operands of {@code joule sort}: {@code -} is standard input; with none, standard input
 * alone. One regular file is sorted by the file sort ({@link #direct()}), which reads it by
 * position; standard input, a pipe or device, or several files are read as streams, one after
 * another, straight into the sort ({@link #streams()}).
 */
final class SortInputs {
  static final String STDIN = "-";
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

  /**
   * The operands as inputs of a sort of streams, in order: standard input for {@code -} (never
   * closed by the sort: {@code sort - -} reads it twice, the second time to its end at once, as GNU
   * does), and each file opened only when the sort reaches it, so that many operands never hold
   * many descriptors at once.
   */
  List<SortedInputs.Input> streams() {
    List<SortedInputs.Input> list = new ArrayList<>();
    for (String n : names) {
      InputStream in = STDIN.equals(n) ? new KeptOpen(stdin) : new OpenedOnRead(Path.of(n));
      list.add(new SortedInputs.Input(Path.of(n), in));
    }
    return list;
  }

  /** A stream whose {@code close()} leaves the stream under it open (standard input). */
  private static final class KeptOpen extends FilterInputStream {
    KeptOpen(InputStream in) {
      super(in);
    }

    @Override
    public void close() {
      // standard input stays open: a later '-' operand reads it again, and the process owns it
    }
  }

  /** A file opened at its first read: {@code open failed: FILE: reason} if it cannot be. */
  private static final class OpenedOnRead extends InputStream {
    private final Path path;
    private InputStream in;
    private boolean closed;

    OpenedOnRead(Path path) {
      this.path = path;
    }

    private InputStream in() throws SortIOException {
      if (in == null) {
        if (closed) {
          throw new SortIOException("read", path, "Stream closed");
        }
        in = open(path);
      }
      return in;
    }

    @Override
    public int read() throws IOException {
      return in().read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in().read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      closed = true;
      if (in != null) {
        in.close();
      }
    }
  }

  private static InputStream open(Path p) throws SortIOException {
    try {
      return Files.newInputStream(p);
    } catch (IOException e) {
      throw new SortIOException("open", p, SortIOException.reasonOf(e), e);
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
