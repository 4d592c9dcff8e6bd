package dev.joule.io.memory;

import dev.joule.io.config.MemoryGrant;

/**
 * Counts the memory a sort holds against its budget (off-heap arenas and block pools, and the heap
 * arrays of its indexes) and remembers the peak. Thread-safe.
 *
 * <p>A sort session's meter also keeps its {@link MemoryGrant}'s ledger: what it counts is what it
 * was granted. Growth that may be refused asks first ({@link #tryAllocate}); memory that must be
 * had (the least buffers of a merge, a record larger than the budget) is asked for all the same and
 * counted even where the grant refuses it ({@link #allocated}); what is given back is released to
 * the grant at once ({@link #freed}). A grant may call back into the session (a re-entrant spill)
 * from inside {@link #tryAllocate}: what that spill frees is released before the grant's answer is
 * counted. A file sort's meter has no grant ({@link MemoryGrant#UNLIMITED}).
 */
public final class MemoryMeter {
  private final MemoryGrant grant;
  private final long limit;
  private volatile long current;
  private volatile long peak;
  private long granted; // acquired from the grant and not released yet

  /** A meter without a grant or limit (a file sort plans its memory before it takes it). */
  public MemoryMeter() {
    this(MemoryGrant.UNLIMITED, Long.MAX_VALUE);
  }

  /** A meter that asks {@code grant} for what it counts and lets growth reach {@code limit}. */
  public MemoryMeter(MemoryGrant grant, long limit) {
    this.grant = grant;
    this.limit = limit;
  }

  /**
   * Counts {@code bytes} more held if the limit has room and the grant gives them: true; else
   * nothing is counted (what the grant gave short of them is released) and false.
   */
  public synchronized boolean tryAllocate(long bytes) {
    if (bytes <= 0) {
      return true;
    }
    if (current + bytes > limit || !cover(bytes)) {
      releaseUnused();
      return false;
    }
    add(bytes);
    return true;
  }

  /** Counts {@code bytes} more held: asked of the grant, and held whatever it answers. */
  public synchronized void allocated(long bytes) {
    if (bytes > 0 && grant != MemoryGrant.UNLIMITED) {
      cover(bytes); // what the grant refused is held all the same, and never released to it
    }
    add(bytes);
  }

  /** Counts {@code bytes} released; releases to the grant what it gave beyond what is held. */
  public synchronized void freed(long bytes) {
    current -= bytes;
    releaseUnused();
  }

  /** The bytes held now. */
  public long current() {
    return current;
  }

  /** The most bytes held at once so far. */
  public long peak() {
    return peak;
  }

  /** The bytes the limit leaves beside what is held. */
  public long room() {
    return limit - current;
  }

  private void add(long bytes) {
    long now = current + bytes;
    current = now;
    if (now > peak) {
      peak = now;
    }
  }

  private void releaseUnused() {
    long spare = granted - current;
    if (spare > 0) {
      granted -= spare;
      grant.release(spare);
    }
  }

  /** Whether the grant covers {@code bytes} more than is held, asking it for what is missing. */
  private boolean cover(long bytes) {
    if (grant == MemoryGrant.UNLIMITED) {
      return true;
    }
    long missing = current + bytes - granted;
    if (missing <= 0) {
      return true;
    }
    long got = grant.acquire(missing);
    if (got < 0 || got > missing) {
      throw new IllegalStateException(
          "the memory grant " + grant + " answered " + got + " to a request of " + missing);
    }
    granted += got;
    return current + bytes <= granted;
  }
}
