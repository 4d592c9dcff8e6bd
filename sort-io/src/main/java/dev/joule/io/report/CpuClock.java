package dev.joule.io.report;

import dev.joule.core.memory.SuppressForbidden;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Process CPU time (all threads, user + system) for phase reports, and the calling thread's own;
 * -1-safe where unsupported.
 */
final class CpuClock {
  private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

  private CpuClock() {}

  /** Nanoseconds of CPU the whole process has used, or 0 if the JVM cannot tell. */
  @SuppressForbidden("process CPU time has no portable API; other JVMs report 0")
  static long processCpuNanos() {
    if (OS instanceof com.sun.management.OperatingSystemMXBean sun) {
      long t = sun.getProcessCpuTime();
      return Math.max(0, t);
    }
    return 0;
  }

  /** Nanoseconds of CPU the calling thread has used, or 0 if the JVM cannot tell. */
  static long currentThreadCpuNanos() {
    java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
    return t.isCurrentThreadCpuTimeSupported() ? Math.max(0, t.getCurrentThreadCpuTime()) : 0;
  }
}
