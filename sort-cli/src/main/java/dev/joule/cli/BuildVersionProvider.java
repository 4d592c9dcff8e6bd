package dev.joule.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Reports the version Maven filtered into {@code joule-version.properties} at build time. */
public final class BuildVersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {
      "joule " + buildVersion(),
      "JVM: " + System.getProperty("java.vm.name") + " " + Runtime.version(),
    };
  }

  /** The project version of the build that produced this jar. */
  public static String buildVersion() {
    Properties p = new Properties();
    try (InputStream in =
        BuildVersionProvider.class.getResourceAsStream("/joule-version.properties")) {
      if (in == null) {
        return "unknown (joule-version.properties missing from the classpath)";
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("reading joule-version.properties", e);
    }
    return p.getProperty("version", "unknown");
  }
}
