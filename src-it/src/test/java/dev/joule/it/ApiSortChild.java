package dev.joule.it;

import dev.joule.io.config.DataSize;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.FileKind;
import dev.joule.io.config.SortConfig;
import dev.joule.io.error.CorruptRunException;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.error.SortIOException;
import dev.joule.io.error.SortValidationException;
import dev.joule.io.pipeline.ExternalSorter;
import dev.joule.io.report.PhaseReport;
import dev.joule.io.report.SortReport;
import dev.joule.io.testing.SortInputs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A child JVM that sorts a file through {@link ExternalSorter} (the API, not the CLI) in a record
 * format given by {@code --kind} (lines by {@code -k2,2n}, length-prefixed rows), so that the
 * OS-fault tests can put real faults (tmpfs ENOSPC, signals, rlimits, a dying disk) under the API's
 * error paths too. It takes the {@code joule sort} options these tests use, spelled the same and in
 * the same GNU convention ({@code -q --stats --memory --fan-in --threads --direct --transfer-temp
 * --temp}, {@code -o OUTPUT}, then the one input file), after {@code --kind} (a {@link
 * SortInputs.Kind}).
 *
 * <p>A failure ends it as an embedder would report the API's typed exceptions, in the CLI's form so
 * that {@link CliContract} checks it unchanged: one line {@code joule: <message>} on stderr, exit 3
 * for a corrupt run or a failed self-validation, 2 for any other failure. Signals are the JVM's
 * (the engine's shutdown hooks clean up; exit 128 + n). With {@code --stats} each phase's name goes
 * to stderr.
 */
public final class ApiSortChild {
  private ApiSortChild() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    SortConfig.Builder b = SortConfig.builder();
    List<Path> temps = new ArrayList<>();
    List<String> files = new ArrayList<>();
    String output = null;
    boolean stats = false;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-q" -> {}
          case "--stats" -> stats = true;
          case "--kind" -> SortInputs.Kind.valueOf(args[++i]).configure(b, (byte) '\n');
          case "--memory" -> b.memoryBudget(DataSize.parse(args[++i]));
          case "--fan-in" -> b.fanIn(Integer.parseInt(args[++i]));
          case "--threads" -> b.threads(Integer.parseInt(args[++i]));
          case "--direct" -> b.directIo(DirectIoPolicy.valueOf(args[++i].toUpperCase(Locale.ROOT)));
          case "--transfer-temp" -> b.transferSize(FileKind.TEMP, DataSize.parse(args[++i]));
          case "--temp" -> temps.add(Path.of(args[++i]));
          case "-o" -> output = args[++i];
          default -> files.add(a);
        }
      }
      if (files.size() != 1 || output == null) {
        throw new IllegalArgumentException(
            "expected -o OUTPUT and one input, got -o " + output + " and " + files);
      }
      if (!temps.isEmpty()) {
        b.tempDirs(temps);
      }
      SortReport r = ExternalSorter.sort(Path.of(files.get(0)), Path.of(output), b.build());
      if (stats) {
        for (PhaseReport p : r.phases()) {
          System.err.println(p.name());
        }
      }
      return 0;
    } catch (CorruptRunException | SortValidationException e) {
      return fail(e.getMessage(), 3);
    } catch (SortCancelledException e) {
      return fail("cancelled: " + e.getMessage(), 2);
    } catch (SortIOException e) {
      return fail(e.getMessage(), 2);
    } catch (IOException | RuntimeException e) {
      e.printStackTrace(System.err);
      return fail("internal error: " + e, 2);
    }
  }

  private static int fail(String message, int exit) {
    System.err.println("joule: " + message);
    System.err.flush();
    return exit;
  }
}
