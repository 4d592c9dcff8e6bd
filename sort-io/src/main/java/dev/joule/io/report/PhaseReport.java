package dev.joule.io.report;

/**
 * What one phase of a sort did: run formation, one merge pass, or the one-pass in-memory sort.
 *
 * @param name "run formation", "merge pass 1", ..., "in-memory sort"
 * @param wallNanos elapsed time of the phase
 * @param cpuNanos CPU time of the whole process during the phase (all threads, user + system)
 * @param bytesRead bytes read from the input or from temp runs
 * @param bytesWritten bytes written to temp runs or to the output
 * @param runsIn runs consumed (0 for run formation)
 * @param runsOut runs produced (1 for the final merge: the output)
 * @param fanIn the widest merge of the phase (0 when the phase does not merge)
 */
public record PhaseReport(
    String name,
    long wallNanos,
    long cpuNanos,
    long bytesRead,
    long bytesWritten,
    int runsIn,
    int runsOut,
    int fanIn) {

  /** Megabytes (10^6 bytes) per second of the larger of the read and written volumes. */
  public double megabytesPerSecond() {
    return wallNanos == 0 ? 0 : Math.max(bytesRead, bytesWritten) * 1e3 / wallNanos;
  }

  /** CPU time as a percentage of one core over the phase's wall time (200 % = two busy cores). */
  public double cpuPercent() {
    return wallNanos == 0 ? 0 : 100.0 * cpuNanos / wallNanos;
  }

  void appendJson(JsonWriter w) {
    w.beginObject()
        .field("name", name)
        .field("wallSeconds", wallNanos / 1e9)
        .field("cpuSeconds", cpuNanos / 1e9)
        .field("bytesRead", bytesRead)
        .field("bytesWritten", bytesWritten)
        .field("megabytesPerSecond", megabytesPerSecond())
        .field("runsIn", runsIn)
        .field("runsOut", runsOut)
        .field("fanIn", fanIn)
        .endObject();
  }
}
