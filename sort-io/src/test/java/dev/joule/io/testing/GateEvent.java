package dev.joule.io.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Something that happens once during a sort (a transfer starting), which transfers held in a test's
 * {@link FaultFileSystemProvider.TransferGate} wait for. A wait gives up after {@link
 * #LIMIT_SECONDS} and is then noted as missed, so a mechanism switched off fails the test after
 * that time instead of hanging it; switched on, nobody waits longer than a hand-off.
 */
public final class GateEvent {
  /** How long a held transfer waits: far beyond any scheduling delay of a working pipeline. */
  public static final long LIMIT_SECONDS = 20;

  private final String name;
  private final CountDownLatch happened = new CountDownLatch(1);
  private final List<String> missedBy = new CopyOnWriteArrayList<>();

  /** An event named {@code name} in messages. */
  public GateEvent(String name) {
    this.name = name;
  }

  /** Records that the event happened (once; later calls change nothing). */
  public void happen() {
    happened.countDown();
  }

  /** Whether the event has happened. */
  public boolean happened() {
    return happened.getCount() == 0;
  }

  /**
   * Holds the calling thread until the event has happened or {@link #LIMIT_SECONDS} passed; in the
   * latter case the thread is noted and the caller goes on. An interrupt ends the wait (the flag
   * stays set, for the transfer to see).
   */
  public void await() {
    try {
      if (!happened.await(LIMIT_SECONDS, TimeUnit.SECONDS)) {
        missedBy.add(Thread.currentThread().getName());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Null if nobody waited in vain, else who did, for a failure message. */
  public String missed() {
    return missedBy.isEmpty()
        ? null
        : missedBy + " waited " + LIMIT_SECONDS + " s in vain for " + name;
  }
}
