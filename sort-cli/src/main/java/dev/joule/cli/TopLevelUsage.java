package dev.joule.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The usage errors of {@code joule} itself, in GNU's manner: one line, then "Try 'joule --help' for
 * more information."; a mistyped command gets the nearest one suggested (within two edits, or a
 * prefix), instead of picocli's "Unmatched arguments" and the whole usage. Stateless.
 */
final class TopLevelUsage {
  /** Edits (insert, delete, replace, swap two neighbours) a typo may be from its command. */
  private static final int MAX_TYPO_EDITS = 2;

  private TopLevelUsage() {}

  /** Prints {@code ex} of the top-level command {@code cl}; returns the exit code. */
  static int report(ParameterException ex, CommandLine cl) {
    PrintWriter err = cl.getErr();
    List<String> commands = List.copyOf(cl.getSubcommands().keySet());
    String line;
    if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String typed = u.getUnmatched().get(0);
      if (typed.startsWith("-")) {
        line = "unrecognized option '" + typed + "'";
      } else {
        String near = nearest(typed, commands);
        line =
            "'"
                + typed
                + "' is not a joule command"
                + (near != null ? "; did you mean '" + near + "'?" : " (" + list(commands) + ")");
      }
    } else if (ex.getMessage() != null
        && ex.getMessage().startsWith("Missing required subcommand")) {
      line = "missing command: one of " + list(commands);
    } else {
      String m = String.valueOf(ex.getMessage());
      line = m.isEmpty() ? m : m.substring(0, 1).toLowerCase(Locale.ROOT) + m.substring(1);
    }
    err.println("joule: " + line);
    err.println(tryHelp(cl));
    err.flush();
    return ExitCodes.USAGE_OR_IO;
  }

  /** GNU's pointer to the help of {@code cl}'s command. */
  static String tryHelp(CommandLine cl) {
    return tryHelp(cl.getCommandSpec().qualifiedName());
  }

  /** GNU's pointer to the help of the command {@code qualifiedName} ({@code joule sort}). */
  static String tryHelp(String qualifiedName) {
    return "Try '" + qualifiedName + " --help' for more information.";
  }

  private static String list(List<String> commands) {
    return String.join(", ", commands);
  }

  /** The command {@code typed} most likely meant, or null if none is near enough. */
  static String nearest(String typed, List<String> commands) {
    String best = null;
    int bestDistance = MAX_TYPO_EDITS + 1;
    for (String c : commands) {
      int d = c.startsWith(typed) ? 1 : distance(typed, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Optimal string alignment distance (Levenshtein with transpositions of neighbours). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
