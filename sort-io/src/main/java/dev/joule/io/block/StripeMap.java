package dev.joule.io.block;

import java.util.Arrays;

/**
 * Where each byte of a block-striped file lives. Bytes {@code [0, base)} (a run file's header) stay
 * in segment 0 at the same offsets; after them the file is cut into units of {@code unit} bytes,
 * dealt to the segments in a repeating {@code pattern} (unit u goes to segment {@code pattern[u %
 * P]}). Inside every segment its units follow each other from offset {@code base}, so a segment's
 * transfers stay as aligned as the file's. With one entry per segment the pattern is round robin
 * (STXXL's striping); a segment listed twice gets twice the units (weighted striping, for a faster
 * disk).
 *
 * <p>A unit of the temp transfer size, after a 4096-byte header, holds exactly one run block, so
 * every block read or write goes to one disk, and consecutive blocks of a run to different disks.
 *
 * <p>Immutable and thread-safe.
 */
public final class StripeMap {
  private final long base;
  private final long unit;
  private final int[] pattern;
  private final int[] rank; // rank[i]: earlier entries of pattern with the segment of entry i
  private final int[] perCycle; // units of each segment per cycle of the pattern

  /**
   * A map over {@code segments} segments.
   *
   * @param base bytes kept at the start of segment 0, a multiple of 4096
   * @param unit bytes per unit, a positive multiple of 4096
   * @param pattern the segment of each unit of one cycle; every segment at least once
   */
  public StripeMap(long base, long unit, int[] pattern) {
    if (base < 0 || base % 4096 != 0 || unit <= 0 || unit % 4096 != 0 || pattern.length == 0) {
      throw new IllegalArgumentException(
          "bad stripe map: base " + base + ", unit " + unit + ", pattern " + pattern.length);
    }
    int segments = Arrays.stream(pattern).max().getAsInt() + 1;
    this.base = base;
    this.unit = unit;
    this.pattern = pattern.clone();
    this.rank = new int[pattern.length];
    this.perCycle = new int[segments];
    for (int i = 0; i < pattern.length; i++) {
      int s = pattern[i];
      if (s < 0) {
        throw new IllegalArgumentException("negative segment in pattern: " + s);
      }
      rank[i] = perCycle[s]++;
    }
    for (int s = 0; s < segments; s++) {
      if (perCycle[s] == 0) {
        throw new IllegalArgumentException("segment " + s + " has no unit in the pattern");
      }
    }
  }

  /**
   * A pattern of at most {@code maxLength} units that gives each segment a share of units close to
   * its weight (at least one each), spread so that consecutive units go to different segments as
   * far as the weights allow.
   */
  public static int[] weightedPattern(double[] weights, int maxLength) {
    int n = weights.length;
    if (n == 0 || maxLength < n) {
      throw new IllegalArgumentException(n + " segments, pattern of at most " + maxLength);
    }
    double sum = 0;
    for (double w : weights) {
      if (!(w > 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weights must be positive: " + Arrays.toString(weights));
      }
      sum += w;
    }
    double min = Arrays.stream(weights).min().getAsDouble();
    // The slowest segment gets one unit per cycle; the others their weight's multiple of it, but
    // the cycle stays within maxLength.
    double scale = Math.min(1 / min, maxLength / sum);
    int[] count = new int[n];
    int length = 0;
    for (int s = 0; s < n; s++) {
      count[s] = Math.max(1, (int) Math.round(weights[s] * scale));
      length += count[s];
    }
    // Deal like a smooth weighted round robin: always the segment furthest behind its share.
    int[] pattern = new int[length];
    double[] credit = new double[n];
    for (int i = 0; i < length; i++) {
      int best = 0;
      for (int s = 0; s < n; s++) {
        credit[s] += count[s];
        if (credit[s] > credit[best]) {
          best = s;
        }
      }
      credit[best] -= length;
      pattern[i] = best;
    }
    return pattern;
  }

  /** Number of segments. */
  public int segments() {
    return perCycle.length;
  }

  /** Bytes at the start of segment 0 that are not striped. */
  public long base() {
    return base;
  }

  /** Bytes per unit. */
  public long unit() {
    return unit;
  }

  /** A copy of the pattern. */
  public int[] pattern() {
    return pattern.clone();
  }

  /** The segment that holds byte {@code position} of the file. */
  public int segment(long position) {
    if (position < base) {
      return 0;
    }
    return pattern[(int) (((position - base) / unit) % pattern.length)];
  }

  /** Where byte {@code position} of the file is in its segment. */
  public long segmentOffset(long position) {
    if (position < base) {
      return position;
    }
    long u = (position - base) / unit;
    int i = (int) (u % pattern.length);
    long units = (u / pattern.length) * perCycle[pattern[i]] + rank[i];
    return base + units * unit + (position - base) % unit;
  }

  /** Bytes from {@code position} to the end of its piece (the base, or its unit). */
  public long contiguous(long position) {
    if (position < base) {
      return base - position;
    }
    return unit - (position - base) % unit;
  }

  /** The length segment {@code s} has when the file is {@code length} bytes long. */
  public long segmentLength(int s, long length) {
    if (length <= base) {
      return s == 0 ? length : 0;
    }
    long full = (length - base) / unit;
    long tail = (length - base) % unit;
    long cycles = full / pattern.length;
    int rest = (int) (full % pattern.length);
    long units = cycles * perCycle[s];
    for (int i = 0; i < rest; i++) {
      if (pattern[i] == s) {
        units++;
      }
    }
    long len = base + units * unit;
    if (tail > 0 && pattern[rest] == s) {
      len += tail;
    } else if (units == 0 && s != 0) {
      len = 0;
    }
    return len;
  }

  /**
   * The file's length, given every segment's length (the inverse of {@link #segmentLength}); a
   * segment shorter than its map says (a hole) counts as far as it goes.
   */
  public long length(long[] segmentLengths) {
    long end = Math.min(segmentLengths[0], base);
    for (int s = 0; s < perCycle.length; s++) {
      long len = segmentLengths[s];
      if (len <= base) {
        continue;
      }
      long j = (len - base - 1) / unit; // the segment's last unit, counted within the segment
      long cycle = j / perCycle[s];
      int nth = (int) (j % perCycle[s]);
      int i = 0;
      for (int seen = -1; ; i++) {
        if (pattern[i] == s && ++seen == nth) {
          break;
        }
      }
      long u = cycle * pattern.length + i;
      end = Math.max(end, base + u * unit + (len - base - j * unit));
    }
    return end;
  }

  @Override
  public String toString() {
    return "StripeMap[base " + base + ", unit " + unit + ", " + Arrays.toString(pattern) + "]";
  }
}
