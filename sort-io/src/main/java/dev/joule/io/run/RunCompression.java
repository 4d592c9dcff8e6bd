package dev.joule.io.run;

import dev.joule.core.memory.Alignment;
import dev.joule.core.memory.DirectRegion;
import dev.joule.io.block.BlockFile;
import dev.joule.io.block.BlockPool;
import dev.joule.io.block.SortThreads;
import dev.joule.io.config.Compression;
import dev.joule.io.config.DirectIoPolicy;
import dev.joule.io.config.NoticeSink;
import dev.joule.io.error.SortIOException;
import dev.joule.io.report.CompressionReport;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The run compression of one sort: which codec its run writers try ({@link Compression}), whether a
 * block is worth trying ({@link Choice}, one per run written), the scratch buffers the codecs work
 * in, and what compression did (raw and stored bytes, CPU time).
 *
 * <p><b>The {@code auto} rule.</b> A run writer compresses one block while the device writes the
 * one before, so compression costs wall time only when the codec is slower than the device, and
 * pays when the device then has fewer bytes to write. At C raw bytes per second per core (the
 * codec, measured on this sort's blocks in the writing thread's CPU time), a stored/raw ratio r
 * (measured on the same blocks) and D the temp devices' sustained write rate (their {@code
 * DeviceMeter}s: bytes per busy second, summed over the stripes, as measured during this sort), a
 * writer moves min(C, D/r) raw bytes a second instead of D; it compresses when both C and 1/r
 * exceed D's rate by the margin {@value #MARGIN} (which also covers decompressing the run when it
 * is read back: LZ4 decompresses 4–6× faster than it compresses, sort-bench/README.md "Run
 * compression"). So a disk faster than the codec (this machine's own, about 1.3 GB/s) keeps its
 * runs raw, and one slower (a 125 MB/s cloud volume) gets every block of text compressed. An
 * earlier rule charged the codec's CPU time as if it replaced device time, C·(1 − r) &gt; 1.25·D:
 * it compressed a third of the blocks of gensort text on a 125 MiB/s disk (83 % of the temp bytes,
 * 1.79× the floor). D is also bounded by a timed read of a run just written ({@link #probeAfter},
 * {@link DeviceProbe}): writes cannot tell a device about as fast as the run writer, which the
 * merge then reads at the device's pace. Every run tries its first {@value #PROBE_BLOCKS} blocks
 * and then one in {@value #PROBE_EVERY}, so the measurement follows the data; before the devices
 * have been measured (the first blocks of the sort) a block is tried, and kept only if it shrinks.
 * Each run has one codec (its header names it): LZ4, or zstd level 1 where the devices bound LZ4
 * and zstd costs less per byte written and read back by the margin ({@link #autoCodecForRun}).
 *
 * <p><b>Memory.</b> Scratch buffers of a block, made on first need and kept until {@link #close()}:
 * at most {@code limit} of them. The plan reserves them in the budget ({@code
 * SortPlan.codecScratchBuffers}) and the sort's run store charges its meter for all of them when
 * the sort starts: they are made on the threads that write and read runs, which must never wait for
 * the meter, since a session's grant may hold it while it waits for those very threads. A buffer is
 * held only while a block is compressed or decompressed and copied (never across a read or a write
 * of the device, and never by a thread that already holds one), so a thread that finds them all in
 * use waits for one to come back, which costs nothing where every holder is using a core. The
 * exception is {@code auto}'s device probe, which borrows an idle one (never waiting) and holds it
 * across its reads, once per sort: up to 32 MiB, about 25 ms on a fast disk and 0.3 s on a 125 MB/s
 * one, during which a writer compressing ahead lays its blocks out in place and a thread that needs
 * a buffer may wait. No buffer is reserved for it: a session under a platform's memory grant would
 * hold one more block for it (the Spark operator's memory test measured it).
 *
 * <p>Thread-safe.
 */
public final class RunCompression implements AutoCloseable {
  /** Blocks of every run that are tried whatever the measurement says (the run's own sample). */
  static final int PROBE_BLOCKS = 2;

  /** After the probe, one block in this many is tried to keep measuring a run the rule skips. */
  static final int PROBE_EVERY = 16;

  /**
   * How much faster than the devices the codec must run, and how much it must shrink the blocks,
   * for {@code auto} to compress: the read back's decompression, and the CPU the codec takes from
   * the rest of the sort (see the class documentation).
   */
  static final double MARGIN = 1.25;

  /** Writes the devices must have done before their rate counts: one slow first write is noise. */
  public static final long DEVICE_MEASURED_AFTER = 4;

  /**
   * Blocks this sort must have stored before the free-space check of a new run counts on their
   * ratio ({@link #expectedStored}): two runs' probes at least, so that one run's odd first blocks
   * do not set it.
   */
  static final long RATIO_KNOWN_AFTER = 2 * PROBE_BLOCKS + 4;

  /**
   * How much worse than the ratio so far a new run may compress before the free-space check would
   * have let it start where it does not fit (it then fails with ENOSPC while writing, cleanly).
   */
  static final double SPACE_MARGIN = 1.5;

  private final Compression policy;
  private final BlockCodec codec;
  // auto's second codec, loaded when a run first wants it (null: not yet, or not to be had): an
  // auto sort on a fast disk never maps zstd-jni's native library (the embedding race's RSS)
  private volatile BlockCodec zstd;
  private boolean zstdTried; // guarded by this
  private final Rates lz4Rates = new Rates(); // auto: the rates of LZ4 (or the named codec)
  private final Rates zstdRates = new Rates();
  private final AtomicLong zstdRuns = new AtomicLong();
  private final DoubleSupplier deviceRate; // bytes per second, 0 when not yet known
  private final SortThreads threads;
  private final LongSupplier probeClock;
  private final long probeMinBytes;
  // auto's read of a run just written (DeviceProbe): bytes per second summed over the stripes, 0
  // while none gave a rate; probing while one runs (the devices count as unmeasured meanwhile)
  private volatile double probedRate;
  private volatile boolean probing;
  private boolean probed; // guarded by this: a probe ran (or runs): one per sort
  private volatile boolean closing; // set under this by close()
  private Thread probeThread; // guarded by this
  private final int limit;
  private final ArrayDeque<BlockPool> idle = new ArrayDeque<>(); // guarded by this
  private final List<BlockPool> made = new ArrayList<>(); // guarded by this
  private final AtomicLong rawBytes = new AtomicLong();
  private final AtomicLong storedBytes = new AtomicLong();
  private final AtomicLong decompressNanos = new AtomicLong();
  private final AtomicLong blocksCompressed = new AtomicLong();
  private final AtomicLong blocks = new AtomicLong();
  private boolean closed; // guarded by this

  /**
   * Compression by {@code policy}; {@code deviceRate} gives the temp devices' sustained write rate
   * in bytes per second, or 0 while unknown (only {@code auto} asks). A compress program's helper
   * threads are joule's own.
   */
  public RunCompression(Compression policy, DoubleSupplier deviceRate) {
    this(policy, deviceRate, SortThreads.JOULE, Integer.MAX_VALUE);
  }

  /**
   * As {@link #RunCompression(Compression, DoubleSupplier)}, a compress program's helper threads
   * (one per block in flight, feeding its standard input) from {@code threads}, and at most {@code
   * limit} scratch buffers at once.
   */
  public RunCompression(
      Compression policy, DoubleSupplier deviceRate, SortThreads threads, int limit) {
    this(policy, deviceRate, threads, limit, 0, System::nanoTime);
  }

  /**
   * As above, {@code auto}'s device probe reading no run file shorter than {@code probeMinBytes}
   * (0: {@code DeviceProbe.MIN_BYTES}; tests set less through {@code SortHooks.probeMinBytes}).
   */
  public RunCompression(
      Compression policy,
      DoubleSupplier deviceRate,
      SortThreads threads,
      int limit,
      long probeMinBytes) {
    this(policy, deviceRate, threads, limit, probeMinBytes, System::nanoTime);
  }

  /** As above, the device probe timed on {@code probeClock} (nanoseconds): a test's device. */
  RunCompression(
      Compression policy,
      DoubleSupplier deviceRate,
      SortThreads threads,
      int limit,
      long probeMinBytes,
      LongSupplier probeClock) {
    if (limit < 1) {
      throw new IllegalArgumentException("scratch buffer limit " + limit + " must be at least 1");
    }
    this.policy = policy;
    this.deviceRate = deviceRate;
    this.threads = threads;
    this.probeClock = probeClock;
    this.probeMinBytes = probeMinBytes > 0 ? probeMinBytes : DeviceProbe.MIN_BYTES;
    this.limit = limit;
    switch (policy.mode()) {
      case OFF:
        codec = BlockCodec.NONE;
        break;
      case ZSTD:
        codec = BlockCodec.zstd(policy.level());
        break;
      case PROGRAM:
        codec = BlockCodec.program(policy.program(), threads);
        break;
      case LZ4:
        codec = BlockCodec.LZ4;
        break;
      default:
        codec = autoCodec();
    }
    codec.load();
  }

  /** {@code auto}'s zstd, loaded on first call; null where it cannot be had. */
  private synchronized BlockCodec zstd() {
    if (!zstdTried) {
      zstdTried = true;
      zstd = autoZstd();
    }
    return zstd;
  }

  /** {@code auto}'s zstd (level 1), or null where zstd-jni or its native library is missing. */
  private static BlockCodec autoZstd() {
    BlockCodec z = BlockCodec.zstd(Compression.DEFAULT_ZSTD_LEVEL);
    try {
      z.load();
      return z;
    } catch (IllegalStateException | LinkageError e) {
      return null;
    }
  }

  /**
   * {@code auto}'s codec: LZ4 when lz4-java is on the class path, else none (every run then stays
   * raw): an embedder may leave the codec jars out, and {@code auto} is the default.
   */
  private static BlockCodec autoCodec() {
    try {
      BlockCodec.LZ4.load();
      return BlockCodec.LZ4;
    } catch (LinkageError e) {
      return BlockCodec.NONE;
    }
  }

  /** No compression (tests, and callers that write runs outside a sort). */
  public static RunCompression off() {
    return new RunCompression(Compression.off(), () -> 0);
  }

  /** The policy this sort was given. */
  public Compression policy() {
    return policy;
  }

  /** The codec run writers try (none for {@code off}). */
  public BlockCodec codec() {
    return codec;
  }

  /** A new per-run decision, for one run writer's thread: its codec and which blocks it tries. */
  Choice forRun() {
    return new Choice(policy.mode() == Compression.Mode.AUTO ? autoCodecForRun() : codec);
  }

  /**
   * {@code auto}'s codec for a new run: LZ4, unless zstd would take its bytes through the devices
   * faster. A raw byte of a run costs max(1/C, r/D) seconds to write (the codec of C bytes per
   * CPU-second overlaps the device of D bytes a second, ratio r) and r/D to read back (both codecs
   * decompress far faster than a device that bounds them). zstd (about half LZ4's C, two thirds of
   * its r on text) wins only where the devices, not the codec, bound LZ4. So once LZ4 is measured
   * and bound by the devices by the margin, one run tries zstd, and from then on each run takes
   * zstd if its cost per byte is lower than LZ4's by the margin. Measured on the keyed CSV of
   * sort-bench on a 125 MiB/s disk: LZ4 stores its runs at 60 % and zstd at 32 %, 6.41 s against
   * 5.13 s; an earlier rule that compared only the write side, min(C, D/r), kept LZ4 there.
   */
  private BlockCodec autoCodecForRun() {
    if (!codec.compresses()) {
      return codec;
    }
    double device = device();
    if (device <= 0 || !lz4Rates.known() || !lz4Rates.worthwhile(device)) {
      return codec;
    }
    if (!lz4Rates.deviceBound(device)) {
      return codec; // LZ4 is bound by its own speed: a slower codec cannot help
    }
    BlockCodec z = zstd();
    if (z == null) {
      return codec;
    }
    if (!zstdRates.known()) {
      return z; // one run to measure it
    }
    return zstdRates.secondsPerByte(device) * MARGIN < lz4Rates.secondsPerByte(device) ? z : codec;
  }

  /**
   * The temp devices' rate for the rule, in bytes per second (0: not yet known): the lower of what
   * their writes showed ({@code deviceRate}) and what a read of a run gave ({@link DeviceProbe}),
   * and unknown while that read runs.
   */
  double device() {
    boolean running = probing; // before the rate: a probe sets its rate, then ends
    double read = probedRate;
    double written = deviceRate.getAsDouble();
    if (read > 0) {
      return written > 0 ? Math.min(written, read) : read;
    }
    return running ? 0 : written;
  }

  /** Waits for a probe under way to end. */
  void awaitProbe() {
    Thread p;
    synchronized (this) {
      p = probeThread;
    }
    if (p != null) {
      SortThreads.joinUninterruptibly(List.of(p));
    }
  }

  /** What the probe read, in bytes per second over the stripes; 0 when no probe gave a rate. */
  public double probedReadRate() {
    return probedRate;
  }

  /**
   * Under {@code auto}, reads the start of {@code run}, just written, on a thread of its own to
   * learn the temp devices' speed ({@link DeviceProbe}), once per sort: with the first run file of
   * at least {@link DeviceProbe#MIN_BYTES} for which a scratch buffer is idle (it borrows one, see
   * the class documentation), and only once the blocks this sort has tried so far, all runs
   * together, shrink by the margin. Only direct reads count: a read served by the page cache says
   * nothing of the device.
   */
  public void probeAfter(RunDescriptor run, DirectIoPolicy direct) {
    if (policy.mode() != Compression.Mode.AUTO
        || !codec.compresses()
        || direct == DirectIoPolicy.OFF
        || run.footerOffset() < probeMinBytes) {
      return;
    }
    if (lz4Rates.tried() && !lz4Rates.shrinks()) {
      // No device rate makes blocks that do not shrink worth compressing, and the read would take
      // a slow device from the run writers (binary gensort: 32 MB more on a 125 MiB/s disk). The
      // ratio is the sort's, over every block tried so far (the one the rule decides by): a later
      // run is probed once the data tried, all runs together, shrinks.
      return;
    }
    ScratchBuffer s;
    synchronized (this) {
      if (closing || probed) {
        return;
      }
      s = tryAcquire(run.blockSize());
      if (s == null) {
        return; // every buffer in use: the next run tries again
      }
      probed = true;
      probing = true;
    }
    Thread t = null;
    try {
      t = threads.newThread("probe", () -> probe(run, direct, s)); // a caller's factory: unlocked
    } catch (RuntimeException e) {
      // no thread: the rule keeps to the writes
    }
    synchronized (this) {
      if (t != null && !closing) {
        try {
          t.start();
          probeThread = t;
          return;
        } catch (RuntimeException | OutOfMemoryError e) {
          // no native thread left: the sort goes on without the probe
        }
      }
      probing = false;
      release(s);
    }
  }

  private void probe(RunDescriptor run, DirectIoPolicy direct, ScratchBuffer s) {
    double rate = 0;
    try (BlockFile f = BlockFile.openRead(run.parts(), direct, NoticeSink.IGNORE)) {
      if (f.isDirect()) {
        // one read at a time touches one stripe at a time; the merge reads them all at once
        rate =
            DeviceProbe.readRate(f, run.footerOffset(), s.buffer, probeClock, () -> closing)
                * run.parts().segments();
      }
    } catch (SortIOException | RuntimeException e) {
      rate = 0; // the run went away (the sort ended) or a read failed: the writes still tell
    } finally {
      release(s);
      probedRate = rate;
      probing = false;
    }
  }

  /**
   * One run's codec and whether each of its blocks is tried: always for a named codec, never for
   * {@code off}, and under {@code auto} by the rule in the class documentation. Not thread-safe:
   * one writer.
   */
  final class Choice {
    private final BlockCodec runCodec;
    private final Rates rates; // of runCodec
    private long index; // blocks of this run so far
    private boolean steady; // the last block was tried by the rule, not as a probe

    Choice(BlockCodec runCodec) {
      this.runCodec = runCodec;
      this.rates = isZstd(runCodec) ? zstdRates : lz4Rates;
      if (rates == zstdRates) {
        zstdRuns.incrementAndGet();
      }
    }

    /** The codec of this run (its header names it). */
    BlockCodec codec() {
      return runCodec;
    }

    /** Whether the next block is compressed (or at least tried). */
    boolean tryNext() {
      long k = index++;
      steady = false;
      if (!runCodec.compresses()) {
        return false;
      }
      switch (policy.mode()) {
        case OFF:
          return false;
        case LZ4:
        case ZSTD:
        case PROGRAM:
          steady = k >= PROBE_BLOCKS;
          return true;
        default:
          if (k < PROBE_BLOCKS) {
            return true;
          }
          steady = rates.worthwhile(device());
          return steady || k % PROBE_EVERY == 0;
      }
    }

    /**
     * Whether the block {@link #tryNext} last said yes to is one of a run the codec compresses
     * block after block (past the run's probes, by the rule or a named codec): what makes a second
     * thread for the codec pay ({@link CompressAhead}), and not a run that only probes.
     */
    boolean steady() {
      return steady;
    }

    /**
     * Counts a block of this run tried: {@code raw} bytes became {@code stored} in {@code nanos}.
     */
    void tried(int raw, int stored, long nanos) {
      rates.add(raw, stored, nanos);
    }
  }

  private boolean isZstd(BlockCodec c) {
    BlockCodec z = zstd;
    return z != null && c.code() == z.code();
  }

  /** What one codec did on the blocks it tried. Thread-safe. */
  private static final class Rates {
    private final AtomicLong raw = new AtomicLong();
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();

    void add(int r, int s, long n) {
      raw.addAndGet(r);
      stored.addAndGet(Math.min(r, s));
      nanos.addAndGet(n);
    }

    /** Whether it has been tried on a block. */
    boolean tried() {
      return raw.get() > 0;
    }

    /** Whether it has been tried on at least the probes of one run. */
    boolean known() {
      return tried() && nanos.get() > 0;
    }

    /** Raw bytes per CPU-second. */
    double perCore() {
      return raw.get() * 1e9 / nanos.get();
    }

    double ratio() {
      return (double) stored.get() / raw.get();
    }

    /**
     * Whether the devices, not the codec, bound a writer that uses it: the codec could compress
     * more than the margin times the raw bytes the devices take at its ratio.
     */
    boolean deviceBound(double device) {
      return perCore() >= device / ratio() * MARGIN;
    }

    /** Seconds a raw byte costs written and read back with it (see {@code autoCodecForRun}). */
    double secondsPerByte(double device) {
      double io = ratio() / device;
      return Math.max(1 / perCore(), io) + io;
    }

    /** The {@code auto} rule (class documentation) for this codec on devices of {@code device}. */
    boolean worthwhile(double device) {
      if (!known()) {
        return true;
      }
      if (device <= 0) {
        return ratio() < 1; // devices not yet measured: keep what shrinks
      }
      return perCore() > device * MARGIN && shrinks();
    }

    /** Whether its blocks shrink by the margin: what compressing needs on any device. */
    boolean shrinks() {
      return ratio() * MARGIN < 1;
    }
  }

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /**
   * The calling thread's CPU time in nanoseconds (the codec's cost, not the time others took the
   * core: the machine may be busy), or the wall clock where the JVM cannot tell.
   */
  static long threadCpuNanos() {
    return THREADS.isCurrentThreadCpuTimeSupported()
        ? THREADS.getCurrentThreadCpuTime()
        : System.nanoTime();
  }

  /**
   * Counts a block written: {@code raw} bytes (its length uncompressed) stored in {@code stored}.
   */
  void wrote(int raw, int stored) {
    rawBytes.addAndGet(raw);
    storedBytes.addAndGet(stored);
    blocks.incrementAndGet();
    if (stored < raw) {
      blocksCompressed.incrementAndGet();
    }
  }

  /** Counts {@code nanos} spent decompressing a block. */
  void decompressed(long nanos) {
    decompressNanos.addAndGet(nanos);
  }

  /**
   * A scratch buffer of at least {@code bytes} (4096-aligned direct), waiting while {@code limit}
   * are in use; the caller owns it until {@link #release}. An idle buffer too small for {@code
   * bytes} is freed to make room for a larger one (blocks of one sort have one size, so this is
   * rare).
   *
   * @throws InterruptedIOException if the thread is interrupted while it waits
   */
  synchronized ScratchBuffer acquire(int bytes) throws InterruptedIOException {
    while (true) {
      ScratchBuffer s = tryAcquire(bytes);
      if (s != null) {
        return s;
      }
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for a compression buffer");
      }
    }
  }

  /**
   * A scratch buffer of at least {@code bytes} if one is idle or may be made now, else null: never
   * waits, so a thread may ask while it holds others (a run writer that compresses ahead, {@link
   * CompressAhead}) and fall back to the waiting path without them.
   */
  synchronized ScratchBuffer tryAcquire(int bytes) {
    if (closed) {
      throw new IllegalStateException("run compression is closed");
    }
    for (BlockPool p : idle) {
      if (p.bufferSize() >= bytes) {
        idle.remove(p);
        return new ScratchBuffer(p, p.tryAcquire());
      }
    }
    if (made.size() >= limit && !idle.isEmpty()) {
      free(idle.pop()); // too small: a larger one takes its place
    }
    if (made.size() < limit) {
      BlockPool p = new BlockPool(1, (int) Alignment.roundUp(bytes));
      made.add(p);
      return new ScratchBuffer(p, p.tryAcquire());
    }
    return null;
  }

  /**
   * Whether a run writer may compress its blocks ahead on a second thread ({@link CompressAhead}):
   * the sort has two threads or more (its scratch limit is threads + 1: the writer's block, the
   * block being compressed and the codec's output), and the codec is a library's (a compress
   * program already runs in processes of its own).
   */
  boolean compressAhead(BlockCodec c) {
    return limit >= CompressAhead.BUFFERS && c.compresses() && !c.external();
  }

  private void free(BlockPool p) {
    made.remove(p);
    p.close();
  }

  /** Gives back a scratch buffer. */
  synchronized void release(ScratchBuffer s) {
    s.pool.release(s.buffer);
    idle.push(s.pool);
    notifyAll();
  }

  /** Scratch buffers made and not freed. */
  synchronized int scratchBuffersMade() {
    return made.size();
  }

  /** Direct bytes the scratch buffers made and not freed reserve (their pages of alignment too). */
  synchronized long scratchBytes() {
    long sum = 0;
    for (BlockPool p : made) {
      sum += DirectRegion.bytesFor(1, p.bufferSize());
    }
    return sum;
  }

  /** A scratch buffer and the one-buffer pool it came from. */
  static final class ScratchBuffer {
    final BlockPool pool;
    final java.nio.ByteBuffer buffer;

    ScratchBuffer(BlockPool pool, java.nio.ByteBuffer buffer) {
      this.pool = pool;
      this.buffer = buffer;
    }
  }

  /** Block bytes written, uncompressed. */
  public long rawBytes() {
    return rawBytes.get();
  }

  /** Block bytes written as stored (compressed where it paid), in whole pages. */
  public long storedBytes() {
    return storedBytes.get();
  }

  /** Blocks written, and of them how many compressed: {@code {blocks, compressed}}. */
  public long[] blocks() {
    return new long[] {blocks.get(), blocksCompressed.get()};
  }

  /** Nanoseconds of CPU (of the writing threads) spent compressing, kept or not. */
  public long compressNanos() {
    return lz4Rates.nanos.get() + zstdRates.nanos.get();
  }

  /** Nanoseconds spent decompressing blocks for merges. */
  public long decompressNanos() {
    return decompressNanos.get();
  }

  /**
   * The temp bytes a new run of {@code raw} bytes (uncompressed) is expected to take, for the
   * free-space check before its file is created: {@code raw} until this sort has stored {@value
   * #RATIO_KNOWN_AFTER} blocks, as nothing says before how this data compresses; then {@code raw}
   * times the ratio of the blocks stored so far times {@value #SPACE_MARGIN}, never more than
   * {@code raw}. The check only refuses early what would not fit: a run that compresses worse than
   * expected and meets a full disk fails with ENOSPC as it writes, a failure like any other (the
   * sort's files are removed, the output is not touched).
   */
  public long expectedStored(long raw) {
    long raws = rawBytes.get();
    if (blocks.get() < RATIO_KNOWN_AFTER || raws == 0) {
      return raw;
    }
    double ratio = (double) storedBytes.get() / raws;
    return Math.min(raw, (long) Math.ceil(raw * ratio * SPACE_MARGIN));
  }

  /** What this sort's compression did so far, for its report. */
  public CompressionReport report() {
    return new CompressionReport(
        policy.toString(),
        zstdRuns.get() > 0 ? codec + " and " + zstd : codec.toString(),
        rawBytes(),
        storedBytes(),
        blocks.get(),
        blocksCompressed.get(),
        lz4Rates.raw.get() + zstdRates.raw.get(),
        compressNanos(),
        decompressNanos(),
        probedRate);
  }

  /** Frees the scratch buffers; every one must be back. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      closing = true; // no probe starts from now on, and one under way stops at its next read
    }
    awaitProbe(); // it gives its buffer back as it ends
    closeBuffers();
  }

  private synchronized void closeBuffers() {
    if (closed) {
      return;
    }
    closed = true;
    for (BlockPool p : made) {
      p.close();
    }
    made.clear();
    idle.clear();
    notifyAll();
  }
}
