package dev.joule.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.joule.spark.cluster.ClusterSqlQuery;
import dev.joule.spark.cluster.StandaloneCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * joule on a real cluster: a Spark standalone master and two one-core workers on this machine,
 * separate JVMs started from Spark's own classes ({@link StandaloneCluster}), and applications
 * submitted to it by Spark's own {@code spark-submit} ({@code org.apache.spark.deploy.SparkSubmit},
 * the class {@code bin/spark-submit} runs) in client mode, with the command lines of {@code
 * docs/spark.md}: the file job ({@code joule-spark sort}, the jar's main class) checked against the
 * in-memory reference sort and the valsort rules, and an SQL program of the user's own jar with
 * {@code spark.sql.extensions=dev.joule.spark.sql.JouleExtensions}, whose rows must equal those of
 * Spark's own sort and whose joule nodes must have run on the executors. Both applications must
 * have had an executor on each worker.
 *
 * <p>About 5 minutes at load 6-9 (a master, two workers, two applications of two executor JVMs
 * each): beyond CI's budget, so failsafe leaves it out by default; {@code
 * sort-spark/scripts/spark-cluster.sh} runs it.
 */
class JouleSparkClusterIT {
  @TempDir static Path dir;

  private static Path root;
  private static String classpath;
  private static List<String> jvmOptions;
  private static StandaloneCluster cluster;

  @BeforeAll
  static void startCluster() throws IOException, InterruptedException {
    String r = System.getProperty("joule.root");
    assertTrue(r != null, "system property joule.root (the repository root) is not set");
    root = Path.of(r).toAbsolutePath().normalize();
    classpath = Files.readString(root.resolve("sort-spark/target/spark-classpath.txt")).trim();
    jvmOptions =
        Arrays.stream(System.getProperty("joule.spark.jvmOptions", "").split("\\s+", -1))
            .filter(o -> !o.isEmpty())
            .toList();
    cluster = new StandaloneCluster(dir.resolve("cluster"), classpath, jvmOptions, 2, 1);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private record Run(int exit, String out, String err) {}

  /** {@code spark-submit ARGS} in client mode against the cluster, from {@code dir}. */
  private static Run submit(String name, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-Xmx1g",
            "-cp",
            classpath,
            "org.apache.spark.deploy.SparkSubmit",
            "--master",
            cluster.masterUrl(),
            "--deploy-mode",
            "client",
            "--executor-memory",
            "512m",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.ui.enabled=false"));
    cmd.addAll(List.of(args));
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = pb.start();
    try {
      if (!p.waitFor(240, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out: " + cmd);
      }
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor();
    }
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** The number of workers on which the application whose log is {@code err} had an executor. */
  private static int workersUsed(String err) throws IOException {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("Connected to Spark cluster with app ID (\\S+)")
            .matcher(err);
    assertTrue(m.find(), err);
    int n = 0;
    for (int i = 0; i < 2; i++) {
      Path app = cluster.workDir(i).resolve(m.group(1));
      if (Files.isDirectory(app)) {
        try (Stream<Path> executors = Files.list(app)) {
          n += executors.findAny().isPresent() ? 1 : 0;
        }
      }
    }
    return n;
  }

  @Test
  void theFileJobSortsLikeTheReference() throws Exception {
    Path in = TestData.gensort(dir.resolve("in.dat"), 0, 300_000, true);
    byte[] expected = TestData.reference(List.of(in), 100, 0, 10);
    Path out = dir.resolve("sorted");
    Run r =
        submit(
            "file-job",
            "--class",
            "dev.joule.spark.cli.JouleSparkCommand",
            "--conf",
            "spark.joule.memory=8m",
            root.resolve("sort-spark/target/joule-spark.jar").toString(),
            "sort",
            "--partitions",
            "4",
            in.toString(),
            out.toString());
    assertEquals(0, r.exit(), r.err());
    assertTrue(
        r.err().contains("joule-spark: sorted 300000 records from 1 input file(s) into 4 parts"),
        r.err());
    assertEquals(2, workersUsed(r.err()), r.err());
    assertArrayEquals(expected, TestData.concatenatedParts(out));
    ReferenceValsort s = TestData.valsortS(out);
    assertTrue(s.ordered(), s::toString);
    assertEquals(ReferenceValsort.of(expected), s);
  }

  @Test
  void anSqlProgramSortsWithJoulesOperator() throws Exception {
    Path app = programJar(ClusterSqlQuery.class);
    Run r =
        submit(
            "sql",
            "--class",
            ClusterSqlQuery.class.getName(),
            "--jars",
            root.resolve("sort-spark/target/joule-spark.jar").toString(),
            "--conf",
            "spark.sql.extensions=dev.joule.spark.sql.JouleExtensions",
            "--conf",
            "spark.joule.sql.memory=4m",
            "--conf",
            "spark.sql.autoBroadcastJoinThreshold=-1",
            "--conf",
            "spark.sql.shuffle.partitions=4",
            app.toString(),
            "120000");
    String result = r.out().lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElse("");
    System.out.println(result);
    assertEquals(0, r.exit(), result + "\n" + r.err());
    assertTrue(result.startsWith("RESULT rows=120000 identical=true"), result);
    // the join's two sorts, the window's and the ORDER BY's: joule's with the extension, Spark's
    // without
    assertTrue(
        result.contains(" joule-plan=[JouleSort, JouleSort, JouleSort, JouleSort] "), result);
    assertTrue(result.contains(" spark-plan=[Sort, Sort, Sort, Sort] "), result);
    // sorts of 4 MiB at most: runs went to the executors' local dirs
    assertTrue(!result.endsWith(" spillBytes=0"), result);
    assertEquals(2, workersUsed(r.err()), r.err());
  }

  /** A jar holding {@code main}'s class file alone, as a user's application jar. */
  private static Path programJar(Class<?> main) throws IOException {
    String entry = main.getName().replace('.', '/') + ".class";
    Path jar = dir.resolve("program.jar");
    try (OutputStream o = Files.newOutputStream(jar);
        JarOutputStream j = new JarOutputStream(o)) {
      j.putNextEntry(new JarEntry(entry));
      try (var in = main.getClassLoader().getResourceAsStream(entry)) {
        in.transferTo(j);
      }
      j.closeEntry();
    }
    return jar;
  }
}
