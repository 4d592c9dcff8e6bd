package dev.joule.core.memory;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accounting of live {@link RecordArena}s, and of slabs taken out of one ({@link RecordArena.Slab})
 * until an arena adopts them or they are closed: the direct bytes they own (always) and, when
 * tracking is on, the stack that allocated each (for leak reports).
 *
 * <p>Tracking is on when assertions are enabled for this package ({@code -ea}) or when the system
 * property {@code joule.trackMemory} is {@code true}. It costs one stack capture per arena
 * allocation, which happens once per sort. Thread-safe.
 */
public final class ArenaTracker {
  /** Whether allocation sites are recorded; fixed at class initialisation. */
  public static final boolean TRACKING = trackingEnabled();

  private static final AtomicLong LIVE_BYTES = new AtomicLong();
  private static final Map<AutoCloseable, Throwable> LIVE = new ConcurrentHashMap<>();

  private ArenaTracker() {}

  @SuppressWarnings({"AssertWithSideEffects", "AssignmentExpression"}) // the -ea idiom
  private static boolean trackingEnabled() {
    boolean ea = false;
    assert ea = true;
    return ea || Boolean.getBoolean("joule.trackMemory");
  }

  /**
   * Direct bytes currently owned by all open arenas (reserved, including alignment slack) and by
   * slabs taken out of one and not adopted yet (counted by their arena's layout too until it
   * closes).
   */
  public static long liveDirectBytes() {
    return LIVE_BYTES.get();
  }

  /** The open arenas' allocation sites as printable stack traces; empty when tracking is off. */
  public static List<String> liveAllocationSites() {
    List<String> sites = new ArrayList<>();
    for (Map.Entry<AutoCloseable, Throwable> e : LIVE.entrySet()) {
      StringWriter w = new StringWriter();
      e.getValue().printStackTrace(new PrintWriter(w));
      sites.add(e.getKey() + " allocated at:\n" + w);
    }
    return sites;
  }

  /**
   * Closes every arena and slab still registered and returns how many there were. For test
   * harnesses only (the leak extension), so that one leaking test does not cascade into the next.
   */
  public static int closeAllLive() {
    int n = 0;
    for (AutoCloseable a : new ArrayList<>(LIVE.keySet())) {
      if (a instanceof RecordArena arena) {
        arena.close();
      } else if (a instanceof RecordArena.Slab slab) {
        slab.close();
      }
      n++;
    }
    return n;
  }

  static void opened(AutoCloseable owner, long bytes) {
    LIVE_BYTES.addAndGet(bytes);
    if (TRACKING) {
      LIVE.put(owner, new Throwable(owner.getClass().getSimpleName() + " allocation site"));
    }
  }

  static void closed(AutoCloseable owner, long bytes) {
    LIVE_BYTES.addAndGet(-bytes);
    if (TRACKING) {
      LIVE.remove(owner);
    }
  }
}
