package dev.joule.core.merge;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieSlots;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A k-way merge over sorted {@link RunCursor}s by a loser tree (Knuth's tree of losers, the
 * structure of STXXL's {@code loser_tree}).
 *
 * <p><b>Algorithm.</b> Leaves {@code k..2k-1} stand for the cursors, internal node {@code n} (for
 * {@code 1 <= n < k}) keeps the cursor that lost the match played there, and the overall winner is
 * kept apart. Taking a record costs one {@code advance()} of the winning cursor and one replay on
 * the path from its leaf to the root: {@code ceil(log2 k)} comparisons, each against a single
 * stored loser (a binary heap needs two per level); a record equal to the one before it in its run
 * wins again after one comparison, without a replay. Any {@code k >= 1} works; the tree need not be
 * full. Comparisons look at the 8-byte key prefixes cached in a {@code long[]} first ({@link
 * Long#compareUnsigned}); only equal prefixes go to the slow path, which compares the rest of the
 * key bytes in the cursors' buffers (a key that ends first sorts first), then the records by the
 * sort's {@link TieBreaker} if it has one, then the run index. An exhausted cursor's prefix is set
 * to all ones and a flag marks it, so it sorts after every record (+infinity) while the fast path
 * stays a single unsigned compare.
 *
 * <p><b>Stability.</b> Stable: ties on the full key (and tie breaker) go to the lower run index,
 * and each run is in input order, so the output order is (key, tie breaker, run index, position) —
 * see {@link MergeOrder}. Pass the runs in input order.
 *
 * <p><b>Ranges.</b> To merge one key range of a split merge, pass cursors built over the range (see
 * {@link RunCursor}); the tree has no notion of limits.
 *
 * <p><b>Memory.</b> About {@code 17 k} bytes ({@code int[k]} losers, {@code long[k]} prefixes,
 * {@code boolean[k]} flags, a {@code RunCursor[k]} copy) plus a temporary {@code int[2k]} while the
 * constructor plays the first tournament; nothing per record.
 *
 * <p><b>Threads.</b> Not thread-safe; one merge thread owns the tree and its cursors. The tree
 * borrows the cursors and does not close them.
 */
public final class TournamentTree {
  /** Stored as the prefix of an exhausted cursor; the flag in {@link #exhausted} confirms it. */
  private static final long EXHAUSTED_PREFIX = -1L;

  private final RunCursor[] cursors;
  private final int k;

  /** losers[n] for internal node 1 <= n < k; losers[0] is unused. */
  private final int[] losers;

  private final long[] prefixes;
  private final boolean[] exhausted;
  private final TieBreaker tie;
  // copies of the runs' head records for the tie breaker (null: it compares them in place), and
  // whether run i's slot holds its current head
  private final TieSlots heads;
  private final boolean[] staged;
  private int winner;

  /** True once {@link #next()} handed out the winner's record; it advances on the next call. */
  private boolean handedOut;

  /**
   * Builds the tree and advances every cursor to its first record (for file-backed cursors this
   * loads their first blocks).
   *
   * @param cursors one per run, in run (input) order; fresh, positioned before their first entry,
   *     all of one entry layout. The array is copied.
   * @throws IllegalArgumentException if there are no cursors
   */
  public TournamentTree(RunCursor... cursors) {
    this(null, cursors);
  }

  /**
   * Builds the tree as {@link #TournamentTree(RunCursor...)} does; entries with equal keys are
   * ordered by {@code tie} (null: by run index only).
   */
  public TournamentTree(TieBreaker tie, RunCursor... cursors) {
    if (cursors.length == 0) {
      throw new IllegalArgumentException("a merge needs at least one run");
    }
    this.cursors = cursors.clone();
    this.k = cursors.length;
    this.tie = tie;
    // one slot per run's head, and one for the record a run just left (see repeats)
    this.heads = tie == null ? null : tie.slots(k + 1);
    this.staged = heads == null ? null : new boolean[k];
    this.losers = new int[k];
    this.prefixes = new long[k];
    this.exhausted = new boolean[k];
    for (int i = 0; i < k; i++) {
      load(i);
    }
    this.winner = build();
  }

  /**
   * Moves to the next record in merge order. The previous winner (if any) is advanced first, so
   * copy its record out before calling this again.
   *
   * @return {@code true} if {@link #current()} now holds a record, {@code false} when all runs are
   *     exhausted
   */
  public boolean next() {
    int w = winner;
    if (handedOut) {
      RunCursor c = cursors[w];
      ByteBuffer before = c.buffer();
      int keyAt = c.keyPosition();
      int keyLength = c.keyLength();
      int recordAt = tie == null ? 0 : c.recordPosition();
      int recordLength = tie == null ? 0 : c.recordLength();
      long prefix = prefixes[w];
      boolean leftStaged = heads != null && staged[w];
      if (heads != null) {
        staged[w] = false;
      }
      if (c.advance()) {
        long p = c.prefix();
        prefixes[w] = p;
        // An entry equal to the winner it follows (same run, same key and records by the tie
        // breaker) beats every other head as the winner did, so the stored losers stay right.
        // The same buffer object means the winner's bytes are still there (RunCursor): identity,
        // not content, is the question.
        @SuppressWarnings("ReferenceEquality")
        boolean sameBuffer = c.buffer() == before;
        if (p != prefix
            || !sameBuffer
            || !repeats(w, leftStaged, before, keyAt, keyLength, recordAt, recordLength)) {
          w = replay(w);
          winner = w;
        }
      } else {
        exhaust(w);
        w = replay(w);
        winner = w;
      }
    }
    boolean live = !exhausted[w];
    handedOut = live;
    return live;
  }

  /**
   * Like {@link #next()} but returns the winning run's index, or {@code -1} when all runs are
   * exhausted.
   */
  public int nextRun() {
    return next() ? winner : -1;
  }

  /**
   * The cursor holding the current record; valid after {@link #next()} returned {@code true} and
   * until it is called again.
   */
  public RunCursor current() {
    return cursors[winner];
  }

  /** The run index of the current record (its position in the constructor's array). */
  public int currentRun() {
    return winner;
  }

  /** Number of runs merged. */
  public int runCount() {
    return k;
  }

  /**
   * Whether the entry {@code c} just advanced to equals its previous one, whose key and record are
   * still at {@code keyAt} and {@code recordAt} of {@code before} (the same buffer: see {@link
   * RunCursor}): equal key lengths and bytes after the equal prefixes, and equal records by the tie
   * breaker (with {@link #heads}, the same bytes of the compared fields). Runs of equal keys then
   * cost one comparison per record instead of {@code log2 k} (a merge of 29 runs of 10^7 numbers
   * from 1000 values spent 24 % of its CPU in the tie path of the replay).
   */
  private boolean repeats(
      int w,
      boolean leftStaged,
      ByteBuffer before,
      int keyAt,
      int keyLength,
      int recordAt,
      int recordLength) {
    RunCursor c = cursors[w];
    int length = c.keyLength();
    if (length != keyLength) {
      return false;
    }
    if (length > Long.BYTES
        && MergeOrder.compareKeys(
                before,
                keyAt + Long.BYTES,
                c.buffer(),
                c.keyPosition() + Long.BYTES,
                length - Long.BYTES)
            != 0) {
      return false;
    }
    if (tie == null) {
      return true;
    }
    if (heads == null) {
      return tie.compare(
              before, recordAt, recordLength, c.buffer(), c.recordPosition(), c.recordLength())
          == 0;
    }
    if (!leftStaged) {
      heads.set(w, before, recordAt, recordLength);
    }
    heads.set(k, c.buffer(), c.recordPosition(), c.recordLength());
    heads.swap(k, w); // slot w: the new head; slot k: the record it follows
    staged[w] = true;
    // Only the same bytes: asking the C library whether two different lines collate alike costs
    // a call that is nearly always "no" (a run's lines of one key are different lines), while
    // the replay that follows a "no" is right either way.
    return heads.identical(k, w);
  }

  /** Plays the new record of leaf {@code w} up to the root; returns the new overall winner. */
  private int replay(int w) {
    final int[] losers = this.losers;
    final long[] prefixes = this.prefixes;
    long pw = prefixes[w];
    for (int n = (w + k) >>> 1; n != 0; n >>>= 1) {
      int l = losers[n];
      long pl = prefixes[l];
      if (pl == pw ? beatsOnTie(l, w) : Long.compareUnsigned(pl, pw) < 0) {
        losers[n] = w;
        w = l;
        pw = pl;
      }
    }
    return w;
  }

  /**
   * Slow path of a comparison: does run {@code a} beat run {@code b} when their prefixes are equal?
   * Live beats exhausted; then the key bytes after the prefix decide; then the lower run index.
   */
  private boolean beatsOnTie(int a, int b) {
    boolean ea = exhausted[a];
    boolean eb = exhausted[b];
    if (ea || eb) {
      return eb && (!ea || a < b);
    }
    // Equal prefixes: the key bytes after the prefix (lengths last), then the tie breaker.
    int c = compareAfterPrefix(a, b);
    if (c != 0) {
      return c < 0;
    }
    return a < b;
  }

  private int compareAfterPrefix(int a, int b) {
    RunCursor ca = cursors[a];
    RunCursor cb = cursors[b];
    int la = ca.keyLength();
    int lb = cb.keyLength();
    int m = Math.min(la, lb);
    int c = 0;
    if (m > Long.BYTES) {
      c =
          MergeOrder.compareKeys(
              ca.buffer(),
              ca.keyPosition() + Long.BYTES,
              cb.buffer(),
              cb.keyPosition() + Long.BYTES,
              m - Long.BYTES);
    }
    if (c == 0) {
      c = Integer.compare(la, lb);
    }
    if (c == 0 && heads != null) {
      stage(a);
      stage(b);
      c = heads.compare(a, b);
    } else if (c == 0 && tie != null) {
      c =
          tie.compare(
              ca.buffer(),
              ca.recordPosition(),
              ca.recordLength(),
              cb.buffer(),
              cb.recordPosition(),
              cb.recordLength());
    }
    return c;
  }

  /** Copies run {@code i}'s head record into its slot unless it is there already. */
  private void stage(int i) {
    if (!staged[i]) {
      RunCursor c = cursors[i];
      heads.set(i, c.buffer(), c.recordPosition(), c.recordLength());
      staged[i] = true;
    }
  }

  private void load(int i) {
    RunCursor c = cursors[i];
    if (c.advance()) {
      prefixes[i] = c.prefix();
    } else {
      exhaust(i);
    }
  }

  private void exhaust(int i) {
    exhausted[i] = true;
    prefixes[i] = EXHAUSTED_PREFIX;
  }

  /** Plays the initial tournament bottom-up, filling {@link #losers}; returns the winner. */
  private int build() {
    if (k == 1) {
      return 0;
    }
    int[] winners = new int[2 * k];
    for (int i = 0; i < k; i++) {
      winners[k + i] = i;
    }
    for (int n = k - 1; n >= 1; n--) {
      int a = winners[2 * n];
      int b = winners[2 * n + 1];
      boolean aWins =
          prefixes[a] == prefixes[b]
              ? beatsOnTie(a, b)
              : Long.compareUnsigned(prefixes[a], prefixes[b]) < 0;
      winners[n] = aWins ? a : b;
      losers[n] = aWins ? b : a;
    }
    return winners[1];
  }

  @Override
  public String toString() {
    return "TournamentTree[k="
        + k
        + ", winner="
        + winner
        + ", losers="
        + Arrays.toString(losers)
        + "]";
  }
}
