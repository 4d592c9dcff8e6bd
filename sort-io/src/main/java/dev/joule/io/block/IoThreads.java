package dev.joule.io.block;

import java.util.concurrent.atomic.AtomicInteger;

/** Names and starts the background I/O threads ({@code joule-read-N}, {@code joule-write-N}). */
final class IoThreads {
  private static final AtomicInteger READERS = new AtomicInteger();
  private static final AtomicInteger WRITERS = new AtomicInteger();

  private IoThreads() {}

  static Thread startReader(Runnable body) {
    return start("joule-read-" + READERS.incrementAndGet(), body);
  }

  static Thread startWriter(Runnable body) {
    return start("joule-write-" + WRITERS.incrementAndGet(), body);
  }

  private static Thread start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    // Daemon: a caller that forgets close() must not keep the JVM alive; close() still joins it.
    t.setDaemon(true);
    t.start();
    return t;
  }
}
