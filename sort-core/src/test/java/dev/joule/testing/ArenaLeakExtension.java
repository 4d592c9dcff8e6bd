package dev.joule.testing;

import dev.joule.core.memory.ArenaTracker;
import dev.joule.core.memory.DirectRegion;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a {@code RecordArena} open, printing where each leaked arena was
 * allocated, then closes the leaked arenas so the next test starts clean. Needs tracking on ({@code
 * -ea} or {@code -Djoule.trackMemory=true}); registered for every sort-core test by autodetection
 * ({@code META-INF/services}).
 */
public final class ArenaLeakExtension implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    checkNoLeaks(context.getDisplayName());
  }

  /**
   * Throws {@link AssertionError} naming the allocation sites if any arena is open, after closing
   * them all.
   */
  public static void checkNoLeaks(String testName) {
    if (DirectRegion.unreleasedCount() != 0) {
      throw new AssertionError(
          testName
              + " closed a direct region while a thread still held it ("
              + DirectRegion.unreleasedCount()
              + " pending): an owner freed memory before joining its I/O");
    }
    List<String> sites = ArenaTracker.liveAllocationSites();
    long bytes = ArenaTracker.liveDirectBytes();
    if (sites.isEmpty() && bytes == 0) {
      return;
    }
    ArenaTracker.closeAllLive();
    throw new AssertionError(
        testName
            + " leaked "
            + sites.size()
            + " RecordArena(s), "
            + bytes
            + " direct bytes:\n"
            + String.join("\n", sites));
  }
}
