package dev.joule.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Reads {@code joule sort}'s arguments the way GNU getopt does where picocli would not: a short
 * option's argument attached to it may be blanks ({@code -t' '}, {@code -nt$'\t'}), which picocli
 * drops, so that it took the next argument as the separator instead. Such an argument is split off
 * into an argument of its own before picocli parses the command. A command-level preprocessor.
 */
final class GnuShortOptions implements IParameterPreprocessor {
  /** GNU sort's short options that take an argument. */
  private static final String WITH_ARGUMENT = "koStT";

  @Override
  public boolean preprocess(
      Stack<String> args, CommandSpec command, ArgSpec arg, Map<String, Object> info) {
    List<String> in = new ArrayList<>();
    while (!args.isEmpty()) {
      in.add(args.pop());
    }
    List<String> out = split(in);
    Collections.reverse(out);
    for (String a : out) {
      args.push(a);
    }
    return false;
  }

  /** The arguments, in order, with blank attached option arguments split off. */
  static List<String> split(List<String> in) {
    List<String> out = new ArrayList<>(in.size());
    boolean options = true;
    for (int i = 0; i < in.size(); i++) {
      String a = in.get(i);
      if (!options || !a.startsWith("-") || a.startsWith("--") || a.length() < 3) {
        options &= !a.equals("--");
        out.add(a);
        continue;
      }
      int at = 1;
      while (at < a.length() && WITH_ARGUMENT.indexOf(a.charAt(at)) < 0) {
        at++;
      }
      if (at + 1 < a.length() && a.substring(at + 1).isBlank()) {
        out.add(a.substring(0, at + 1));
        out.add(a.substring(at + 1));
      } else {
        out.add(a);
        if (at == a.length() - 1 && i + 1 < in.size()) {
          out.add(in.get(++i)); // the option's argument, whatever it looks like
        }
      }
    }
    return out;
  }
}
