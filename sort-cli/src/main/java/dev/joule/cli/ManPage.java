package dev.joule.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes joule's manual page, {@code joule(1)}, in troff ({@code man -l joule.1}) from the same
 * picocli model as {@code --help}: every command's synopsis, description, arguments, options,
 * examples and the exit codes. Generated at build time ({@link ShellFiles}), so it cannot drift
 * from the code.
 *
 * <p>Stateless.
 */
final class ManPage {
  private ManPage() {}

  /**
   * The page of {@code root} (the {@code joule} command) and its subcommands, version {@code v}.
   */
  static String render(CommandLine root, String version) {
    StringBuilder sb = new StringBuilder();
    CommandSpec spec = root.getCommandSpec();
    sb.append(".TH JOULE 1 \"\" \"joule ").append(quoted(version)).append("\" \"User Commands\"\n");
    sb.append(".SH NAME\n")
        .append("joule \\- ")
        .append(text(first(spec.usageMessage().description())))
        .append('\n');
    sb.append(".SH SYNOPSIS\n");
    for (CommandLine sub : subcommands(root)) {
      sb.append(".B joule ")
          .append(sub.getCommandName())
          .append("\n.RI [ OPTION ]...")
          .append(positionals(sub.getCommandSpec()))
          .append("\n.br\n");
    }
    sb.append(".SH DESCRIPTION\n");
    paragraphs(sb, spec.usageMessage().description());
    sb.append(".PP\nEach command is described below; ")
        .append("\\fBjoule \\fICOMMAND\\fB \\-\\-help\\fR prints the same text.\n");
    for (CommandLine sub : subcommands(root)) {
      command(sb, sub);
    }
    sb.append(".SH EXIT STATUS\n");
    for (Map.Entry<String, String> e : ExitCodes.helpList().entrySet()) {
      sb.append(".TP\n.B ").append(text(e.getKey())).append('\n');
      sb.append(text(e.getValue())).append('\n');
    }
    sb.append(".SH SEE ALSO\n.BR sort (1)\n");
    return sb.toString();
  }

  private static List<CommandLine> subcommands(CommandLine root) {
    List<CommandLine> out = new ArrayList<>();
    for (CommandLine sub : root.getSubcommands().values()) {
      if (!sub.getCommandSpec().usageMessage().hidden()
          && !(sub.getCommand() instanceof CommandLine.HelpCommand)) {
        out.add(sub);
      }
    }
    return out;
  }

  private static void command(StringBuilder sb, CommandLine sub) {
    CommandSpec s = sub.getCommandSpec();
    sb.append(".SH \"JOULE ").append(sub.getCommandName().toUpperCase(Locale.ROOT)).append("\"\n");
    String[] header = s.usageMessage().header();
    if (header.length > 0) {
      sb.append(".B\n").append(text(String.join(" ", header))).append('\n');
    }
    paragraphs(sb, s.usageMessage().description());
    if (!s.positionalParameters().isEmpty()) {
      sb.append(".SS Arguments\n");
      for (PositionalParamSpec p : s.positionalParameters()) {
        sb.append(".TP\n.I ").append(text(p.paramLabel())).append('\n');
        lines(sb, p.description());
      }
    }
    sb.append(".SS Options\n");
    for (OptionSpec o : s.options()) {
      if (o.hidden()) {
        continue;
      }
      sb.append(".TP\n").append(optionHead(o)).append('\n');
      lines(sb, o.description());
    }
    String[] footer = s.usageMessage().footer();
    if (footer.length > 0) {
      sb.append(".SS Examples\n.nf\n");
      for (String line : footer) {
        String t = format(line);
        if (t.isBlank() || t.strip().equals("Examples:")) {
          continue;
        }
        sb.append(text(t)).append('\n');
      }
      sb.append(".fi\n");
    }
  }

  /** {@code \fB-o\fR, \fB--output\fR=\fIFILE\fR}. */
  private static String optionHead(OptionSpec o) {
    StringBuilder h = new StringBuilder();
    String[] names = o.names();
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        h.append(", ");
      }
      h.append("\\fB").append(text(names[i])).append("\\fR");
    }
    if (o.arity().max() > 0 && !o.paramLabel().isEmpty()) {
      h.append(names[names.length - 1].startsWith("--") ? "=" : " ")
          .append("\\fI")
          .append(text(o.paramLabel()))
          .append("\\fR");
    }
    return h.toString();
  }

  private static String positionals(CommandSpec s) {
    StringBuilder sb = new StringBuilder();
    for (PositionalParamSpec p : s.positionalParameters()) {
      boolean optional = p.arity().min() == 0;
      boolean many = p.arity().max() > 1;
      sb.append("\n.")
          .append(optional ? "RI [ " : "I ")
          .append(text(p.paramLabel()))
          .append(optional ? " ]" : "")
          .append(many ? "..." : "");
    }
    return sb.toString();
  }

  private static void paragraphs(StringBuilder sb, String[] description) {
    for (String p : description) {
      sb.append(".PP\n").append(text(format(p))).append('\n');
    }
  }

  private static void lines(StringBuilder sb, String[] description) {
    for (int i = 0; i < description.length; i++) {
      if (i > 0) {
        sb.append(".br\n");
      }
      sb.append(text(format(description[i]))).append('\n');
    }
  }

  private static String first(String[] s) {
    return s.length == 0 ? "" : format(s[0]);
  }

  /** picocli's format escapes as {@code --help} prints them: {@code %%} and {@code %n}. */
  private static String format(String s) {
    return s.replace("%n", "\n").replace("%%", "%");
  }

  /**
   * Text safe for troff: backslashes and hyphens escaped, and no line starting with a control
   * character ({@code .} or {@code '}).
   */
  static String text(String s) {
    String t = s.replace("\\", "\\e").replace("-", "\\-");
    StringBuilder out = new StringBuilder();
    for (String line : t.split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      String l = line;
      if (l.startsWith(".") || l.startsWith("'")) {
        out.append("\\&");
      }
      out.append(l);
    }
    return out.toString();
  }

  private static String quoted(String s) {
    return s.replace("\"", "'");
  }
}
