package dev.joule.spark.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on this machine: Spark's own {@code Master} and {@code Worker} classes
 * in JVMs of their own, bound to the loopback address, on the Spark class path Maven resolved. The
 * workers start their executors from a Spark home made of those jars (a {@code RELEASE} file and
 * {@code jars/} linking each), as from a distribution. {@link #close} stops every process it
 * started, executors included.
 */
public final class StandaloneCluster implements AutoCloseable {
  private static final Pattern MASTER_URL =
      Pattern.compile("Starting Spark master at (spark://\\S+)");

  private final Path dir;
  private final String classpath;
  private final List<String> jvmOptions;
  private final List<Process> processes = new ArrayList<>();
  private final String masterUrl;

  /**
   * Starts a master and {@code workers} workers of {@code cores} cores each under {@code dir}, and
   * waits until every worker has registered with the master.
   */
  public StandaloneCluster(
      Path dir, String classpath, List<String> jvmOptions, int workers, int cores)
      throws IOException, InterruptedException {
    this.dir = dir;
    this.classpath = classpath;
    this.jvmOptions = jvmOptions;
    Path home = sparkHome();
    boolean started = false;
    try {
      Path masterLog = dir.resolve("master.log");
      start(
          home,
          masterLog,
          "org.apache.spark.deploy.master.Master",
          "--host",
          "127.0.0.1",
          "--port",
          "0",
          "--webui-port",
          "0");
      masterUrl = await(masterLog, MASTER_URL);
      for (int i = 0; i < workers; i++) {
        Path work = Files.createDirectories(dir.resolve("worker-" + i));
        start(
            home,
            dir.resolve("worker-" + i + ".log"),
            "org.apache.spark.deploy.worker.Worker",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--webui-port",
            "0",
            "--cores",
            Integer.toString(cores),
            "--memory",
            "1g",
            "--work-dir",
            work.toString(),
            masterUrl);
      }
      for (int i = 0; i < workers; i++) {
        await(dir.resolve("worker-" + i + ".log"), Pattern.compile("(Successfully registered)"));
      }
      started = true;
    } finally {
      if (!started) {
        close();
      }
    }
  }

  /** The master's URL, {@code spark://127.0.0.1:port}. */
  public String masterUrl() {
    return masterUrl;
  }

  /** Worker {@code i}'s work directory: one directory per application, one per executor in it. */
  public Path workDir(int i) {
    return dir.resolve("worker-" + i);
  }

  /** A Spark home for the workers' executor command: {@code RELEASE} and {@code jars/}. */
  private Path sparkHome() throws IOException {
    Path home = Files.createDirectories(dir.resolve("spark-home"));
    Files.writeString(home.resolve("RELEASE"), "Spark from the Maven-resolved class path\n");
    Path jars = Files.createDirectories(home.resolve("jars"));
    for (String entry : classpath.split(":", -1)) {
      Path jar = Path.of(entry);
      Path link = jars.resolve(jar.getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, jar);
      }
    }
    return home;
  }

  private void start(Path home, Path log, String mainClass, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-Xmx256m");
    cmd.addAll(List.of("-cp", classpath, mainClass));
    cmd.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SPARK_HOME", home.toString());
    pb.environment().put("SPARK_SCALA_VERSION", "2.13");
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment()
        .put("SPARK_LOCAL_DIRS", Files.createDirectories(dir.resolve("local")).toString());
    processes.add(pb.start());
  }

  /** Waits up to 60 s for {@code pattern} in {@code log}; returns its first group. */
  private String await(Path log, Pattern pattern) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        Matcher m = pattern.matcher(Files.readString(log));
        if (m.find()) {
          return m.group(1);
        }
      }
      for (Process p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException(
              "a cluster process ended (exit " + p.exitValue() + "): " + Files.readString(log));
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "no '" + pattern + "' in " + log + " after 60 s: " + Files.readString(log));
  }

  /**
   * Stops the workers and their executors, then the master: each asked to end (SIGTERM), then
   * killed after 20 s. An interrupt ends the wait and is kept.
   */
  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      List<ProcessHandle> all = new ArrayList<>();
      try (Stream<ProcessHandle> children = p.descendants()) {
        children.forEach(all::add);
      }
      all.add(p.toHandle());
      all.forEach(ProcessHandle::destroy);
      for (ProcessHandle h : all) {
        try {
          h.onExit().get(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          h.destroyForcibly();
        } catch (ExecutionException | TimeoutException e) {
          h.destroyForcibly();
        }
      }
    }
    processes.clear();
  }
}
