package dev.joule.spark.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version}: joule's version from the jar manifest, and the version of the Spark on the
 * class path (from Spark's own {@code spark-version-info.properties}).
 */
public final class SparkVersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String joule = JouleSparkCommand.class.getPackage().getImplementationVersion();
    String spark = "(not on the class path)";
    try (InputStream in =
        Thread.currentThread()
            .getContextClassLoader()
            .getResourceAsStream("spark-version-info.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        spark = p.getProperty("version", spark);
      }
    } catch (IOException e) {
      spark = "(unreadable: " + e.getMessage() + ")";
    }
    return new String[] {
      "joule-spark " + (joule == null ? "(development build)" : joule), "Apache Spark " + spark
    };
  }
}
