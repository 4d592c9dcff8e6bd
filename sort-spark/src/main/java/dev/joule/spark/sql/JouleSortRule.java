package dev.joule.spark.sql;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.SortExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.internal.SQLConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Puts {@link JouleSortExec} where the plan has a {@code SortExec}: global and per-partition sorts,
 * both sides of a sort-merge join, windows, sort aggregates, sorted writes, whatever put it there
 * (the planner or {@code EnsureRequirements}), when every sort key has a binary code ({@link
 * ValueCode}). Otherwise the {@code SortExec} stays, and the reason is logged once per JVM. Runs
 * after the plan's exchanges and sorts are final (as a columnar rule, before the whole-stage code
 * generation), for every query stage under adaptive execution too. Off when the session's {@value
 * #ENABLED} is false. Stateless.
 */
public final class JouleSortRule extends Rule<SparkPlan> {
  /** SQL conf key: whether joule replaces Spark's sorts in this session (default true). */
  public static final String ENABLED = "spark.joule.sort.enabled";

  /**
   * SQL conf key: whether strings under ICU collations sort by ICU's sort keys (default false:
   * Spark's sort stays, since the keys and the comparisons Spark sorts by disagree on rare
   * strings).
   */
  public static final String ICU_SORT_KEYS = "spark.joule.sort.icuSortKeys";

  /**
   * SQL conf key: whether each sort's session checks the count, checksum and order of the rows it
   * returns against those it was given (default true; the operator itself checks only the count).
   */
  public static final String VALIDATE = "spark.joule.sort.validate";

  private static final Logger LOG = LoggerFactory.getLogger(JouleSortRule.class);
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
  private static final AtomicLong KEPT = new AtomicLong();

  /** How many of Spark's sorts this JVM's plans kept (a key without a code), for reports. */
  public static long kept() {
    return KEPT.get();
  }

  @Override
  public SparkPlan apply(SparkPlan plan) {
    String on = SQLConf.get().getConfString(ENABLED, "true").trim().toLowerCase(Locale.ROOT);
    return on.equals("false") ? plan : replace(plan);
  }

  /** The session's {@link #ICU_SORT_KEYS}. */
  static boolean icuSortKeys() {
    return SQLConf.get().getConfString(ICU_SORT_KEYS, "false").trim().equalsIgnoreCase("true");
  }

  /** The session's {@link #VALIDATE}. */
  static boolean validate() {
    return !SQLConf.get().getConfString(VALIDATE, "true").trim().equalsIgnoreCase("false");
  }

  private SparkPlan replace(SparkPlan plan) {
    Function1<SparkPlan, SparkPlan> self = this::replace;
    SparkPlan p = plan.mapChildren(self);
    if (p.getClass() != SortExec.class) {
      return p;
    }
    SortExec s = (SortExec) p;
    String why =
        SortKeyEncoder.unsupported(CollectionConverters.asJava(s.sortOrder()), icuSortKeys());
    if (why != null) {
      KEPT.incrementAndGet();
      if (LOGGED.add(why)) {
        LOG.warn("joule keeps Spark's sort for {}", why);
      }
      return s;
    }
    return new JouleSortExec(s.sortOrder(), s.global(), s.child(), s.testSpillFrequency());
  }
}
