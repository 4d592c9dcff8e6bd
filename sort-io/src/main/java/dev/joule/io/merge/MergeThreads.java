package dev.joule.io.merge;

import dev.joule.io.block.SortThreads;
import dev.joule.io.error.SortCancelledException;
import dev.joule.io.fs.Failures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the bodies of one step of merges (the merges of an intermediate pass, the parts of a final
 * merge): one on the caller's thread, where interrupts reach the cursors directly; several each on
 * a thread of {@link SortThreads}, all made before any starts, so that a factory failing on the
 * j-th leaves none running. The caller waits for every one; an interrupt of the caller asks them to
 * stop ({@code stop}: a flag they check, or an interrupt) and, once all have ended, cancels the
 * sort. The first failure in time is thrown with the later ones suppressed ({@link FirstFailure}).
 *
 * <p>Stateless.
 */
final class MergeThreads {
  private MergeThreads() {}

  /**
   * Runs {@code bodies} as described, each recording its failure in {@code failure} rather than
   * throwing; {@code stop} asks the running ones to stop (given the threads).
   *
   * @throws SortCancelledException if the caller was interrupted ({@code what} says during what)
   */
  static void run(
      SortThreads threads,
      Runnable[] bodies,
      java.util.function.Consumer<List<Thread>> stop,
      String what)
      throws IOException {
    if (bodies.length == 1) {
      bodies[0].run();
      return;
    }
    List<Thread> running = new ArrayList<>();
    for (Runnable body : bodies) {
      running.add(threads.newThread("merge", body));
    }
    SortThreads.startAll(running, () -> stop.accept(running));
    boolean cancelled = false;
    for (Thread t : running) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          cancelled = true;
          stop.accept(running);
        }
      }
    }
    if (cancelled) {
      Thread.currentThread().interrupt();
      throw new SortCancelledException("sort cancelled during " + what);
    }
  }

  /** The first of several threads' failures, with the later ones suppressed. Thread-safe. */
  static final class FirstFailure {
    private Throwable first;

    synchronized void add(Throwable t) {
      if (first == null) {
        first = t;
      } else if (t != first) {
        first.addSuppressed(t);
      }
    }

    synchronized boolean failed() {
      return first != null;
    }

    synchronized void rethrow() throws IOException {
      if (first != null) {
        throw Failures.translate(first);
      }
    }
  }
}
