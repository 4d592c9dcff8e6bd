package dev.joule.spark.sql;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.ColumnarRule;
import org.apache.spark.sql.execution.SparkPlan;
import scala.runtime.BoxedUnit;

/**
 * joule in Spark SQL: {@code spark.sql.extensions=dev.joule.spark.sql.JouleExtensions} (with
 * joule-spark.jar on the driver's and executors' class path) makes joule's operator sort in place
 * of Spark's {@code SortExec} ({@link JouleSortRule}); {@code spark.joule.sort.enabled=false} turns
 * it off per session. The rule is injected as a columnar rule, the hook that runs after {@code
 * EnsureRequirements} has placed every sort, on the whole plan without adaptive execution and on
 * each query stage with it. Stateless.
 */
public final class JouleExtensions implements SparkSessionExtensionsProvider {
  /** Spark instantiates the extension by this constructor. */
  public JouleExtensions() {}

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectColumnar(session -> new SortColumnarRule());
    return BoxedUnit.UNIT;
  }

  /** The columnar-rule hook carrying {@link JouleSortRule} (it changes no columnar operator). */
  private static final class SortColumnarRule extends ColumnarRule {
    private final Rule<SparkPlan> rule = new JouleSortRule();

    @Override
    public Rule<SparkPlan> preColumnarTransitions() {
      return rule;
    }
  }
}
