package dev.joule.io.report;

/**
 * Measures one phase of a sort: wall time and the CPU time of the whole process (all threads, user
 * and system) since it was started, turned into a {@link PhaseReport} at the end.
 *
 * <p>Immutable once started; one per phase.
 */
public final class PhaseClock {
  private final long wall0 = System.nanoTime();
  private final long cpu0 = CpuClock.processCpuNanos();

  /** Starts measuring now. */
  public PhaseClock() {}

  /**
   * Nanoseconds of CPU the whole process has used (all threads, user + system), or 0 if the JVM
   * cannot tell: the clock of the phase reports, for the timeline's per-interval CPU.
   */
  public static long processCpuNanos() {
    return CpuClock.processCpuNanos();
  }

  /** CPU nanoseconds the calling thread has used (0 where the JVM cannot tell). */
  public static long currentThreadCpuNanos() {
    return CpuClock.currentThreadCpuNanos();
  }

  /** The report of the phase so far: see {@link PhaseReport} for the fields. */
  public PhaseReport phase(
      String name, long read, long written, int runsIn, int runsOut, int fanIn) {
    return new PhaseReport(
        name,
        System.nanoTime() - wall0,
        CpuClock.processCpuNanos() - cpu0,
        read,
        written,
        runsIn,
        runsOut,
        fanIn);
  }
}
