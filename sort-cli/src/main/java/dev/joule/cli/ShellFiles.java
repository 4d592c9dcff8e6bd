package dev.joule.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Writes the files a shell user installs beside the launcher, from the command model itself: the
 * manual page {@code joule.1} ({@link ManPage}) and the bash completion script {@code
 * joule_completion} ({@link BashCompletion}: commands, options and their values, file names for
 * FILE operands and path arguments). {@code mvn package} runs it into {@code
 * sort-cli/target/shell/}, and the bin tarball ships both.
 *
 * <pre>java -cp joule.jar dev.joule.cli.ShellFiles DIR</pre>
 */
public final class ShellFiles {
  private ShellFiles() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ShellFiles DIR");
      System.exit(ExitCodes.USAGE_OR_IO);
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    CommandLine cl = JouleCommand.newCommandLine();
    // --help shows this machine's defaults; the page is built once for every machine. Descriptions
    // are interpolated when read, so these take effect for the rendering only.
    System.setProperty(JouleCommand.DEFAULT_MEMORY_PROPERTY, "the value --help shows");
    String tmp = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", "/tmp");
    String page;
    try {
      page =
          ManPage.render(cl, BuildVersionProvider.buildVersion())
              .replace("the processors (" + MachineDefaults.threads() + ")", "the processors");
    } finally {
      System.setProperty("java.io.tmpdir", tmp);
    }
    Files.writeString(dir.resolve("joule.1"), page, StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("joule_completion"), BashCompletion.script(cl), StandardCharsets.UTF_8);
  }
}
