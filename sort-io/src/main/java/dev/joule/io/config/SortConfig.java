package dev.joule.io.config;

import dev.joule.core.key.SortKey;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.hooks.SortHooks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;

/**
 * Everything a sort needs to know besides its input and output: the record format, the memory
 * budget, worker threads, temp directories (one per stripe), transfer sizes, the direct-I/O policy,
 * an optional merge fan-in, and where the sort's threads come from. Built with {@link #builder()};
 * every setter validates its argument and names it in the error, so a bad option fails before any
 * I/O.
 *
 * <p><b>Threads.</b> A sort uses two kinds of threads, and a caller can supply each:
 *
 * <ul>
 *   <li>the <em>compute</em> work (radix sort, the parallel checksum-and-index pass, the gather of
 *       an in-memory sort) runs as ForkJoin tasks on {@link #computePool()}: the caller's pool if
 *       one was given (joule never shuts it down), else a pool of {@link #threads()} workers
 *       ({@code joule-radix-N}) that the sort creates and shuts down;
 *   <li>the <em>dedicated</em> threads (input read-ahead, write-behind of runs and output, merge
 *       prefetch, the run writer, the parts of a parallel final merge, the parser of lines and
 *       rows) come from {@link #threadFactory()} if one was given, else joule names them {@code
 *       joule-<role>-N} and makes them daemons. Each is started for one step of one sort and joined
 *       before that step's {@code close} returns, on success and on failure alike; none outlives
 *       the sort or the session.
 * </ul>
 *
 * <p>The dedicated threads come from a {@link ThreadFactory}, not an {@link
 * java.util.concurrent.Executor}, because they are not short tasks: each runs a loop that blocks on
 * a queue or on the disk for as long as its step lasts, and a sort needs several of them at once (a
 * reader, a writer and a run writer during run formation; a prefetcher and a writer per merge
 * part). On a bounded executor too small for all of them they would wait for each other forever;
 * with a factory every one gets its thread, or the sort fails at once with a {@link
 * java.util.concurrent.RejectedExecutionException} when the factory throws or returns null. The
 * factory still decides everything about the thread: name, group, daemon flag, priority, context
 * class loader, and any accounting around it; joule changes none of these.
 *
 * <p>Immutable and thread-safe.
 */
public final class SortConfig {
  /**
   * Smallest memory budget: room for the input and output transfer buffers and a few MiB of
   * records. A budget below this is refused before any I/O (docs/reliability.md P3).
   */
  public static final DataSize MIN_MEMORY = DataSize.ofMiB(8);

  /** Default memory budget of the API: 256 MiB (the CLI derives its own from the machine). */
  public static final DataSize DEFAULT_MEMORY = DataSize.ofMiB(256);

  /** Default interval of a file sort's timeline: one second. */
  public static final Duration DEFAULT_TIMELINE_INTERVAL = Duration.ofSeconds(1);

  /** Shortest timeline interval accepted: a millisecond (shorter ones would cost CPU). */
  public static final Duration MIN_TIMELINE_INTERVAL = Duration.ofMillis(1);

  /** Most worker threads ({@link #threads()}). */
  public static final int MAX_THREADS = 256;

  private final RecordFormat format;
  private final SortKey key;
  private final LastResort lastResort;
  private final boolean unique;
  private final DataSize memoryBudget;
  private final int requestedThreads; // 0: not set, derived from the pool or the machine
  private final int threads;
  private final ThreadFactory threadFactory;
  private final ForkJoinPool computePool;
  private final List<Path> tempDirs;
  private final TransferSizes transferSizes;
  private final DirectIoPolicy directIo;
  private final Compression compression;
  private final int fanIn;
  private final NoticeSink notices;
  private final ProgressListener progress;
  private final Duration timelineInterval;
  private final TimelineListener timelineListener;
  private final MemoryGrant memoryGrant;
  private final boolean validate;
  private final boolean mergeAhead;
  private final SortHooks hooks;

  static {
    SortHooks.install(
        new SortHooks.Access() {
          @Override
          public SortHooks get(SortConfig config) {
            return config.hooks;
          }

          @Override
          public SortHooks get(Builder builder) {
            return builder.hooks;
          }

          @Override
          public void set(Builder builder, SortHooks hooks) {
            builder.hooks = hooks;
          }
        });
  }

  private SortConfig(Builder b) {
    this.hooks = b.hooks;
    this.format = b.format;
    this.key = b.key;
    this.lastResort = b.lastResort;
    this.unique = b.unique;
    this.memoryBudget = b.memoryBudget;
    this.requestedThreads = b.threads;
    this.computePool = b.computePool;
    this.threadFactory = b.threadFactory;
    this.threads = b.threads > 0 ? b.threads : defaultThreads(b.computePool);
    this.tempDirs = List.copyOf(b.tempDirs.isEmpty() ? List.of(defaultTempDir()) : b.tempDirs);
    this.transferSizes = b.transferSizes;
    this.directIo = b.directIo;
    this.compression = b.compression;
    this.fanIn = b.fanIn;
    this.notices = b.notices;
    this.progress = b.progress;
    this.timelineInterval = b.timelineInterval;
    this.timelineListener = b.timelineListener;
    this.memoryGrant = b.memoryGrant;
    this.validate = b.validate;
    this.mergeAhead = b.mergeAhead;
  }

  /**
   * A builder with the defaults: gensort records, 256 MiB, all cores, java.io.tmpdir, 4 MiB, AUTO.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.format = format;
    b.key = key;
    b.lastResort = lastResort;
    b.unique = unique;
    b.memoryBudget = memoryBudget;
    b.threads = requestedThreads;
    b.threadFactory = threadFactory;
    b.computePool = computePool;
    b.tempDirs.addAll(tempDirs);
    b.transferSizes = transferSizes;
    b.directIo = directIo;
    b.compression = compression;
    b.fanIn = fanIn;
    b.notices = notices;
    b.progress = progress;
    b.timelineInterval = timelineInterval;
    b.timelineListener = timelineListener;
    b.memoryGrant = memoryGrant;
    b.validate = validate;
    b.mergeAhead = mergeAhead;
    b.hooks = hooks;
    return b;
  }

  /** The format of the records: fixed size, lines or length-prefixed rows. */
  public RecordFormat format() {
    return format;
  }

  /**
   * What records are sorted by, or null for the format's own: a fixed format's byte-range key, the
   * whole record for lines and rows.
   */
  public SortKey key() {
    return key;
  }

  /** What orders records with equal keys: input order (default) or the whole records. */
  public LastResort lastResort() {
    return lastResort;
  }

  /** Whether only the first of each run of records with equal keys is output. */
  public boolean unique() {
    return unique;
  }

  /** Off-heap record memory plus the heap index and the I/O buffers must fit in this. */
  public DataSize memoryBudget() {
    return memoryBudget;
  }

  /**
   * Worker threads for sorting and merging: the parallelism the radix sort plans for, the most
   * parts of a parallel final merge, and the parse threads of a one-pass sort of lines (at most 8).
   * As set with {@link Builder#threads}; if not set, the parallelism of {@link #computePool()} when
   * the caller gave one (at most {@link #MAX_THREADS}), else the available processors.
   */
  public int threads() {
    return threads;
  }

  /**
   * The caller's factory of the sort's dedicated threads, or null for joule's own ({@code
   * joule-<role>-N} daemons); see the class documentation.
   */
  public ThreadFactory threadFactory() {
    return threadFactory;
  }

  /**
   * The caller's ForkJoin pool for the compute work, or null for a pool of {@link #threads()}
   * workers that each sort creates and shuts down; see the class documentation.
   */
  public ForkJoinPool computePool() {
    return computePool;
  }

  private static int defaultThreads(ForkJoinPool pool) {
    return pool == null
        ? Runtime.getRuntime().availableProcessors()
        : Math.min(MAX_THREADS, pool.getParallelism());
  }

  /** Temp directories, one per stripe, in stripe order. */
  public List<Path> tempDirs() {
    return tempDirs;
  }

  /** Bytes per read or write of each file kind. */
  public TransferSizes transferSizes() {
    return transferSizes;
  }

  /** Bytes per read or write of {@code kind}. */
  public int transferSize(FileKind kind) {
    return transferSizes.of(kind);
  }

  /** When input and temp files are read and written with O_DIRECT. */
  public DirectIoPolicy directIo() {
    return directIo;
  }

  /**
   * How temp runs are compressed; default {@link Compression#auto()} (its scratch buffers are
   * reserved in the budget).
   */
  public Compression compression() {
    return compression;
  }

  /** The requested merge fan-in, or 0 to derive it from memory and the open-file limit. */
  public int fanIn() {
    return fanIn;
  }

  /** Where one-line notices (e.g. a direct-I/O fallback) go. */
  public NoticeSink notices() {
    return notices;
  }

  /** Where progress goes. */
  public ProgressListener progress() {
    return progress;
  }

  /**
   * How often a file sort samples its devices and CPU for the report's timeline; {@link
   * Duration#ZERO} when it does not.
   */
  public Duration timelineInterval() {
    return timelineInterval;
  }

  /** Where each sample of a file sort's timeline goes as it is taken. */
  public TimelineListener timelineListener() {
    return timelineListener;
  }

  /**
   * Who grants a sort session its memory as it grows ({@link MemoryGrant}); {@link
   * MemoryGrant#UNLIMITED} (the default) when the budget alone bounds it. A file sort plans its
   * memory from the budget and does not ask.
   */
  public MemoryGrant memoryGrant() {
    return memoryGrant;
  }

  /**
   * Whether a sort session checks its own output (count, checksum and order against what was added;
   * the default). A file sort always does: it publishes only a checked output.
   */
  public boolean validate() {
    return validate;
  }

  /** Whether a sort session's final merge runs ahead of its cursor (default false). */
  public boolean mergeAhead() {
    return mergeAhead;
  }

  /** Default temp directory (one stripe): {@code java.io.tmpdir}. */
  public static Path defaultTempDir() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  @Override
  public String toString() {
    return "SortConfig{format="
        + format
        + (key == null ? "" : ", key=" + key)
        + (lastResort == LastResort.NONE ? "" : ", lastResort=" + lastResort)
        + (unique ? ", unique" : "")
        + ", memory="
        + memoryBudget
        + ", threads="
        + threads
        + (threadFactory == null ? "" : ", threadFactory=" + threadFactory)
        + (computePool == null ? "" : ", computePool=" + computePool)
        + ", tempDirs="
        + tempDirs
        + ", transfer="
        + transferSizes
        + ", directIo="
        + directIo
        + (compression.equals(Compression.auto()) ? "" : ", compression=" + compression)
        + ", fanIn="
        + (fanIn == 0 ? "auto" : fanIn)
        + (memoryGrant == MemoryGrant.UNLIMITED ? "" : ", memoryGrant=" + memoryGrant)
        + (validate ? "" : ", validate=false")
        + (mergeAhead ? ", mergeAhead=true" : "")
        + "}";
  }

  /** Builds a {@link SortConfig}; not thread-safe. */
  public static final class Builder {
    private RecordFormat format = RecordFormat.gensort();
    private SortKey key;
    private LastResort lastResort = LastResort.NONE;
    private boolean unique;
    private DataSize memoryBudget = DEFAULT_MEMORY;
    private int threads; // 0: not set
    private ThreadFactory threadFactory;
    private ForkJoinPool computePool;
    private final List<Path> tempDirs = new ArrayList<>();
    private TransferSizes transferSizes = TransferSizes.defaults();
    private DirectIoPolicy directIo = DirectIoPolicy.AUTO;
    private Compression compression = Compression.auto();
    private int fanIn;
    private NoticeSink notices = NoticeSink.IGNORE;
    private ProgressListener progress = ProgressListener.NONE;
    private Duration timelineInterval = DEFAULT_TIMELINE_INTERVAL;
    private TimelineListener timelineListener = TimelineListener.NONE;
    private MemoryGrant memoryGrant = MemoryGrant.UNLIMITED;
    private boolean validate = true;
    private boolean mergeAhead;
    private SortHooks hooks = SortHooks.NONE;

    private Builder() {}

    /** The record format; default: gensort records (100 bytes, 10-byte key at offset 0). */
    public Builder format(RecordFormat format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /**
     * What records are sorted by (null: the format's own key: a fixed format's byte range, or the
     * whole record).
     */
    public Builder key(SortKey key) {
      this.key = key;
      return this;
    }

    /** What orders records with equal keys; default {@link LastResort#NONE} (stable). */
    public Builder lastResort(LastResort lastResort) {
      this.lastResort = Objects.requireNonNull(lastResort, "lastResort");
      return this;
    }

    /** Outputs only the first of each run of records with equal keys; default false. */
    public Builder unique(boolean unique) {
      this.unique = unique;
      return this;
    }

    /** The memory budget; at least {@link #MIN_MEMORY}. */
    public Builder memoryBudget(DataSize budget) {
      Objects.requireNonNull(budget, "memoryBudget");
      if (budget.compareTo(MIN_MEMORY) < 0) {
        throw new IllegalArgumentException(
            "memory budget " + budget + " is below the minimum " + MIN_MEMORY);
      }
      this.memoryBudget = budget;
      return this;
    }

    /**
     * Worker threads for sorting and merging, 1..{@link #MAX_THREADS}; default: the parallelism of
     * the {@link #computePool compute pool} if one is given, else the available processors. Set
     * with a compute pool, it is the parallelism the sort plans for (tasks per level, merge parts)
     * while the pool's own parallelism decides how many of its workers run them.
     */
    public Builder threads(int threads) {
      if (threads < 1 || threads > MAX_THREADS) {
        throw new IllegalArgumentException("threads " + threads + " is outside 1.." + MAX_THREADS);
      }
      this.threads = threads;
      return this;
    }

    /**
     * Makes the sort's dedicated threads (read-ahead, write-behind, prefetch, run writer, merge
     * parts, split searches, parser) with {@code factory}; null (the default) for joule's own
     * {@code joule-<role>-N} daemons. Each call of {@code newThread} must return a new, unstarted
     * thread that runs the given {@code Runnable}; joule starts and joins it and changes nothing
     * else about it. The {@code Runnable}'s {@code toString()} is joule's name for the role ({@code
     * joule-read}, {@code joule-write}, {@code joule-prefetch}, {@code joule-runwrite}, {@code
     * joule-merge}, {@code joule-split}, {@code joule-parse}, {@code joule-timeline}), for a
     * factory that names threads by role. A factory that throws or returns null fails the sort (or
     * the session's step) with a {@link java.util.concurrent.RejectedExecutionException} carrying
     * its exception, after everything already started was stopped and joined and every temp file
     * deleted. See the class documentation for why a factory and not an executor.
     */
    public Builder threadFactory(ThreadFactory factory) {
      this.threadFactory = factory;
      return this;
    }

    /**
     * Runs the compute work (radix sort, checksum and index, gather) as tasks on {@code pool}
     * instead of a pool of the sort's own; null (the default) for the sort's own. joule never shuts
     * the pool down, and several sorts may share it. Unless {@link #threads} is set, the pool's
     * parallelism when {@link #build()} is called becomes {@link SortConfig#threads()}. A pool that
     * is shut down when a sort starts fails it with a {@link
     * java.util.concurrent.RejectedExecutionException} before anything is written.
     */
    public Builder computePool(ForkJoinPool pool) {
      this.computePool = pool;
      return this;
    }

    /**
     * The temp directories, one per stripe (replaces any set before); empty means java.io.tmpdir.
     */
    public Builder tempDirs(List<Path> dirs) {
      tempDirs.clear();
      for (Path d : dirs) {
        tempDirs.add(Objects.requireNonNull(d, "temp dir"));
      }
      return this;
    }

    /** The transfer sizes of every file kind; default 4 MiB each. */
    public Builder transferSizes(TransferSizes sizes) {
      this.transferSizes = Objects.requireNonNull(sizes, "transferSizes");
      return this;
    }

    /** The transfer size of one file kind; a positive multiple of 4096. */
    public Builder transferSize(FileKind kind, DataSize size) {
      if (size.bytes() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "transfer size for " + kind + " " + size + " is above 2 GiB");
      }
      this.transferSizes = transferSizes.with(kind, (int) size.bytes());
      return this;
    }

    /** When to use O_DIRECT; default {@link DirectIoPolicy#AUTO}. */
    public Builder directIo(DirectIoPolicy policy) {
      this.directIo = Objects.requireNonNull(policy, "directIo");
      return this;
    }

    /**
     * How temp runs are compressed; default {@link Compression#auto()} (LZ4 where it saves time on
     * the temp devices, measured during the sort; raw without lz4-java on the class path); {@link
     * Compression#off()} never compresses.
     */
    public Builder compression(Compression compression) {
      this.compression = Objects.requireNonNull(compression, "compression");
      return this;
    }

    /** Merge fan-in, at least 2; 0 (the default) derives it from memory and the open-file limit. */
    public Builder fanIn(int fanIn) {
      if (fanIn != 0 && fanIn < 2) {
        throw new IllegalArgumentException(
            "fan-in " + fanIn + " must be at least 2 (or 0 for automatic)");
      }
      this.fanIn = fanIn;
      return this;
    }

    /** Where one-line notices go; default: dropped. */
    public Builder notices(NoticeSink notices) {
      this.notices = Objects.requireNonNull(notices, "notices");
      return this;
    }

    /** Where progress goes; default: nowhere. */
    public Builder progress(ProgressListener progress) {
      this.progress = Objects.requireNonNull(progress, "progress");
      return this;
    }

    /**
     * How often a file sort samples bytes, transfers in flight and waits per device, and the
     * process's CPU, into {@code SortReport.timeline()} and the {@link #timelineListener}; default
     * {@link #DEFAULT_TIMELINE_INTERVAL}, {@link Duration#ZERO} for no timeline (and no sampler
     * thread). A sample costs a few atomic reads per device.
     *
     * @throws IllegalArgumentException if negative, or positive and below {@link
     *     #MIN_TIMELINE_INTERVAL}
     */
    public Builder timelineInterval(Duration interval) {
      Objects.requireNonNull(interval, "timelineInterval");
      if (interval.isNegative()
          || (!interval.isZero() && interval.compareTo(MIN_TIMELINE_INTERVAL) < 0)) {
        throw new IllegalArgumentException(
            "timeline interval "
                + interval
                + " must be 0 (no timeline) or at least "
                + MIN_TIMELINE_INTERVAL);
      }
      this.timelineInterval = interval;
      return this;
    }

    /** Where each timeline sample goes as it is taken; default: nowhere (the report keeps them). */
    public Builder timelineListener(TimelineListener listener) {
      this.timelineListener = Objects.requireNonNull(listener, "timelineListener");
      return this;
    }

    /**
     * The platform's memory manager that a sort session asks before it grows and tells when it
     * gives memory back; default {@link MemoryGrant#UNLIMITED}. See {@link MemoryGrant}.
     */
    public Builder memoryGrant(MemoryGrant grant) {
      this.memoryGrant = Objects.requireNonNull(grant, "memoryGrant");
      return this;
    }

    /**
     * Whether a sort session checks its own output; default true. The check costs one CRC-32C of
     * every entry as it is added and one as the cursor passes it, plus a copy and a compare of each
     * key: on 1 GB of pairs (keys of 4-64 bytes, values of up to 500) the session's CPU time with
     * and without it differed by less than the run-to-run noise (11.1 against 11.6 CPU-seconds,
     * medians of 3 alternating runs: sort-bench/README.md, "The embedding session"), the CRCs being
     * about 12 % of the adding and iterating thread's samples. Turn it off only where the platform
     * checks the data itself. A file sort always checks: it publishes only a checked output, so
     * this setting does not apply to it.
     */
    public Builder validate(boolean validate) {
      this.validate = validate;
      return this;
    }

    /**
     * Whether a spilled sort session runs its final merge, and its output check, on a thread of its
     * own ahead of the cursor, copying the merged entries into four blocks (together 1/32 of the
     * budget); default false. It helps a caller that does heavy work on each record and has a core
     * to spare, at the cost of that copy: on 1 GB of gensort records through a session written to a
     * file on this project's 2-core test machine it took 7 % off the wall time in two A/B runs and
     * added 7-10 % in two others, and always 13-22 % more CPU (sort-bench/README.md, "Then the
     * first chunk goes out in two runs"). A session of one thread never does.
     */
    public Builder mergeAhead(boolean mergeAhead) {
      this.mergeAhead = mergeAhead;
      return this;
    }

    /** The configuration, immutable. */
    public SortConfig build() {
      return new SortConfig(this);
    }
  }
}
