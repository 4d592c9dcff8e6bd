package dev.joule.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.StageInfo;

/**
 * Per-stage figures of the sort's Spark jobs, from Spark's own listener events: wall time, the
 * tasks' CPU time (the task threads only; joule's sort threads are not counted there), shuffle
 * bytes and spills. Stages are tagged with the phase ({@value #PHASE}) that was set as a local
 * property when their job started. Thread-safety: events arrive on Spark's listener thread; reads
 * happen after {@link #awaitJobs}.
 */
public final class JobMetrics extends SparkListener {
  /** Local property that names the phase of the jobs submitted after it is set. */
  public static final String PHASE = "joule.phase";

  /** One completed stage. */
  public record Stage(
      String phase,
      boolean shuffleMap,
      int tasks,
      double wallSeconds,
      double cpuSeconds,
      long shuffleWriteBytes,
      long shuffleReadBytes,
      long spilledBytes) {
    /** A one-line description. */
    public String describe() {
      String kind = shuffleMap ? "map" : "reduce";
      return String.format(
          Locale.ROOT,
          "%s/%s: %d tasks, %.2f s, task CPU %.2f s, shuffle write %d MB, read %d MB, spilled %d"
              + " MB",
          phase,
          kind,
          tasks,
          wallSeconds,
          cpuSeconds,
          shuffleWriteBytes / 1_000_000,
          shuffleReadBytes / 1_000_000,
          spilledBytes / 1_000_000);
    }
  }

  private final List<Stage> stages = new ArrayList<>();
  private final java.util.Map<Integer, String> phaseOfStage = new java.util.HashMap<>();
  private int jobsEnded;

  /** Registers a new listener with {@code sc}. */
  public static JobMetrics attach(SparkContext sc) {
    JobMetrics m = new JobMetrics();
    sc.addSparkListener(m);
    return m;
  }

  /** Removes this listener from {@code sc}. */
  public void detach(SparkContext sc) {
    sc.removeSparkListener(this);
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd jobEnd) {
    jobsEnded++;
    notifyAll();
  }

  @Override
  public synchronized void onStageSubmitted(SparkListenerStageSubmitted submitted) {
    Properties p = submitted.properties();
    String phase = p == null ? null : p.getProperty(PHASE);
    phaseOfStage.put(submitted.stageInfo().stageId(), phase == null ? "job" : phase);
  }

  @Override
  public synchronized void onStageCompleted(SparkListenerStageCompleted completed) {
    StageInfo s = completed.stageInfo();
    TaskMetrics m = s.taskMetrics();
    double wall = 0;
    if (s.submissionTime().isDefined() && s.completionTime().isDefined()) {
      wall = ((Long) s.completionTime().get() - (Long) s.submissionTime().get()) / 1e3;
    }
    stages.add(
        new Stage(
            phaseOfStage.getOrDefault(s.stageId(), "job"),
            s.shuffleDepId().isDefined(),
            s.numTasks(),
            wall,
            m == null ? 0 : m.executorCpuTime() / 1e9,
            m == null ? 0 : m.shuffleWriteMetrics().bytesWritten(),
            m == null ? 0 : m.shuffleReadMetrics().totalBytesRead(),
            m == null ? 0 : m.memoryBytesSpilled() + m.diskBytesSpilled()));
  }

  /**
   * Waits until {@code jobs} jobs have ended (listener events arrive after the action returns), at
   * most {@code millis}.
   */
  public synchronized void awaitJobs(int jobs, long millis) throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (jobsEnded < jobs && System.currentTimeMillis() < end) {
      wait(Math.max(1, end - System.currentTimeMillis()));
    }
  }

  /** The completed stages, in completion order. */
  public synchronized List<Stage> stages() {
    return List.copyOf(stages);
  }
}
