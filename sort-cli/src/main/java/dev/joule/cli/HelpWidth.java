package dev.joule.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * The width {@code --help} is wrapped to: {@code $COLUMNS} when it is a number, else the terminal's
 * width when standard output is one, else 80 (GNU's width for help); never more than {@link #MAX},
 * where lines grow too long to read, nor less than picocli's minimum. Asked only when help is
 * rendered (finding the terminal's width runs {@code stty}). Stateless.
 */
final class HelpWidth {
  /** Without a terminal or {@code $COLUMNS}: the width GNU's help texts are written for. */
  static final int DEFAULT = 80;

  /** The widest help: a longer line is hard to follow back to its start. */
  static final int MAX = 100;

  /** picocli refuses a narrower usage message. */
  static final int MIN = 55;

  private HelpWidth() {}

  /** The width for this process: its environment and its terminal. */
  static int current() {
    return of(System::getenv, HelpWidth::terminalColumns);
  }

  /** The width from {@code env}'s COLUMNS, else {@code terminal} (0 when there is none). */
  static int of(UnaryOperator<String> env, IntSupplier terminal) {
    int columns = 0;
    String c = env.apply("COLUMNS");
    if (c != null) {
      try {
        columns = Integer.parseInt(c.trim());
      } catch (NumberFormatException e) {
        columns = 0;
      }
    }
    if (columns <= 0) {
      columns = terminal.getAsInt();
    }
    if (columns <= 0) {
      columns = DEFAULT;
    }
    return Math.max(MIN, Math.min(MAX, columns));
  }

  /** The columns of the terminal on standard output, or 0 if it is not a terminal. */
  private static int terminalColumns() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
      if (!target.startsWith("/dev/pts/") && !target.startsWith("/dev/tty")) {
        return 0;
      }
      Process p =
          new ProcessBuilder("stty", "size")
              .redirectInput(new File(target))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      if (!p.waitFor(2, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return 0;
      }
      String[] rowsColumns = out.split("\\s+", -1);
      return rowsColumns.length == 2 ? Integer.parseInt(rowsColumns[1]) : 0;
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}
