package dev.joule.spark.sql;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.plans.physical.Distribution;
import org.apache.spark.sql.catalyst.plans.physical.OrderedDistribution;
import org.apache.spark.sql.catalyst.plans.physical.Partitioning;
import org.apache.spark.sql.catalyst.plans.physical.UnspecifiedDistribution$;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.collection.Iterator;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * joule's sort operator in a Spark SQL physical plan, put where {@code SortExec} was by {@link
 * JouleSortRule}: the same orders, required distribution, output ordering and partitioning, so the
 * operators around it see what they saw; each partition sorted by joule's engine ({@link RowSort}).
 * {@code explain()} shows it as {@code JouleSort}.
 *
 * <p>A plan node is a Scala case class; this one is written in Java as a direct subclass of {@code
 * SparkPlan} (javac cannot subclass {@code SortExec} itself: its erased Scala signatures clash)
 * with what a case class would give: the four constructor fields as its product (Spark's {@code
 * makeCopy} and {@code explain} read them), and {@link #equals}/{@link #canEqual}/{@link #hashCode}
 * over them and the class, so that no tree transform takes it for the {@code SortExec} it replaced.
 * Not whole-stage-code-generated: the operators above and below it form their own stages.
 * Immutable, as plan nodes are.
 */
public final class JouleSortExec extends SparkPlan {
  private static final long serialVersionUID = 1L;
  private static final AtomicLong EXECUTED = new AtomicLong();

  private final Seq<SortOrder> sortOrder;
  private final boolean global;
  private final SparkPlan child;
  private final int testSpillFrequency;
  private transient scala.collection.immutable.Map<String, SQLMetric> metrics;

  /**
   * The node for {@code SortExec(sortOrder, global, child, testSpillFrequency)}; Spark's {@code
   * makeCopy} calls it with the product's elements.
   */
  public JouleSortExec(
      Seq<SortOrder> sortOrder, boolean global, SparkPlan child, int testSpillFrequency) {
    this.sortOrder = sortOrder;
    this.global = global;
    this.child = child;
    this.testSpillFrequency = testSpillFrequency;
  }

  public Seq<SortOrder> sortOrder() {
    return sortOrder;
  }

  public boolean global() {
    return global;
  }

  public SparkPlan child() {
    return child;
  }

  @Override
  public Seq<SparkPlan> children() {
    return CollectionConverters.asScala(List.of(child)).toList();
  }

  @Override
  public Seq<Attribute> output() {
    return child.output();
  }

  @Override
  public Seq<SortOrder> outputOrdering() {
    return sortOrder;
  }

  @Override
  public Partitioning outputPartitioning() {
    return child.outputPartitioning();
  }

  @Override
  public Seq<Distribution> requiredChildDistribution() {
    Distribution d = global ? new OrderedDistribution(sortOrder) : UnspecifiedDistribution$.MODULE$;
    return CollectionConverters.asScala(List.of(d)).toList();
  }

  @Override
  public scala.collection.immutable.Map<String, SQLMetric> metrics() {
    if (metrics == null) {
      metrics =
          scala.collection.immutable.Map.from(
              CollectionConverters.asScala(SortMetrics.create(sparkContext())));
    }
    return metrics;
  }

  /** How many joule sort nodes this JVM has executed (as a driver), for tests and reports. */
  public static long executed() {
    return EXECUTED.get();
  }

  @Override
  public RDD<InternalRow> doExecute() {
    EXECUTED.incrementAndGet();
    Map<String, SQLMetric> m = new LinkedHashMap<>(CollectionConverters.asJava(metrics()));
    SortPartitions f =
        new SortPartitions(
            CollectionConverters.asJava(sortOrder),
            CollectionConverters.asJava(child.output()),
            JouleSortRule.icuSortKeys(),
            JouleSortRule.validate(),
            m);
    return child
        .execute()
        .mapPartitionsInternal(f, false, ClassTag$.MODULE$.apply(InternalRow.class));
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return new JouleSortExec(sortOrder, global, newChildren.apply(0), testSpillFrequency);
  }

  @Override
  public int productArity() {
    return 4;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> sortOrder;
      case 1 -> global;
      case 2 -> child;
      case 3 -> testSpillFrequency;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object other) {
    return other instanceof JouleSortExec;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JouleSortExec o
        && global == o.global
        && testSpillFrequency == o.testSpillFrequency
        && sortOrder.equals(o.sortOrder)
        && child.equals(o.child);
  }

  @Override
  public int hashCode() {
    return Objects.hash(JouleSortExec.class, sortOrder, global, child, testSpillFrequency);
  }

  /** The per-partition function, shipped to the tasks. */
  private static final class SortPartitions
      extends AbstractFunction1<Iterator<InternalRow>, Iterator<InternalRow>>
      implements Serializable {
    private static final long serialVersionUID = 1L;
    private final ArrayList<SortOrder> orders;
    private final ArrayList<Attribute> input;
    private final boolean icuSortKeys;
    private final boolean validate;
    private final LinkedHashMap<String, SQLMetric> metrics;

    SortPartitions(
        List<SortOrder> orders,
        List<Attribute> input,
        boolean icuSortKeys,
        boolean validate,
        Map<String, SQLMetric> metrics) {
      this.icuSortKeys = icuSortKeys;
      this.validate = validate;
      this.orders = new ArrayList<>(orders);
      this.input = new ArrayList<>(input);
      this.metrics = new LinkedHashMap<>(metrics);
    }

    @Override
    public Iterator<InternalRow> apply(Iterator<InternalRow> rows) {
      return RowSort.sort(rows, orders, input, icuSortKeys, validate, SortMetrics.of(metrics));
    }
  }
}
