package dev.joule.io.config;

/**
 * Where an embedding platform's memory manager decides how much of its memory a sort session may
 * hold: the session asks before it grows ({@link #acquire}) and tells when it gives memory back
 * ({@link #release}). The shape of Spark's {@code MemoryConsumer} under a {@code TaskMemoryManager}
 * and of Flink's {@code MemoryManager}; a platform implements it on top of its own.
 *
 * <p>The session never holds more than its {@link SortConfig#memoryBudget() budget}, and within it
 * only what it was granted, with one exception: the least buffers a merge needs to make progress
 * (three temp transfers) are taken even when a grant refuses them, and counted in {@code
 * memoryBytes()}. Everything the session counts ({@code memoryBytes()}: record memory, the index,
 * I/O buffers) is asked for here first; what it releases is released here at once, so a platform
 * that reads its own ledger sees what the session holds.
 *
 * <p>Calls come from the thread that adds records or finishes the session, or from a thread that
 * calls {@code spill()}; an implementation may call the session's {@code spill()} from inside
 * {@link #acquire} on the same thread (as Spark's task memory manager spills its consumers,
 * including the one asking) — the session is in a consistent state there and spills what it holds.
 */
public interface MemoryGrant {
  /** No manager: the budget alone bounds the session. */
  MemoryGrant UNLIMITED =
      new MemoryGrant() {
        @Override
        public long acquire(long bytes) {
          return bytes;
        }

        @Override
        public void release(long bytes) {}

        @Override
        public String toString() {
          return "unlimited";
        }
      };

  /**
   * Asks for {@code bytes} more (positive).
   *
   * @return how many were granted, from 0 to {@code bytes}; the session holds what it got (and
   *     releases it later) even when that is less than it asked for
   */
  long acquire(long bytes);

  /** Gives back {@code bytes} (positive) that an {@link #acquire} granted. */
  void release(long bytes);
}
