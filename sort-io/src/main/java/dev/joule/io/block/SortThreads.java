package dev.joule.io.block;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where every dedicated thread of a sort comes from (read-ahead, write-behind, prefetch, run
 * writer, merge parts, split searches, parser, timeline, device probe): joule's own named daemon
 * threads ({@code joule-<role>-N}), or the threads of a caller's {@link ThreadFactory} ({@code
 * SortConfig.threadFactory}). Shutdown hooks are not dedicated threads and do not come from here:
 * they never run during a sort.
 *
 * <p>A caller's thread is used as the factory made it: joule sets neither its name, daemon flag,
 * priority nor context class loader, because accounting for them is what the caller gave the
 * factory for. The {@code Runnable} the factory gets answers {@code toString()} with joule's name
 * for the role ({@code joule-read}, ...), so that a factory can put it in the thread's name. A
 * factory that throws, returns null or returns a thread already started fails the step that needed
 * the thread with a {@link RejectedExecutionException} (the executors' word for "no thread for this
 * work"), before anything ran on it.
 *
 * <p>Whoever starts a thread here joins it when it closes, on every path. Stateless apart from the
 * factory; thread-safe.
 */
public final class SortThreads {
  /** joule's own threads: {@code joule-<role>-N}, daemons. */
  public static final SortThreads JOULE = new SortThreads(null);

  private static final Map<String, AtomicInteger> NUMBERS = new ConcurrentHashMap<>();

  private final ThreadFactory factory;

  private SortThreads(ThreadFactory factory) {
    this.factory = factory;
  }

  /** The threads of {@code factory}, or joule's own when it is null. */
  public static SortThreads of(ThreadFactory factory) {
    return factory == null ? JOULE : new SortThreads(factory);
  }

  /** Whether the threads come from a caller's factory. */
  public boolean callers() {
    return factory != null;
  }

  /**
   * A new, unstarted thread that runs {@code body} in the role {@code role} (a lower-case word:
   * {@code read}, {@code write}, {@code prefetch}, {@code runwrite}, {@code merge}, {@code ahead},
   * {@code split}, {@code parse}, {@code keys}, {@code timeline}, {@code compress}, {@code probe}).
   *
   * @throws RejectedExecutionException if the caller's factory fails to make one
   */
  public Thread newThread(String role, Runnable body) {
    String name = "joule-" + role;
    if (factory == null) {
      Thread t =
          new Thread(
              body,
              name
                  + "-"
                  + NUMBERS.computeIfAbsent(role, r -> new AtomicInteger()).incrementAndGet());
      // Daemon: a caller that forgets close() must not keep the JVM alive; close() still joins it.
      t.setDaemon(true);
      return t;
    }
    Thread t;
    try {
      t = factory.newThread(new Role(name, body));
    } catch (RuntimeException e) {
      throw new RejectedExecutionException(
          "the sort's ThreadFactory failed to make its " + name + " thread: " + e, e);
    }
    if (t == null) {
      throw new RejectedExecutionException(
          "the sort's ThreadFactory returned no thread (null) for its " + name + " thread");
    }
    if (t.getState() != Thread.State.NEW) {
      throw new RejectedExecutionException(
          "the sort's ThreadFactory returned a thread already started ("
              + t.getName()
              + ") for its "
              + name
              + " thread");
    }
    return t;
  }

  /**
   * A started thread running {@code body} in {@code role}; see {@link #newThread}.
   *
   * @throws RejectedExecutionException if the caller's factory fails to make one
   */
  public Thread start(String role, Runnable body) {
    Thread t = newThread(role, body);
    t.start();
    return t;
  }

  /**
   * Starts every thread of {@code threads} (made by {@link #newThread}, none started yet). If one
   * cannot start (the JVM is out of native threads), {@code stop} is run to make those already
   * started return, they are joined, and the failure is rethrown: no thread is left running.
   */
  public static void startAll(List<Thread> threads, Runnable stop) {
    int started = 0;
    try {
      for (Thread t : threads) {
        t.start();
        started++;
      }
    } catch (RuntimeException | Error e) {
      stop.run();
      joinUninterruptibly(threads.subList(0, started));
      throw e;
    }
  }

  /**
   * Joins every thread of {@code threads}, waiting through interrupts (the flag is set again
   * afterwards): a thread that may still touch memory its owner is about to free must have ended.
   */
  public static void joinUninterruptibly(List<Thread> threads) {
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return factory == null ? "joule's threads" : "threads of " + factory;
  }

  /** The body of a caller's thread, named by its role for the factory. */
  private static final class Role implements Runnable {
    private final String name;
    private final Runnable body;

    Role(String name, Runnable body) {
      this.name = name;
      this.body = body;
    }

    @Override
    public void run() {
      body.run();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
