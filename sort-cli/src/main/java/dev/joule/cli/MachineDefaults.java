package dev.joule.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import dev.joule.core.memory.SuppressForbidden;
import dev.joule.io.config.DataSize;
import dev.joule.io.config.SortConfig;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Defaults derived from the machine and the JVM: the memory budget and the thread count. Stateless.
 *
 * <p>The budget is {@code min(physical RAM / 4, max direct memory - 64 MiB)}, at least {@link
 * SortConfig#MIN_MEMORY}, rounded down to a MiB. A quarter of RAM leaves the page cache room for
 * the input and the runs (GNU sort picks a similar share); the engine keeps its records in direct
 * memory, so the budget must stay below the JVM's direct-memory limit, with headroom for the
 * buffers of other JDK code. The {@code ./joule} launcher raises that limit to the physical RAM.
 */
final class MachineDefaults {
  /** Direct memory left to the JDK and to transfer buffers allocated outside the budget. */
  static final long DIRECT_HEADROOM = 64L << 20;

  /**
   * Physical memory and the direct-memory limit, read once: through the JVM's management beans,
   * whose first use took 40-50 ms of a 1 KB sort's start (JDK 17, 2 vCPU), so the CLI starts this
   * on a thread of its own ({@link #probeInBackground}) while picocli builds its model.
   */
  private static final FutureTask<long[]> PROBE =
      new FutureTask<>(() -> new long[] {probePhysicalMemory(), probeMaxDirectMemory()});

  private static final AtomicBoolean PROBING = new AtomicBoolean();

  private MachineDefaults() {}

  /** Starts reading the machine's memory on a daemon thread {@code joule-defaults}; idempotent. */
  static void probeInBackground() {
    if (PROBING.compareAndSet(false, true)) {
      Thread t = new Thread(PROBE, "joule-defaults");
      t.setDaemon(true);
      t.start();
    }
  }

  private static long[] probed() {
    PROBE.run(); // a no-op when done or running on the background thread; get() then waits
    try {
      return PROBE.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the machine's memory", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read the machine's memory", e.getCause());
    }
  }

  /** Bytes of physical memory (the container's limit inside a container). */
  static long physicalMemory() {
    return probed()[0];
  }

  /** The JVM's direct-memory limit: -XX:MaxDirectMemorySize, or the max heap when it is unset. */
  static long maxDirectMemory() {
    return probed()[1];
  }

  @SuppressForbidden("physical memory has no portable API; the budget default derives from it")
  private static long probePhysicalMemory() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
  }

  @SuppressForbidden("the direct-memory limit is a HotSpot option; other JVMs use the max heap")
  private static long probeMaxDirectMemory() {
    try {
      HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long v = Long.parseLong(hs.getVMOption("MaxDirectMemorySize").getValue());
      if (v > 0) {
        return v;
      }
    } catch (RuntimeException e) {
      // not HotSpot, or no such option: the JDK's rule for the default applies
    }
    return Runtime.getRuntime().maxMemory();
  }

  /** The default memory budget (see the class comment). */
  static DataSize memory() {
    long b = Math.min(physicalMemory() / 4, maxDirectMemory() - DIRECT_HEADROOM);
    b = Math.max(b, SortConfig.MIN_MEMORY.bytes());
    return DataSize.ofBytes(b & ~((1L << 20) - 1));
  }

  /** The default thread count: the processors available to the JVM. */
  static int threads() {
    return Runtime.getRuntime().availableProcessors();
  }
}
