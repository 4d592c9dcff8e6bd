package dev.joule.cli;

import dev.joule.core.gensort.GensortMode;
import dev.joule.core.gensort.ParallelGensort;
import dev.joule.core.gensort.RecordLayout;
import dev.joule.core.gensort.Uint128;
import dev.joule.core.valsort.RecordChecksum;
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
 * {@code joule gensort}: the Sort Benchmark's input generator, with gensort 1.5's flags and output.
 * Generation runs on {@code -t} threads in blocks, each written with a positional FileChannel write
 * at its own offset, so the file is identical for any thread count.
 */
@Command(
    name = "gensort",
    mixinStandardHelpOptions = true,
    versionProvider = BuildVersionProvider.class,
    sortOptions = false,
    separator = " ",
    description = {
      "Generates NUM_RECS 100-byte Sort Benchmark records (10-byte key) into FILE, byte for byte"
          + " as the reference gensort 1.5.",
      "Record i is a pure function of i, so ranges generated with -b concatenate into the same file"
          + " as one run.",
    },
    footer = {
      "",
      "Examples:",
      "  joule gensort -a 1000000 pennyinput       1e6 ASCII records from record 0",
      "  joule gensort -b2000 1000 partition2      binary records 2000..2999",
      "  joule gensort -c -t2 10000000 /dev/null   checksum only, 2 threads",
      "  joule gensort -l 1000 teragen.dat         Hadoop TeraGen layout",
    })
public final class GensortCommand implements Callable<Integer> {
  private static final String DEV_NULL = "/dev/null";

  @Spec CommandSpec spec;

  @Option(
      names = "-a",
      description = "ASCII records (printable keys, CR LF ended), for PennySort or JouleSort.")
  boolean ascii;

  @Option(
      names = "-s",
      description = "Skewed keys (gensort 1.5's alternate Daytona test); combines with -a.")
  boolean skew;

  @Option(
      names = "-l",
      description =
          "Legacy binary layout of gensort 1.2 and Hadoop TeraGen (same keys, different payload).")
  boolean legacy;

  @Option(
      names = "-b",
      paramLabel = "N",
      converter = Uint128Converter.class,
      description = "First record number (decimal, up to 128 bits; default 0). Takes -bN or -b N.")
  Uint128 first = Uint128.ZERO;

  @Option(
      names = "-c",
      description = "Print the sum of the records' CRC-32s (hex) to standard error.")
  boolean checksum;

  @Option(
      names = "-t",
      paramLabel = "N",
      description =
          "Generator threads (default: the number of processors, like the reference's SUMP Pump"
              + " build). Output does not depend on N.")
  int threads = Runtime.getRuntime().availableProcessors();

  @Parameters(index = "0", paramLabel = "NUM_RECS", description = "Number of records to generate.")
  long numRecs;

  @Parameters(
      index = "1",
      paramLabel = "FILE",
      description = "Output file; " + DEV_NULL + " skips the writes (checksum-only runs).")
  String file;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    GensortMode mode = mode();
    if (numRecs < 0) {
      throw new ParameterException(spec.commandLine(), "NUM_RECS must not be negative: " + numRecs);
    }
    if (threads < 1) {
      throw new ParameterException(spec.commandLine(), "-t must be at least 1: " + threads);
    }
    ParallelGensort gen = new ParallelGensort(mode, threads);
    RecordChecksum sum;
    if (DEV_NULL.equals(file)) {
      try {
        sum = gen.run(first, numRecs, null);
      } catch (IOException e) {
        throw new IllegalStateException("no sink, yet an I/O error", e);
      }
    } else {
      FileChannel ch;
      try {
        ch =
            FileChannel.open(
                Path.of(file),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
      } catch (IOException | RuntimeException e) {
        err.println("gensort: cannot create " + file + ": " + describe(e));
        err.flush();
        return ExitCodes.USAGE_OR_IO;
      }
      try (ch) {
        sum = gen.run(first, numRecs, (offset, block) -> writeFully(ch, block, offset));
      } catch (IOException e) {
        err.println("gensort: error writing " + file + ": " + SortIOException.reasonOf(e));
        err.flush();
        return ExitCodes.USAGE_OR_IO;
      }
    }
    if (checksum) {
      err.println(sum.toHex());
      err.flush();
    }
    return ExitCodes.OK;
  }

  private GensortMode mode() {
    if (legacy && ascii) {
      throw new ParameterException(
          spec.commandLine(), "-l and -a are different layouts; choose one");
    }
    if (legacy && skew) {
      throw new ParameterException(
          spec.commandLine(), "-s is not defined for the legacy layout (-l)");
    }
    RecordLayout layout =
        legacy ? RecordLayout.LEGACY : ascii ? RecordLayout.ASCII : RecordLayout.BINARY;
    return new GensortMode(layout, skew);
  }

  private static void writeFully(FileChannel ch, ByteBuffer block, long offset) throws IOException {
    int start = block.position(); // offset is where the byte at start goes
    while (block.hasRemaining()) {
      ch.write(block, offset + block.position() - start);
    }
  }

  private static String describe(Exception e) {
    return e instanceof IOException io
        ? SortIOException.reasonOf(io)
        : String.valueOf(e.getMessage());
  }
}
