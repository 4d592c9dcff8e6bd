package dev.joule.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.joule.cli.SortOptionTable.Opt;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@link DirectSort} against picocli's path, the reference: the same arguments bind the same
 * values, it leaves to picocli what picocli refuses (and help and version), and a sort that fails
 * while running reports the same as through picocli.
 */
class DirectSortTest {
  @TempDir Path dir;

  /** Values each option may be given; some do not convert, and picocli refuses them. */
  private static final Map<String, List<String>> VALUES =
      Map.ofEntries(
          Map.entry("--random-source", List.of("seed.bin", "-")),
          Map.entry("--sort", List.of("numeric", "month", "gen", "h", "bogus")),
          Map.entry("--key", List.of("2,2n", "1.3b,1.5", "3", "-k1")),
          Map.entry("--field-separator", List.of(",", ":", " ", "\\0", "")),
          Map.entry("--check", List.of("quiet", "silent", "diagnose-first", "q")),
          Map.entry("--output", List.of("out.txt", "-k1", " ")),
          Map.entry("--files0-from", List.of("names", "-")),
          Map.entry("--record-size", List.of("100", "16", "x")),
          Map.entry("--key-offset", List.of("0", "4")),
          Map.entry("--key-size", List.of("10", "8", "")),
          Map.entry("--binary-key", List.of("0:4:int", "8:8:int:desc")),
          Map.entry("--buffer-size", List.of("64M", "10%", "1024", "1G", "10Q")),
          Map.entry("--parallel", List.of("1", "2", "0")),
          Map.entry("--temporary-directory", List.of("/tmp/a", "t b")),
          Map.entry("--timeline-interval", List.of("500ms", "2", "0")),
          Map.entry("--direct", List.of("auto", "ON", "off", "o")),
          Map.entry("--compress", List.of("lz4", "zstd:3", "off", "gzip")),
          Map.entry("--transfer-in", List.of("1M", "256k", "x")),
          Map.entry("--transfer-out", List.of("4M")),
          Map.entry("--transfer-temp", List.of("2m")),
          Map.entry("--batch-size", List.of("2", "16", "1")),
          Map.entry("--progress", List.of("never", "always", "a")),
          Map.entry("--report-json", List.of("r.json")),
          Map.entry("--report-html", List.of("r.html")),
          Map.entry("--compress-program", List.of("gzip", "")));

  private static final List<String> OPERANDS = List.of("in.txt", "-", "+x", "b c", "--");

  @Test
  void bindsWhatPicocliBindsAndLeavesItWhatItRefuses() {
    long seed = new Random().nextLong();
    Random r = new Random(seed);
    int bound = 0;
    for (int n = 0; n < 2000; n++) {
      List<String> args = randomArguments(r);
      String what = "seed " + seed + ", joule sort " + args;
      if (compare(args, what)) {
        bound++;
      }
    }
    // most vectors are valid: the comparison above is not only of refusals
    if (bound < 600) {
      fail("seed " + seed + ": only " + bound + " of 2000 argument lists were bound");
    }
  }

  @Test
  void bindsGnusSyntaxAsPicocliDoes() {
    List<List<String>> cases =
        List.of(
            List.of("-t", "", "-k2,2", "in"),
            List.of("-t", " ", "-k", "1"),
            List.of("-o", "-k1", "in"),
            List.of("+1", "-2", "in"),
            List.of("+0.3", "in"),
            List.of("-y", "5", "in"),
            List.of("-y5", "in"),
            List.of("-nru", "-S64M", "-T/tmp", "-T", "/var/tmp", "in"),
            List.of("--rev", "--para=2", "--buf", "1M", "in"),
            List.of("--check", "in"),
            List.of("--check=sil", "in"),
            List.of("--sort=num", "--so", "mon", "in"),
            List.of("--compress=gzip", "in"),
            List.of("--", "-n", "--help"),
            List.of("in", "-r", "-o", "o"),
            List.of("--help"),
            List.of("-n", "--version"),
            List.of("--bogus"),
            List.of("-k"),
            List.of("--direct=sometimes"),
            List.of("--parallel", "999"));
    for (List<String> c : cases) {
      compare(c, "joule sort " + c);
    }
  }

  /**
   * Binds {@code args} both ways and compares every option's value, matched flag and text; whether
   * the direct path took them.
   */
  private static boolean compare(List<String> args, String what) {
    CommandLine sort = JouleCommand.newCommandLine(CliEnvironment.system(), "sort");
    List<String> all = new ArrayList<>(List.of("sort"));
    all.addAll(args);
    ParseResult parsed;
    try {
      parsed = sort.parseArgs(all.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      assertNull(new DirectSort(null, null).bind(CliEnvironment.system(), args), what);
      return false;
    }
    DirectSort direct = new DirectSort(null, null);
    SortCommand bound = direct.bind(CliEnvironment.system(), args);
    ParseResult sub = parsed.subcommand();
    if (sub.isUsageHelpRequested() || sub.isVersionHelpRequested()) {
      assertNull(bound, what);
      return false;
    }
    assertNotNull(bound, what + ": picocli takes it, so should the direct path");
    CommandSpec spec = sub.commandSpec();
    SortCommand reference = (SortCommand) spec.userObject();
    CommandContext picocli = CommandContext.of(spec);
    List<ArgSpec> specs = new ArrayList<>(spec.options());
    specs.addAll(spec.positionalParameters());
    for (ArgSpec a : specs) {
      Field f = (Field) a.userObject();
      String name =
          a.isOption() ? ((picocli.CommandLine.Model.OptionSpec) a).longestName() : "FILE";
      assertEquals(value(f, reference), value(f, bound), what + ": " + name);
      if (a.isOption()) {
        assertEquals(picocli.matched(name), direct.matched(name), what + ": matched " + name);
        assertEquals(picocli.typed(name), direct.typed(name), what + ": typed " + name);
      }
    }
    return true;
  }

  private static Object value(Field f, SortCommand c) {
    Object owner = c;
    if (f.getDeclaringClass() == GnuOrdering.class) {
      owner = c.ordering;
    } else if (f.getDeclaringClass() == FixedRecordOptions.class) {
      owner = c.fixed;
    } else if (f.getDeclaringClass() == SortOptions.class) {
      owner = c.options;
    }
    try {
      f.setAccessible(true);
      return f.get(owner);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  /** A few options in one of GNU's spellings, then perhaps operands. */
  private static List<String> randomArguments(Random r) {
    List<String> args = new ArrayList<>();
    int options = r.nextInt(6);
    for (int i = 0; i < options; i++) {
      Opt o = SortOptionTable.OPTIONS.get(r.nextInt(SortOptionTable.OPTIONS.size()));
      if ((o.help() || o.version()) && r.nextInt(10) != 0) {
        continue;
      }
      String shortName = o.names().stream().filter(x -> x.length() == 2).findFirst().orElse(null);
      List<String> longNames = o.names().stream().filter(x -> x.startsWith("--")).toList();
      boolean useShort = shortName != null && (longNames.isEmpty() || r.nextBoolean());
      String value =
          o.maxArity() == 0
              ? null
              : pick(r, VALUES.getOrDefault(o.longest(), List.of("diagnose-first")));
      if (useShort) {
        if (value == null) {
          String last = args.isEmpty() ? "" : args.get(args.size() - 1);
          if (r.nextBoolean() && last.matches("-[a-zA-Z]+")) {
            args.set(args.size() - 1, last + shortName.charAt(1)); // a cluster
          } else {
            args.add(shortName);
          }
        } else if (!value.isEmpty() && r.nextBoolean()) {
          args.add(shortName + value);
        } else {
          args.add(shortName);
          args.add(value);
        }
        continue;
      }
      String name = pick(r, longNames);
      if (r.nextInt(4) == 0) {
        name = name.substring(0, 3 + r.nextInt(name.length() - 2)); // abbreviated
      }
      if (value == null) {
        args.add(name);
      } else if (r.nextBoolean()) {
        args.add(name + "=" + value);
      } else {
        args.add(name);
        args.add(value);
      }
    }
    int operands = r.nextInt(3);
    for (int i = 0; i < operands; i++) {
      args.add(pick(r, OPERANDS));
    }
    return args;
  }

  private static String pick(Random r, List<String> from) {
    return from.get(r.nextInt(from.size()));
  }

  @Test
  void reportsFailuresAsPicocliDoes() throws IOException {
    Path in = Files.writeString(dir.resolve("in.txt"), "b\na\nc\n");
    Path in2 = Files.writeString(dir.resolve("in2.txt"), "z\n");
    Path names = Files.writeString(dir.resolve("names"), in + "\0");
    String i = in.toString();
    String t = Files.createDirectories(dir.resolve("tmp")).toString();
    List<List<String>> cases =
        List.of(
            List.of("-cC", i),
            List.of("-c", i, in2.toString()),
            List.of("-k0", i),
            List.of("-t", "ab", i),
            List.of("--compress", "lz4", "--compress-program", "gzip", i),
            List.of("--compress-program", "a", "--compress-program", "b", i),
            List.of("--timeline-interval=abc", i),
            List.of("--random-source", "a", "--random-source", "b", "-R", i),
            List.of("--files0-from", names.toString(), i),
            List.of("--debug", "-o", dir.resolve("o").toString(), i),
            List.of("-S", "1E", i),
            List.of("-k1", "--binary-key", "0:4", i),
            List.of("--record-size", "7", "--key-size", "9", i),
            List.of(dir.resolve("missing").toString()),
            List.of("-T", dir.resolve("no-dir").toString(), "-S", "1M", "--explain", i),
            List.of("-o", dir.resolve("no-dir/out").toString(), i),
            List.of("-c", i),
            List.of("-n", i),
            List.of("-T", t, "--explain", i));
    for (List<String> c : cases) {
      List<String> args = new ArrayList<>(List.of("sort"));
      args.addAll(c);
      String[] a = args.toArray(new String[0]);
      ByteArrayOutputStream directOut = new ByteArrayOutputStream();
      ByteArrayOutputStream picocliOut = new ByteArrayOutputStream();
      CliRun direct = CliRun.run(env(directOut), a);
      CliRun viaPicocli = CliRun.viaPicocli(env(picocliOut), a);
      assertEquals(viaPicocli.toString(), direct.toString(), "joule " + args);
      assertEquals(
          picocliOut.toString(ISO_8859_1), directOut.toString(ISO_8859_1), "joule " + args);
    }
  }

  /** The direct path's writers are the ones it is given: nothing goes to the process's own. */
  @Test
  void writesToTheWritersItIsGiven() throws IOException {
    Path in = Files.writeString(dir.resolve("in.txt"), "b\na\n");
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    Integer code =
        DirectSort.run(
            env(new ByteArrayOutputStream()),
            List.of("-cC", in.toString()),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    assertEquals(ExitCodes.USAGE_OR_IO, code);
    assertEquals("joule: options '-cC' are incompatible\n", err.toString());
    assertEquals("", out.toString());
  }

  private static CliEnvironment env(ByteArrayOutputStream stdout) {
    return new CliEnvironment(
        SortEngine.external(), new ByteArrayInputStream(new byte[0]), stdout, RaplMeter.POWERCAP);
  }
}
