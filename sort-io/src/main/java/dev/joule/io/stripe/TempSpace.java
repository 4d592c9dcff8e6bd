package dev.joule.io.stripe;

import dev.joule.io.block.BlockFile;
import dev.joule.io.block.DeviceMeter;
import dev.joule.io.block.FileParts;
import dev.joule.io.block.StripeMap;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.fs.RandomNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The temp space of one sort: its stripes, the placement of new run files over them, and the
 * cleanup of everything it created.
 *
 * <p>Lifecycle: {@link #open} validates every stripe directory (before any input is read), removes
 * stale private directories of killed sorts, registers a JVM shutdown hook (before the first file
 * exists, FLINK-15010) and creates a locked private directory per stripe. {@link #createFile}
 * creates files with {@code CREATE_NEW}, {@code NOFOLLOW_LINKS} and mode 0600 inside a private
 * directory and tracks them. {@link #close()} (success) and {@link #closeAfterFailure(Throwable)}
 * delete every tracked file and the private directories and deregister the hook; the hook does the
 * same if the JVM is shut down by a signal first.
 *
 * <p>Memory: one entry per live temp file. Thread-safe: files may be created from several threads.
 */
public final class TempSpace implements AutoCloseable {
  private static final AtomicInteger HOOKS = new AtomicInteger();

  /**
   * Writes each stripe must have been measured for before units are weighted by speed: a few
   * transfers, so that one slow first write (a cold file system) does not skew a whole run.
   */
  static final int WEIGHT_AFTER_WRITES = 4;

  /**
   * Write-rate spread below which stripes count as equal and keep round robin. Four disks with the
   * same throttle measured busy rates from 124 to 182 MB/s (1.47×) in one sort
   * (sort-bench/scripts/stripe-bench.sh: the throttle lets a burst through after an idle spell),
   * and weighting by that noise made the sort 10 % slower; a disk half as fast measured 2–4×
   * slower.
   */
  static final double EQUAL_WITHIN = 1.75;

  /** Longest weighting pattern per stripe: speed ratios are rounded to quarters of a unit. */
  private static final int PATTERN_PER_STRIPE = 4;

  private final List<Stripe> stripes;
  private final StripeAllocator allocator;
  private final NoticeSink notices;
  private final TempFileTracker tracker = new TempFileTracker();
  private final AtomicInteger fileCounter = new AtomicInteger();
  private final List<DeviceMeter> meters = new ArrayList<>();
  private final boolean weighted = !"false".equals(System.getProperty("joule.weightedStripes"));
  private final Thread hook;
  private boolean closed;
  private boolean cleanedUp;

  private TempSpace(
      List<Stripe> stripes, StripeAllocator allocator, NoticeSink notices, Thread hook) {
    this.stripes = stripes;
    this.allocator = allocator;
    this.notices = notices;
    this.hook = hook;
  }

  /**
   * Opens temp space over {@code stripeDirs} (one or more, in stripe order).
   *
   * @throws SortIOException naming the first unusable stripe directory; nothing is left behind
   */
  public static TempSpace open(List<Path> stripeDirs, StripeAllocator allocator, NoticeSink notices)
      throws SortIOException {
    if (stripeDirs.isEmpty()) {
      throw new IllegalArgumentException("at least one temp dir is needed");
    }
    for (Path d : stripeDirs) {
      Stripe.validate(d); // all before creating anything, so a bad stripe leaves nothing behind
    }
    for (Path d : stripeDirs) {
      StaleDirSweeper.sweep(d, notices);
    }
    List<Stripe> stripes = new ArrayList<>();
    TempSpace[] self = new TempSpace[1];
    Thread hook =
        new Thread(
            () -> {
              TempSpace sp = self[0];
              if (sp != null) {
                sp.refuseNewFiles(); // the sort's threads keep running during shutdown: no file
                // may appear after the sweep
              }
              cleanupQuietly(stripes);
            },
            "joule-temp-cleanup-" + HOOKS.incrementAndGet());
    TempSpace space = new TempSpace(stripes, allocator, notices, hook);
    self[0] = space;
    Runtime.getRuntime().addShutdownHook(hook);
    String uuid = RandomNames.uuid();
    try {
      for (Path d : stripeDirs) {
        synchronized (stripes) {
          stripes.add(Stripe.open(d, uuid));
        }
        space.meters.add(new DeviceMeter());
      }
    } catch (SortIOException e) {
      space.closeAfterFailure(e);
      throw e;
    }
    return space;
  }

  private static void cleanupQuietly(List<Stripe> stripes) {
    synchronized (stripes) {
      for (Stripe s : stripes) {
        try {
          s.release();
        } catch (SortIOException e) {
          // JVM is going down: nobody left to report to, and the next sort's sweep retries
        }
      }
    }
  }

  /** The stripes, in configuration order. */
  public List<Stripe> stripes() {
    return List.copyOf(stripes);
  }

  /** The live temp files. */
  public TempFileTracker tracker() {
    return tracker;
  }

  /**
   * Creates a new temp file of about {@code expectedBytes} on the stripe the allocator picks, after
   * checking that stripe's file system and free space; the file is tracked at once. Caller owns the
   * returned file handle (and must close it; deletion is this object's job).
   *
   * @param kind a short lower-case name stem such as {@code "run"}
   * @throws SortIOException naming the stripe (no space, file system changed) or the file
   */
  public BlockFile createFile(String kind, long expectedBytes, DirectIoPolicy policy)
      throws SortIOException {
    checkKind(kind);
    // Check, create and track under the lock that refuseNewFiles() takes, so that a shutdown hook
    // sweeping the private dirs cannot race with a file being created (a signal left a run file and
    // its private dir behind).
    synchronized (this) {
      checkOpen();
      Stripe s = stripes.get(allocator.next(stripes.size(), expectedBytes));
      s.checkUsable(expectedBytes);
      Path file = s.privateDir().resolve(nextName(kind));
      int stripe = stripes.indexOf(s);
      return BlockFile.createNew(
          FileParts.single(file, stripe, meters.get(stripe)),
          policy,
          notices,
          tracker::track,
          Stripe.FILE_0600);
    }
  }

  /**
   * Creates a new temp file of about {@code expectedBytes} block-striped over every stripe ({@link
   * StripeMap}): bytes {@code [0, base)} and then one unit of {@code unit} bytes on each stripe in
   * turn, starting with the stripe the allocator picks (so that the first blocks of consecutive
   * runs sit on different devices). Each segment has the same name in its stripe's private
   * directory and is tracked as soon as it exists. With one stripe this is {@link #createFile}.
   * Caller owns the returned file handle; deletion is this object's job ({@link
   * #delete(FileParts)}).
   *
   * @throws SortIOException naming the stripe (no space, file system changed) or the segment
   */
  public BlockFile createStriped(
      String kind, long expectedBytes, DirectIoPolicy policy, long base, long unit)
      throws SortIOException {
    int n = stripes.size();
    if (n == 1) {
      return createFile(kind, expectedBytes, policy);
    }
    checkKind(kind);
    synchronized (this) {
      checkOpen();
      int first = allocator.next(n, expectedBytes);
      // A run's first segment gets its header and often its last, partial unit: start on the
      // stripe that has been written least, so that these extras even out over the runs.
      for (int i = 0; i < n; i++) {
        if (meters.get(i).bytesWritten() + unit <= meters.get(first).bytesWritten()) {
          first = i;
        }
      }
      String name = nextName(kind);
      int[] order = new int[n];
      DeviceMeter[] segmentMeters = new DeviceMeter[n];
      for (int i = 0; i < n; i++) {
        order[i] = (first + i) % n;
        segmentMeters[i] = meters.get(order[i]);
      }
      int[] pattern = pattern(segmentMeters);
      int[] units = new int[n];
      for (int seg : pattern) {
        units[seg]++;
      }
      List<Path> paths = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Stripe s = stripes.get(order[i]);
        long share = (long) Math.ceil((double) expectedBytes * units[i] / pattern.length);
        s.checkUsable(base + share + unit);
        paths.add(s.privateDir().resolve(name));
      }
      FileParts parts =
          FileParts.striped(paths, order, new StripeMap(base, unit, pattern), segmentMeters);
      return BlockFile.createNew(parts, policy, notices, tracker::track, Stripe.FILE_0600);
    }
  }

  /**
   * The units of one cycle: round robin until every stripe has {@link #WEIGHT_AFTER_WRITES} writes
   * measured, then in proportion to each stripe's write rate (a stripe twice as fast gets twice the
   * units, so that a slow disk does not pace the fast ones); round robin again with {@code
   * -Djoule.weightedStripes=false}.
   */
  private int[] pattern(DeviceMeter[] segmentMeters) {
    int n = segmentMeters.length;
    double[] rate = new double[n];
    boolean measured = weighted;
    for (int i = 0; i < n && measured; i++) {
      rate[i] = segmentMeters[i].writeRate();
      measured = segmentMeters[i].writes() >= WEIGHT_AFTER_WRITES && rate[i] > 0;
    }
    if (measured
        && Arrays.stream(rate).max().getAsDouble()
            >= EQUAL_WITHIN * Arrays.stream(rate).min().getAsDouble()) {
      return StripeMap.weightedPattern(rate, PATTERN_PER_STRIPE * n);
    }
    int[] roundRobin = new int[n];
    for (int i = 0; i < n; i++) {
      roundRobin[i] = i;
    }
    return roundRobin;
  }

  /** The meter of stripe {@code i} (configuration order): bytes and time of its transfers. */
  public DeviceMeter meter(int i) {
    return meters.get(i);
  }

  /** Deletes every segment of one temp file early (for example a run already merged). */
  public void delete(FileParts file) throws SortIOException {
    for (Path p : file.paths()) {
      tracker.delete(p);
    }
  }

  private static void checkKind(String kind) {
    if (!kind.matches("[a-z]{1,16}")) {
      throw new IllegalArgumentException("bad temp file kind: " + kind);
    }
  }

  /** Guarded by this: no file may appear once the shutdown hook has started its sweep. */
  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("temp space is closed");
    }
  }

  /** The next file name of {@code kind}: {@code kind-NNNNNN}, unique within this sort. */
  private String nextName(String kind) {
    return String.format(Locale.ROOT, "%s-%06d", kind, fileCounter.incrementAndGet());
  }

  private synchronized void refuseNewFiles() {
    closed = true;
  }

  /** Deletes one temp file early (for example a run consumed by an intermediate merge). */
  public void delete(Path file) throws SortIOException {
    tracker.delete(file);
  }

  /**
   * Deletes every temp file and private directory, releases the locks and deregisters the shutdown
   * hook. Idempotent once it has succeeded; after a failure, calling it again (or {@link
   * #closeAfterFailure}) retries whatever is left.
   *
   * @throws SortIOException the first deletion error, later ones suppressed
   */
  @Override
  public void close() throws SortIOException {
    synchronized (this) {
      if (cleanedUp) {
        return;
      }
      closed = true; // a failed cleanup is retried by the next close() or closeAfterFailure()
    }
    SortIOException first = null;
    try {
      tracker.deleteAll();
    } catch (SortIOException e) {
      first = e;
    }
    synchronized (stripes) {
      for (Stripe s : stripes) {
        try {
          s.release();
        } catch (SortIOException e) {
          first = TreeDeleter.add(first, e);
        }
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down and the hook is running or has run: nothing to deregister
    }
    if (first != null) {
      throw first;
    }
    synchronized (this) {
      cleanedUp = true;
    }
  }

  /**
   * Like {@link #close()} after a failure: cleanup errors are added to {@code primary} as
   * suppressed.
   */
  public void closeAfterFailure(Throwable primary) {
    try {
      close();
    } catch (SortIOException e) {
      primary.addSuppressed(e);
    }
  }
}
