package dev.joule.io.input;

import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.LengthPrefixedFormat;
import dev.joule.core.record.LineFormat;
import dev.joule.io.plan.RecordEstimate;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Estimates, before a sort of parsed records plans its memory, how many input bytes a record takes
 * and how large its entry is ({@link RecordEstimate}), from a sample of the input: lines from
 * {@link #SPOTS} places spread over the file (each starting after the first delimiter found),
 * length-prefixed rows from the start (a row boundary cannot be found anywhere else), fixed records
 * from any {@link #SPOTS} places. Each sampled record's entry is sized exactly as run formation
 * will write it, its key encoded.
 *
 * <p>The plan allows for a wrong estimate ({@code SortPlan.ESTIMATE_MARGIN}, chunks that end when
 * their index fills): a bad sample costs speed, never correctness. Memory: one heap buffer of
 * {@link #SPOT_BYTES}, freed on return.
 */
public final class RecordSampler {
  /**
   * Bytes read per sample spot: 64 KiB, a few hundred typical lines; four spots take well under a
   * millisecond from the page cache and one seek each from a disk.
   */
  static final int SPOT_BYTES = 64 << 10;

  /** Places of the file sampled (where records can be found from any offset). */
  static final int SPOTS = 4;

  private RecordSampler() {}

  /** The estimate for {@code in}'s records as {@code spec} makes entries of them. */
  public static RecordEstimate sample(InputFile in, EntrySpec spec) throws IOException {
    long size = in.size();
    if (spec.inPlace()) {
      int rs = ((FixedLengthFormat) spec.format()).recordSize();
      return RecordEstimate.fixed(rs);
    }
    Tally t = new Tally(spec);
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(SPOT_BYTES, Math.max(1, size)));
    int spots = spec.format() instanceof LengthPrefixedFormat ? 1 : SPOTS;
    for (int s = 0; s < spots && size > 0; s++) {
      long at = size * s / spots;
      buf.clear();
      int n = read(in, at, buf);
      if (spec.format() instanceof LineFormat lf) {
        lines(buf, n, at == 0, lf.delimiter(), t);
      } else if (spec.format() instanceof FixedLengthFormat f) {
        int rs = f.recordSize();
        long first = (at + rs - 1) / rs * rs;
        for (long p = first; p + rs <= at + n; p += rs) {
          t.add(buf, (int) (p - at), rs, rs);
        }
      } else {
        rows(buf, n, t);
      }
    }
    if (t.records == 0) {
      return RecordEstimate.UNSEEN;
    }
    return new RecordEstimate(
        false,
        Math.max(1, (double) t.inputBytes / t.records),
        Math.max(1, (double) t.entryBytes / t.records),
        spec.orderFree() && spec.format() instanceof LineFormat);
  }

  private static int read(InputFile in, long at, ByteBuffer buf) throws IOException {
    int n = 0;
    while (buf.hasRemaining()) {
      int got = in.file().read(at + n, buf);
      if (got <= 0) {
        break;
      }
      n += got;
    }
    return n;
  }

  /** Whole lines of the spot; a spot not at the file's start skips its first (partial) line. */
  private static void lines(ByteBuffer b, int n, boolean atStart, byte delimiter, Tally t) {
    int from = 0;
    if (!atStart) {
      while (from < n && b.get(from) != delimiter) {
        from++;
      }
      from++;
    }
    for (int i = from; i < n; i++) {
      if (b.get(i) == delimiter) {
        t.add(b, from, i - from, i - from + 1);
        from = i + 1;
      }
    }
  }

  private static void rows(ByteBuffer b, int n, Tally t) {
    int at = 0;
    while (at + LengthPrefixedFormat.LENGTH_BYTES <= n) {
      int len = b.getInt(at);
      if (len < 0 || at + LengthPrefixedFormat.LENGTH_BYTES + len > n) {
        return; // the row goes on past the sample (or is bad: run formation will say so)
      }
      t.add(
          b, at + LengthPrefixedFormat.LENGTH_BYTES, len, LengthPrefixedFormat.LENGTH_BYTES + len);
      at += LengthPrefixedFormat.LENGTH_BYTES + len;
    }
  }

  /** Sums of the sampled records. */
  private static final class Tally {
    private final EntrySpec spec;
    private ByteBuffer key = ByteBuffer.allocate(256);
    long records;
    long inputBytes;
    long entryBytes;

    Tally(EntrySpec spec) {
      this.spec = spec;
    }

    void add(ByteBuffer b, int start, int length, int inputLength) {
      int k = 0;
      if (spec.derivesKeys()) {
        try {
          k = spec.encodeKey(b, start, length, key);
          if (k < 0) {
            key = ByteBuffer.allocate(-k);
            k = spec.encodeKey(b, start, length, key);
          }
        } catch (IllegalArgumentException e) {
          return; // a record without its key: run formation reports it with its offset
        }
      }
      records++;
      inputBytes += inputLength;
      entryBytes += spec.entryLength(length, k);
    }
  }
}
