package dev.joule.testing;

import dev.joule.core.key.KeyType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs this machine's GNU sort in the C locale, for differential tests. */
public final class GnuSort {
  public static final Path SORT = Path.of("/usr/bin/sort");

  private GnuSort() {}

  /** Null when GNU sort can be run here, else why not. */
  public static String unavailable() {
    if (!Files.isExecutable(SORT)) {
      return SORT + " is absent";
    }
    try {
      String v = new String(run(List.of("--version"), new byte[0]), StandardCharsets.UTF_8);
      return v.contains("GNU coreutils")
          ? null
          : SORT + " is not GNU sort: " + v.lines().findFirst().orElse("");
    } catch (IOException | RuntimeException e) {
      return SORT + " does not run: " + e;
    }
  }

  /** The version line, e.g. "sort (GNU coreutils) 9.1". */
  public static String version() throws IOException {
    return new String(run(List.of("--version"), new byte[0]), StandardCharsets.UTF_8)
        .lines()
        .findFirst()
        .orElse("?");
  }

  /**
   * Which quirks this GNU sort has: how {@code -g} orders NaNs and whether a {@code -V} suffix may
   * be the whole string. Fails if they do not match one known release.
   */
  public static KeyType.GnuRelease release() throws IOException {
    byte[] nan = run(List.of("-s", "-g"), "nan\n-nan\n".getBytes(StandardCharsets.US_ASCII));
    boolean textNans = new String(nan, StandardCharsets.US_ASCII).startsWith("-nan");
    byte[] ver = run(List.of("-s", "-V"), ".1\n.a~\n".getBytes(StandardCharsets.US_ASCII));
    boolean wholeSuffix = new String(ver, StandardCharsets.US_ASCII).startsWith(".a~");
    if (textNans == wholeSuffix) {
      throw new IOException("GNU sort's -g NaN and -V suffix quirks match no known release");
    }
    return textNans ? KeyType.GnuRelease.CURRENT : KeyType.GnuRelease.COREUTILS_9_1;
  }

  /** stdout of {@code sort args} fed {@code input}; fails on a nonzero exit. */
  public static byte[] run(List<String> args, byte[] input) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(SORT.toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("LC_ALL", "C");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    CompletableFuture<byte[]> out =
        CompletableFuture.supplyAsync(
            () -> {
              try (InputStream in = p.getInputStream()) {
                return in.readAllBytes();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    try (OutputStream o = p.getOutputStream()) {
      o.write(input);
    }
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("sort timed out: " + args);
      }
      if (p.exitValue() != 0) {
        throw new IOException("sort " + args + " exited with " + p.exitValue());
      }
      return out.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  public static byte[] joinLines(List<byte[]> lines) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] l : lines) {
      b.write(l, 0, l.length);
      b.write('\n');
    }
    return b.toByteArray();
  }
}
