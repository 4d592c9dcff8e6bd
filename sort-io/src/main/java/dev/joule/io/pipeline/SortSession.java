package dev.joule.io.pipeline;

import dev.joule.io.error.SortValidationException;
import java.io.IOException;

/**
 * A push/pull sort for embedding, the shape of a data platform's sort operator: add entries (a
 * {@link RecordSession} takes records of the configured format, a {@link PairSession} key/value
 * pairs), then {@link #finish()} returns a {@link RecordCursor} over them in order. The two are
 * separate types so that adding the wrong kind does not compile.
 *
 * <p><b>One engine.</b> A session sorts as the file sort does (the same radix sorter, run files,
 * merge plan and prefetching merge, on a {@code RunStore}): records are copied into a chunk of
 * off-heap memory; when it is full it is sorted and written as a run on a background thread while
 * {@code add} fills a second chunk, so {@code add} waits only when it outruns the disk. {@link
 * #finish()} sorts in memory if nothing was written; otherwise it writes the rest, merges the runs
 * down to the plan's fan-in and streams the final merge.
 *
 * <p><b>Memory</b> ({@link dev.joule.io.plan.SessionPlan}). A session starts with a 64 KiB slab and
 * a 256-entry index and grows toward its budget as records arrive: two chunks of up to half the
 * budget (less the run writer's buffers) each. {@link #memoryBytes()} counts everything it holds:
 * the chunks' slabs and indexes (heap arrays, 32 bytes an entry), the run writer's and the merge's
 * buffers. With a {@link dev.joule.io.config.MemoryGrant} in the configuration the session asks
 * before every growth step and gives back at once what it frees. The one exception to the budget is
 * an entry too large for an empty chunk (larger than an eighth of its half of the budget): it is
 * held alone in memory of its own size until it is written as a run of one entry.
 *
 * <p><b>Cooperative spill.</b> {@link #spill()} may be called from another thread (a platform's
 * memory manager under pressure), or from inside the grant while the session asks it for memory:
 * while entries are being added it writes what the chunks hold and gives all their memory back;
 * while the cursor reads an unspilled session it writes only the entries not yet read and gives
 * back all of its memory but the slab of the current entry, which goes when the cursor moves past
 * it; during the final merge it gives nothing more (the merge gave back what it does not use when
 * it started). Every method takes the session's lock, so a spill runs between two adds or two
 * {@code next()} calls, never inside one.
 *
 * <p><b>Validation.</b> Unless the configuration turns it off ({@link
 * dev.joule.io.config.SortConfig.Builder#validate}), the cursor checks count, checksum and order
 * against what was added, and a mismatch throws {@link SortValidationException} from the last
 * {@code next()}. It costs one CRC-32C per entry as it is added and one as the cursor passes it
 * (the least an end-to-end check can take: one of what went in, one of what came out; runs are
 * written with the checksum already taken, the merge takes none), and a copy and a compare of each
 * key.
 *
 * <p><b>Threads.</b> Runs are sorted on the compute pool and written on a {@code joule-runwrite}
 * thread; merges prefetch on threads of their own; all come from the configuration's factory if it
 * has one, and each is joined before the session closes. A refused thread or a shut-down pool fails
 * that step with a {@link java.util.concurrent.RejectedExecutionException}; {@link #close()} then
 * deletes what was written. After a failed run write the session takes nothing more: adding and
 * finishing throw {@link IllegalStateException} naming the failure, and {@link #spill()} gives back
 * nothing; close it.
 *
 * <p>Thread-safety: one thread adds, finishes and iterates; {@link #spill()} and {@link
 * #memoryBytes()} from any thread. {@link #close()} releases everything (memory, threads, temp
 * files); the cursor must not be used after it.
 */
public abstract sealed class SortSession implements AutoCloseable
    permits RecordSession, PairSession {
  final SessionEngine engine;

  SortSession(SessionEngine engine) {
    this.engine = engine;
  }

  /**
   * Ends the input and returns the entries in sorted order. Call once.
   *
   * @throws IOException when a spill or an intermediate merge fails
   */
  public RecordCursor finish() throws IOException {
    return engine.finish();
  }

  /**
   * Gives back the session's memory by writing what it holds, from any thread (see the class
   * documentation for what that means while adding, iterating and merging).
   *
   * @return the bytes given back now (and released to the memory grant); during iteration of an
   *     unspilled session the slab of the current entry follows when the cursor next moves
   * @throws IOException when writing the run fails (the session is then unusable: close it)
   */
  public long spill() throws IOException {
    return engine.spill();
  }

  /** Memory the session holds now (chunks, indexes, buffers), in bytes; from any thread. */
  public long memoryBytes() {
    return engine.memoryBytes();
  }

  /**
   * The most memory the session has held at once, in bytes: everything {@link #memoryBytes()}
   * counts, an outsized entry's own memory included.
   */
  public long peakMemoryBytes() {
    return engine.peakMemoryBytes();
  }

  /** Runs written so far (by spills and when the chunks filled). */
  public int spilledRuns() {
    return engine.spilledRuns();
  }

  /**
   * What the session has done so far: time sorting in memory, runs and bytes spilled, merge passes,
   * peak memory; from the thread that adds and iterates.
   */
  public SessionStats stats() {
    return engine.stats();
  }

  /**
   * Nanoseconds the adding calls have spent so far beyond copying entries in: growing the memory
   * (asking the grant, which may spill other consumers first), handing full chunks to the run
   * writer and waiting for it when adding outruns it, writing an entry too large for a chunk. The
   * rest of an add is a copy of near-constant cost, so a platform timing its operator can time a
   * sample of adds and add this instead of reading a clock twice per entry (20-40 ns a read on
   * these VMs). From the adding thread.
   */
  public long addStallNanos() {
    return engine.stallNanos();
  }

  /** Releases memory, threads and temp files; idempotent. */
  @Override
  public void close() {
    engine.close();
  }
}
