package dev.joule.io.report;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** Process CPU time (all threads, user + system) for phase reports; -1-safe where unsupported. */
final class CpuClock {
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private CpuClock() {}

  /** Nanoseconds of CPU the whole process has used, or 0 if the JVM cannot tell. */
  static long processCpuNanos() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean) {
      long t = ((com.sun.management.OperatingSystemMXBean) OS).getProcessCpuTime();
      return Math.max(0, t);
    }
    return 0;
  }
}
