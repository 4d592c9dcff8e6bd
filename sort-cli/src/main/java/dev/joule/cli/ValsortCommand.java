package dev.joule.cli;

import dev.joule.core.valsort.ParallelValidator;
import dev.joule.core.valsort.SummaryCombiner;
import dev.joule.core.valsort.ValsortException;
import dev.joule.core.valsort.ValsortSummary;
import dev.joule.io.error.SortIOException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code joule valsort}: the Sort Benchmark's output validator, with valsort 1.5's flags, stderr
 * report and exit status (0 ordered, 1 unordered, and 1 for usage and fatal errors as the
 * reference). Records are read with FileChannel positional reads into 4 MiB direct buffers, one
 * range per {@code -t} thread, and the range summaries combined by valsort {@code -s}'s rules.
 */
@Command(
    name = "valsort",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    separator = " ",
    exitCodeOnInvalidInput = ExitCodes.UNORDERED,
    exitCodeOnExecutionException = ExitCodes.UNORDERED,
    exitCodeListHeading = "%nExit codes (as the reference valsort):%n",
    exitCodeList = {
      "0:all records are in order",
      "1:records out of order, a usage error, or a fatal read error"
    },
    description = {
      "Checks that FILE's 100-byte records are in key order, as the reference valsort 1.5.",
      "Keys are bytes 0-9 compared as unsigned bytes. The report goes to standard error: the first"
          + " unordered record, the record count, the checksum (sum of CRC-32s, hex), and the"
          + " duplicate keys or the number of unordered records.",
      "Exit status 0 when ordered; 1 when unordered, and also 1 for usage and fatal errors (missing"
          + " file, empty file, partial record), as the reference.",
    },
    footer = {
      "",
      "Examples:",
      "  joule valsort sortoutputfile",
      "  Partitioned output out0.dat .. out3.dat:",
      "    joule valsort -o out0.sum out0.dat      (and so on for out1..out3)",
      "    cat out0.sum out1.sum out2.sum out3.sum > all.sum",
      "    joule valsort -s all.sum",
    })
public final class ValsortCommand implements Callable<Integer> {
  /** Read size per thread: docs/decisions/D4, measured 1–4 MiB transfers as enough. */
  static final int READ_BUFFER_BYTES = 4 << 20;

  @Spec CommandSpec spec;

  @Option(
      names = "-i",
      description = {
        "Case-insensitive ASCII comparison (optional for PennySort), exactly as the reference:"
            + " it compares like strcasecmp over the whole record, so equal keys are ordered by"
            + " their payload and duplicates are practically never counted."
      })
  boolean caseInsensitive;

  @Option(
      names = "-q",
      description = "Quiet: print no report (fatal errors still print); the exit status remains.")
  boolean quiet;

  @Option(
      names = "-o",
      paramLabel = "SUMMARY",
      description =
          "Also write the 280-byte summary of the validated records to SUMMARY, for -s later.")
  String summaryFile;

  @Option(
      names = "-s",
      description =
          "FILE holds concatenated partition summaries (from -o), in partition order, instead of"
              + " records.")
  boolean summaries;

  @Option(
      names = "-t",
      paramLabel = "N",
      description =
          "Validation threads (default: the number of processors). The result does not depend on"
              + " N.")
  int threads = Runtime.getRuntime().availableProcessors();

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "The sorted file, or with -s the summaries file.")
  String file;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    if (threads < 1) {
      throw new ParameterException(spec.commandLine(), "-t must be at least 1: " + threads);
    }
    try {
      FileChannel out = summaryFile == null ? null : openSummaryOutput(err);
      ValsortSummary result;
      try (FileChannel in = open(file, err)) {
        result =
            summaries
                ? readSummaries(in, caseInsensitive)
                : new ParallelValidator(threads, READ_BUFFER_BYTES, caseInsensitive)
                    .validate(in.size(), in::read);
      } catch (IOException e) {
        err.println("valsort: error reading " + file + ": " + SortIOException.reasonOf(e));
        return ExitCodes.UNORDERED;
      }
      if (out != null) {
        try (out) {
          ByteBuffer b = ByteBuffer.wrap(result.toBytes());
          while (b.hasRemaining()) {
            out.write(b);
          }
        } catch (IOException e) {
          err.println("valsort: error writing " + summaryFile + ": " + SortIOException.reasonOf(e));
          return ExitCodes.UNORDERED;
        }
      }
      if (!quiet) {
        result.reportLines().forEach(err::println);
      }
      return result.isOrdered() ? ExitCodes.OK : ExitCodes.UNORDERED;
    } catch (ValsortException e) {
      err.println(e.getMessage()); // the reference's exact text, without a prefix
      return ExitCodes.UNORDERED;
    } catch (OpenFailed e) {
      return ExitCodes.UNORDERED;
    } finally {
      err.flush();
    }
  }

  /** Opened before validation, as the reference does, so a bad -o path fails fast. */
  private FileChannel openSummaryOutput(PrintWriter err) throws OpenFailed {
    try {
      return FileChannel.open(
          Path.of(summaryFile),
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException | RuntimeException e) {
      err.println("valsort: cannot create " + summaryFile + ": " + describe(e));
      throw new OpenFailed();
    }
  }

  private static FileChannel open(String path, PrintWriter err) throws OpenFailed {
    try {
      return FileChannel.open(Path.of(path), StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      err.println("valsort: cannot open " + path + ": " + describe(e));
      throw new OpenFailed();
    }
  }

  private static ValsortSummary readSummaries(FileChannel in, boolean caseInsensitive)
      throws IOException, ValsortException {
    long size = in.size();
    if (size % ValsortSummary.BYTES != 0) {
      throw new ValsortException(ValsortException.PARTIAL_SUMMARY);
    }
    if (size > Integer.MAX_VALUE) {
      throw new IOException("more than 2 GiB of summaries");
    }
    ByteBuffer all = ByteBuffer.allocate((int) size);
    while (all.hasRemaining() && in.read(all) >= 0) {
      // read until full or end of file
    }
    all.flip();
    SummaryCombiner combiner = new SummaryCombiner(caseInsensitive);
    while (all.remaining() >= ValsortSummary.BYTES) {
      combiner.add(ValsortSummary.readFrom(all));
    }
    if (all.hasRemaining()) {
      throw new ValsortException(ValsortException.PARTIAL_SUMMARY);
    }
    return combiner.result();
  }

  private static String describe(Exception e) {
    return e instanceof IOException io
        ? SortIOException.reasonOf(io)
        : String.valueOf(e.getMessage());
  }

  /** The open failed and its message is printed; only the exit status remains to be returned. */
  private static final class OpenFailed extends Exception {
    OpenFailed() {
      super(null, null, false, false);
    }
  }
}
