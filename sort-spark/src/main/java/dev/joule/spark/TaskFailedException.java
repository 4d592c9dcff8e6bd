package dev.joule.spark;

import java.io.IOException;

/**
 * A Spark task of the sort failed and Spark gave up on it: the message is the task's own (naming
 * the path and the cause), the cause is the task's exception, and Spark's report with the stage and
 * task ids is suppressed beside it.
 */
public class TaskFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  public TaskFailedException(Throwable taskFailure, Throwable sparkReport) {
    super("a Spark task failed: " + describe(taskFailure), taskFailure);
    if (sparkReport != null && sparkReport != taskFailure) {
      addSuppressed(sparkReport);
    }
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isEmpty() ? t.getClass().getName() : m;
  }
}
