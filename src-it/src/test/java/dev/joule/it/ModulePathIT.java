package dev.joule.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sort-core and sort-io as a JPMS application sees them, and as a class-path application does: an
 * embedding program is compiled and run against the two jars on the module path (requires {@code
 * dev.joule.io}, sorts a file through the exported API, and finds the internal packages closed),
 * and the same program without a module declaration runs on the class path. A module that imports
 * an internal package ({@code dev.joule.io.block}) must not compile.
 */
class ModulePathIT {
  private static final String APP =
      """
      package app;

      import dev.joule.io.config.DataSize;
      import dev.joule.io.config.SortConfig;
      import dev.joule.io.pipeline.ExternalSorter;
      import dev.joule.io.report.SortReport;
      import java.nio.file.Files;
      import java.nio.file.Path;
      import java.util.Arrays;
      import java.util.List;
      import java.util.Random;

      public class Main {
        public static void main(String[] args) throws Exception {
          Path in = Path.of(args[0]);
          Path out = Path.of(args[1]);
          byte[] data = new byte[100 * 5000];
          new Random(42).nextBytes(data);
          Files.write(in, data);
          SortConfig config =
              SortConfig.builder()
                  .memoryBudget(DataSize.ofMiB(16))
                  .tempDirs(List.of(in.getParent()))
                  .build();
          SortReport r = ExternalSorter.sort(in, out, config);
          byte[] got = Files.readAllBytes(out);
          for (int i = 100; i < got.length; i += 100) {
            if (Arrays.compareUnsigned(got, i - 100, i - 90, got, i, i + 10) > 0) {
              throw new AssertionError("out of order at record " + i / 100);
            }
          }
          Module io = ExternalSorter.class.getModule();
          System.out.println(
              "sorted " + r.records() + " named=" + io.isNamed()
                  + " internal-exported=" + io.isExported("dev.joule.io.block"));
        }
      }
      """;

  private static Path coreJar;
  private static Path ioJar;
  private static String codecJars; // sort-io's dependencies: lz4-java and zstd-jni
  private static Path jnaJar; // sort-core requires com.sun.jna (locales), a module path needs it

  @TempDir Path dir;

  @BeforeAll
  static void jars() {
    coreJar = Path.of(System.getProperty("joule.core.jar"));
    ioJar = Path.of(System.getProperty("joule.io.jar"));
    codecJars = System.getProperty("joule.codec.jars");
    jnaJar = Path.of(System.getProperty("joule.jna.jar"));
    assertTrue(Files.isRegularFile(coreJar), coreJar + " is built");
    assertTrue(Files.isRegularFile(ioJar), ioJar + " is built");
    assertTrue(Files.isRegularFile(jnaJar), jnaJar + " is resolved");
  }

  @Test
  void runsOnTheModulePathWithInternalsClosed() throws Exception {
    Path src = dir.resolve("src/app");
    write(src.resolve("module-info.java"), "module app { requires dev.joule.io; }");
    write(src.resolve("app/Main.java"), APP);
    Path classes = dir.resolve("classes");
    String modulePath = coreJar + ":" + ioJar + ":" + jnaJar + ":" + codecJars;
    Compiled c =
        compile(
            "--module-path",
            modulePath,
            "-d",
            classes.toString(),
            src.resolve("module-info.java").toString(),
            src.resolve("app/Main.java").toString());
    assertEquals(0, c.exit, c.output);
    String out =
        run(
            "--module-path",
            modulePath + ":" + classes,
            "-m",
            "app/app.Main",
            dir.resolve("in").toString(),
            dir.resolve("out").toString());
    assertEquals("sorted 5000 named=true internal-exported=false", out.strip());
  }

  @Test
  void runsOnTheClassPath() throws Exception {
    Path src = dir.resolve("src/app/Main.java");
    write(src, APP);
    Path classes = dir.resolve("classes");
    String classPath = coreJar + ":" + ioJar + ":" + codecJars;
    Compiled c = compile("-cp", classPath, "-d", classes.toString(), src.toString());
    assertEquals(0, c.exit, c.output);
    String out =
        run(
            "-cp",
            classPath + ":" + classes,
            "app.Main",
            dir.resolve("in").toString(),
            dir.resolve("out").toString());
    assertEquals("sorted 5000 named=false internal-exported=true", out.strip());
  }

  @Test
  void internalPackagesDoNotCompileOnTheModulePath() throws Exception {
    Path src = dir.resolve("src/bad");
    write(src.resolve("module-info.java"), "module bad { requires dev.joule.io; }");
    write(
        src.resolve("bad/Peek.java"),
        """
        package bad;
        public class Peek { Class<?> c = dev.joule.io.block.BlockFile.class; }
        """);
    Compiled c =
        compile(
            "--module-path",
            coreJar + ":" + ioJar + ":" + jnaJar + ":" + codecJars,
            "-d",
            dir.resolve("classes").toString(),
            src.resolve("module-info.java").toString(),
            src.resolve("bad/Peek.java").toString());
    assertFalse(c.exit == 0, "compiled against an internal package");
    assertTrue(
        c.output.contains("package dev.joule.io.block is not visible")
            || c.output.contains("does not export dev.joule.io.block"),
        c.output);
  }

  private record Compiled(int exit, String output) {}

  private static Compiled compile(String... args) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = javac.run(null, err, err, args);
    return new Compiled(exit, err.toString(StandardCharsets.UTF_8));
  }

  private static String run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished: " + cmd);
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  private static void write(Path f, String text) throws IOException {
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }
}
