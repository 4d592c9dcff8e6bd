package dev.joule.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What {@code joule sort} and {@code joule bench} take from outside the command line: the sort
 * engine, the raw standard streams (records are bytes, so {@code sort - -} cannot go through
 * picocli's character writers; {@code System.out} is not used either, because a PrintStream hides
 * write errors such as a closed pipe), where the RAPL counters live, and the environment variables
 * that choose the locale ({@code LC_ALL}, {@code LC_COLLATE}, {@code LANG}, ...). Tests pass their
 * own.
 *
 * @param engine the sort engine
 * @param stdin standard input as bytes
 * @param stdout standard output as bytes
 * @param powercap the {@code /sys/class/powercap} directory
 * @param variables the environment variables
 */
record CliEnvironment(
    SortEngine engine,
    InputStream stdin,
    OutputStream stdout,
    Path powercap,
    Map<String, String> variables) {
  /** An environment with no variables: the C locale. */
  CliEnvironment(SortEngine engine, InputStream stdin, OutputStream stdout, Path powercap) {
    this(engine, stdin, stdout, powercap, Map.of());
  }

  /**
   * The real process: ExternalSorter, file descriptors 0 and 1, the kernel's powercap tree, its
   * environment.
   */
  static CliEnvironment system() {
    return new CliEnvironment(
        SortEngine.external(),
        new FileInputStream(FileDescriptor.in),
        new FileOutputStream(FileDescriptor.out),
        RaplMeter.POWERCAP,
        System.getenv());
  }
}
