package dev.joule.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The bash completion script of {@code joule}, written from the command model: the commands; each
 * command's options; after an option that takes a file or directory (its label FILE, F or DIR, or a
 * path type), the file or directory names; after one with fixed values, those values in lower case;
 * after another option with an argument, nothing; anywhere else, FILE operands as file names (for
 * the commands that take them). {@code --option=value} completes the value. Stateless.
 */
final class BashCompletion {
  private static final Set<String> FILE_LABELS = Set.of("FILE", "F", "PATH");

  /** File names, one per line (they may hold blanks), shown as readline shows file names. */
  private static final String FILES =
      "local IFS=$'\\n'; compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))";

  private BashCompletion() {}

  /** The script for {@code root}'s command line; source it, or put it in bash-completion's dir. */
  static String script(CommandLine root) {
    String name = root.getCommandName();
    String fn = "_complete_" + name.replaceAll("[^A-Za-z0-9_]", "_");
    Map<String, CommandLine> subs = root.getSubcommands();
    StringBuilder s = new StringBuilder();
    s.append("# bash completion for ")
        .append(name)
        .append(": source this file, or install it as\n");
    s.append("# /usr/share/bash-completion/completions/").append(name);
    s.append(" (written by ").append(ShellFiles.class.getSimpleName());
    s.append(" from the command model).\n");
    s.append(fn).append("() {\n");
    s.append("  local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\" cmd=\"\" i\n");
    s.append("  [ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}\n");
    s.append("  for ((i = 1; i < COMP_CWORD; i++)); do\n");
    s.append("    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n");
    s.append("  done\n");
    s.append("  # --option=value: bash splits it at '=' (COMP_WORDBREAKS)\n");
    s.append(
        "  if [ \"$cur\" = = ]; then cur=\"\"; elif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 1 ];"
            + " then\n");
    s.append("    prev=${COMP_WORDS[COMP_CWORD-2]}\n");
    s.append("  fi\n");
    s.append("  COMPREPLY=()\n");
    s.append("  case $cmd in\n");
    s.append("    '')\n");
    s.append("      if [[ $cur == -* ]]; then\n");
    s.append("        COMPREPLY=($(compgen -W '")
        .append(words(optionNames(root.getCommandSpec())))
        .append("' -- \"$cur\"))\n");
    s.append("      else\n");
    s.append("        COMPREPLY=($(compgen -W '")
        .append(String.join(" ", subs.keySet()))
        .append("' -- \"$cur\"))\n");
    s.append("      fi\n");
    s.append("      ;;\n");
    for (Map.Entry<String, CommandLine> e : subs.entrySet()) {
      command(s, e.getKey(), e.getValue(), subs.keySet());
    }
    s.append("  esac\n");
    s.append("}\n");
    s.append("complete -F ").append(fn).append(' ').append(name).append('\n');
    return s.toString();
  }

  private static void command(StringBuilder s, String name, CommandLine cl, Set<String> commands) {
    CommandSpec spec = cl.getCommandSpec();
    s.append("    ").append(name).append(")\n");
    s.append("      case $prev in\n");
    for (OptionSpec o : spec.options()) {
      if (o.arity().min() == 0 || o.hidden()) { // flags, and --check[=WORD] (its WORD attached)
        continue;
      }
      s.append("        ").append(String.join("|", o.names())).append(")\n");
      if (o.type().isEnum()) {
        List<String> values = new ArrayList<>();
        for (Object c : o.type().getEnumConstants()) {
          values.add(((Enum<?>) c).name().toLowerCase(Locale.ROOT));
        }
        s.append("          COMPREPLY=($(compgen -W '").append(words(values));
        s.append("' -- \"$cur\"))\n");
      } else if (isDirectory(o)) {
        s.append("          ").append(FILES.replace("-f", "-d")).append('\n');
      } else if (isFile(o)) {
        s.append("          ").append(FILES).append('\n');
      }
      s.append("          return 0 ;;\n");
    }
    s.append("      esac\n");
    s.append("      if [[ $cur == -* ]]; then\n");
    s.append("        COMPREPLY=($(compgen -W '").append(words(optionNames(spec)));
    s.append("' -- \"$cur\"))\n");
    if (name.equals("help")) {
      s.append("      else\n");
      s.append("        COMPREPLY=($(compgen -W '").append(String.join(" ", commands));
      s.append("' -- \"$cur\"))\n");
    } else if (!spec.positionalParameters().isEmpty()) {
      s.append("      else\n");
      s.append("        ").append(FILES).append('\n');
    }
    s.append("      fi\n");
    s.append("      ;;\n");
  }

  private static List<String> optionNames(CommandSpec spec) {
    List<String> names = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        names.addAll(List.of(o.names()));
      }
    }
    return names;
  }

  private static boolean isDirectory(OptionSpec o) {
    return o.paramLabel().equals("DIR");
  }

  private static boolean isFile(OptionSpec o) {
    Class<?> t = o.type();
    Class<?>[] aux = o.auxiliaryTypes();
    boolean pathType =
        t == Path.class
            || t == File.class
            || (aux.length > 0 && (aux[0] == Path.class || aux[0] == File.class));
    return pathType || FILE_LABELS.contains(o.paramLabel());
  }

  /** Words for compgen -W: none of joule's names needs quoting inside single quotes. */
  private static String words(List<String> words) {
    return String.join(" ", words);
  }
}
