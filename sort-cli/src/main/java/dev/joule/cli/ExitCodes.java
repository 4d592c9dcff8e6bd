package dev.joule.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one place where joule's exit codes live; {@link JouleCommand} lists them in {@code --help}.
 *
 * <p>They follow GNU sort's convention (2 for I/O, environment and usage errors) and valsort's (1
 * for "not sorted"), and add 3 for detected corruption. A signal ends the process with 128 + its
 * number.
 */
public final class ExitCodes {
  /** Success. */
  public static final int OK = 0;

  /** Check mode ({@code sort -c}, valsort): the data is not in order. */
  public static final int UNORDERED = 1;

  /** Bad usage, an I/O error, or an environment problem (missing file, no space, ...). */
  public static final int USAGE_OR_IO = 2;

  /** Corruption detected: a checksum or format mismatch in a run, or the sort's self-validation. */
  public static final int CORRUPT = 3;

  /** Base of the exit code for a process ended by signal n: {@code SIGNAL_BASE + n}. */
  public static final int SIGNAL_BASE = 128;

  /** The exit-code section printed by every command's {@code --help}, in order. */
  static Map<String, String> helpList() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("0", "success");
    m.put(
        "1",
        "sort -c/-C, valsort: records out of order (the reference valsort also uses 1 for its"
            + " fatal errors)");
    m.put("2", "usage, I/O or environment error");
    m.put("3", "corruption detected (run checksum, format, or self-validation mismatch)");
    m.put("128+n", "ended by signal n (130 SIGINT, 143 SIGTERM, 129 SIGHUP)");
    return m;
  }

  private ExitCodes() {}
}
