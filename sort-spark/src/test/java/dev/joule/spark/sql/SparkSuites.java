package dev.joule.spark.sql;

/**
 * Runs Spark's own test suites (ScalaTest, from Spark's test jars) in this JVM with joule's
 * extension on (the script sets {@code spark.sql.extensions} as a system property, which Spark's
 * test sessions read), then says how many joule sort nodes executed and how many of Spark's sorts
 * the rule kept: the proof that the suites ran joule. Used by {@code scripts/spark-suites.sh}.
 */
public final class SparkSuites {
  private SparkSuites() {}

  /**
   * Arguments: those of {@code org.scalatest.tools.Runner}. Exits 0 when every test passed and
   * joule's operator executed at least once.
   */
  public static void main(String[] args) throws ReflectiveOperationException {
    // ScalaTest is on the script's class path, not the module's: found by name
    boolean passed =
        (Boolean)
            Class.forName("org.scalatest.tools.Runner")
                .getMethod("run", String[].class)
                .invoke(null, (Object) args);
    long executed = JouleSortExec.executed();
    System.out.println(
        "joule: "
            + executed
            + " JouleSort nodes executed, "
            + JouleSortRule.kept()
            + " Spark sorts kept (keys without a code); tests "
            + (passed ? "passed" : "FAILED"));
    System.exit(passed && executed > 0 ? 0 : 1);
  }
}
