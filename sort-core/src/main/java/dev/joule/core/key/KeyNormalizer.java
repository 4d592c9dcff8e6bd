package dev.joule.core.key;

import dev.joule.core.index.TieBreaker;
import dev.joule.core.index.TieGroup;
import dev.joule.core.index.TieSlots;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * The engine's interface to a {@link SortKey}: turns each record into a <em>normalized key</em>,
 * bytes whose unsigned lexicographic order (memcmp, then shorter first) is the key's order, so that
 * the radix sorter, loser tree and splitters compare only bytes.
 *
 * <h2>Contract</h2>
 *
 * A record is {@code length} bytes at absolute index {@code offset} of a buffer (a line without its
 * delimiter). For two records a and b with normalized keys ka and kb:
 *
 * <ul>
 *   <li>if {@link #exact()}: {@code compare(a, b) == signum(compareUnsigned(ka, kb))};
 *   <li>otherwise: {@code ka < kb} implies {@code a < b}, and when {@code ka == kb} {@link
 *       #compareTail} decides (it compares the fields from the first inexact one on).
 * </ul>
 *
 * Records equal on the whole key are the caller's: GNU sort compares whole lines as a last resort
 * (reversed under a global {@code -r}) unless {@code -s}; {@code -u} keeps the first of a run.
 *
 * <h2>Layout</h2>
 *
 * The key is the fields' codes concatenated, each code inverted bytewise when the field is
 * descending. Fixed-width codes and prefix-free ones (every code that carries its own end) need
 * nothing more. A variable-length byte string (text, {@code bytesFrom}, a text position) escapes
 * each {@code 0x00} as {@code 0x00 0xFF} and ends with {@code 0x00 0x01}, so that a shorter string
 * still sorts first when another field follows and when the bytes are inverted; the last field
 * skips both when it is ascending, because the key's own end then plays the terminator. Codes:
 *
 * <ul>
 *   <li>bytes, text ({@code -f}: a..z as A..Z; {@code -d}/{@code -i}: dropped bytes left out): the
 *       resulting bytes, delimited as above unless the location has a fixed length and no option
 *       changes it;
 *   <li>binary integer of w bytes: w bytes big-endian, sign bit flipped if signed;
 *   <li>float32/float64: the bits big-endian, all inverted if the sign bit is set, else the sign
 *       bit set (IEEE totalOrder: -NaN &lt; -inf &lt; ... &lt; -0 &lt; +0 &lt; ... &lt; +inf &lt;
 *       +NaN);
 *   <li>{@code -n}: GNU's number as the decimal code (header byte with the decimal exponent, digits
 *       as nibbles d+1, 0 nibble to end, negatives inverted; zero is {@code 0x80}): eight bytes
 *       hold 14 digits;
 *   <li>{@code -h}: {@code 0x80 + unit} (unit -10..10, negative for negative numbers) then the
 *       {@code -n} code;
 *   <li>{@code -M}: one byte, 0 (unknown) or 1..12;
 *   <li>{@code -g}: {@code 0x00} error | {@code 0x01} NaN rank | {@code 0x02} and the 80-bit value
 *       in 10 order-preserving bytes;
 *   <li>{@code -R}: the 16-byte MD5 digest of the salt and the filtered, folded key, then that key
 *       as a text code (GNU's tie-break of two equal digests);
 *   <li>{@code -V}: inexact; one byte for GNU's special cases (empty, ".", "..", leading "." and
 *       the rest), then nothing after it: the key holds the fields before the {@code -V} field and
 *       that byte.
 * </ul>
 *
 * {@link #maxKeyLength} bounds the key from the record length (twice the bytes plus 2 for a
 * delimited string, about half for {@code -n}).
 *
 * <h2>Cost</h2>
 *
 * One virtual call per field, each running a loop over the field's bytes through absolute {@code
 * ByteBuffer} reads; no allocation per record except {@code -g} numbers beyond the fast path (more
 * than 19 significant digits or a decimal exponent beyond ±27). Measured with the test harness
 * {@code KeyNormalizerCost} (10^6 lines of about 40 bytes, heap buffers, JDK 17, a 2-core machine
 * under a load average of about 6, so upper bounds): about 100 ns per record for {@code -k2,2n},
 * 120-130 for {@code -k2,2g} and {@code -k2,2h}, 65-70 for a whole line folded ({@code -f}) or
 * delimited and inverted ({@code -r}); the field scan dominates.
 *
 * <h2>Threads</h2>
 *
 * Immutable and thread-safe; {@link #compareTail} keeps a per-thread scratch buffer as long as the
 * longest {@code -V} field it has seen.
 */
public final class KeyNormalizer {
  private final SortKey key;
  private final FieldCodec[] encoded;
  private final FieldCodec[] tail;
  private final boolean exact;
  // the separator every text-position field of the key shares, or null (none, or several)
  private final Integer lineSeparator;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
  private static final ThreadLocal<LineFields> LINES = ThreadLocal.withInitial(LineFields::new);

  private KeyNormalizer(SortKey key) {
    this.key = key;
    List<KeyField> fields = key.fields();
    int firstInexact = fields.size();
    for (int i = 0; i < fields.size(); i++) {
      if (!fields.get(i).type().exact()) {
        firstInexact = i;
        break;
      }
    }
    exact = firstInexact == fields.size();
    int count = exact ? fields.size() : firstInexact + 1;
    encoded = new FieldCodec[count];
    for (int i = 0; i < count; i++) {
      encoded[i] = FieldCodec.of(fields.get(i));
    }
    tail = new FieldCodec[fields.size() - firstInexact];
    for (int i = 0; i < tail.length; i++) {
      tail[i] = FieldCodec.of(fields.get(firstInexact + i));
    }
    lineSeparator = sharedSeparator(encoded);
  }

  private static Integer sharedSeparator(FieldCodec[] codecs) {
    Integer shared = null;
    for (FieldCodec c : codecs) {
      Integer sep = c.textSeparator();
      if (sep != null) {
        if (shared != null && !shared.equals(sep)) {
          return null;
        }
        shared = sep;
      }
    }
    return shared;
  }

  /** Compiles {@code key}. */
  public static KeyNormalizer compile(SortKey key) {
    return new KeyNormalizer(Objects.requireNonNull(key, "key"));
  }

  /** The key this was compiled from. */
  public SortKey sortKey() {
    return key;
  }

  /** True when the normalized key alone decides the order (no {@code -V} field). */
  public boolean exact() {
    return exact;
  }

  /**
   * An upper bound of the normalized key's length for any record of {@code recordLength} bytes;
   * {@link Integer#MAX_VALUE} when the key has a collated field, whose transform has no bound the C
   * library states.
   */
  public int maxKeyLength(int recordLength) {
    long total = 0;
    for (int i = 0; i < encoded.length; i++) {
      FieldCodec c = encoded[i];
      total += c.maxLength(c.maxFieldLength(recordLength), open(i));
    }
    return (int) Math.min(Integer.MAX_VALUE, total);
  }

  /**
   * Writes the record's normalized key into {@code dst} from absolute index {@code dstPos} and
   * returns its length. If fewer than that many bytes remain before {@code dst.limit()}, returns
   * minus the length needed; bytes from {@code dstPos} to the limit may then have been overwritten
   * (a collated field computes its code once, and writes what it can). The buffers' positions,
   * limits and byte orders are left alone.
   *
   * @throws IllegalArgumentException if the record is too short for a fixed byte range
   */
  public int encode(ByteBuffer record, int offset, int length, ByteBuffer dst, int dstPos) {
    return write(record, offset, length, Objects.requireNonNull(dst, "dst"), dstPos);
  }

  private boolean open(int i) {
    return i == encoded.length - 1 && !encoded[i].descending;
  }

  /**
   * Writes the key at {@code dst[dstPos]}, or measures it with {@code dst == null}: each field is
   * written when it fits (measured first when its bound does not), and once one does not, the rest
   * are only measured and the result is minus the key's length.
   */
  private int write(ByteBuffer record, int offset, int length, ByteBuffer dst, int dstPos) {
    LineFields line = null;
    if (lineSeparator != null) {
      line = LINES.get();
      line.reset(record, offset, length, lineSeparator);
    }
    try {
      int pos = dstPos;
      ByteBuffer out = dst;
      for (int i = 0; i < encoded.length; i++) {
        FieldCodec c = encoded[i];
        long r = c.locate(record, offset, length, line);
        int s = (int) (r >>> 32);
        int e = (int) r;
        boolean open = open(i);
        int n;
        if (out == null || c.selfBounded()) {
          n = c.encode(record, s, e, out, pos, open);
        } else if (out.limit() - pos < c.maxLength(e - s, open)) {
          n = c.encode(record, s, e, null, pos, open);
          if (n <= out.limit() - pos) {
            c.encode(record, s, e, out, pos, open);
          }
        } else {
          n = c.encode(record, s, e, out, pos, open);
        }
        if (out != null && n > out.limit() - pos) {
          out = null; // from here on only measured
        }
        if (c.descending && out != null) {
          DecimalCode.invert(out, pos, pos + n);
        }
        pos += n;
      }
      return dst != null && out == null ? -(pos - dstPos) : pos - dstPos;
    } finally {
      if (line != null) {
        line.release(); // the thread's LineFields must not keep the caller's buffer reachable
      }
    }
  }

  /**
   * {@link #compareTail} as a {@link TieBreaker}, null when {@link #exact()}. When every field from
   * the first inexact one on is collated in a locale, its {@link TieBreaker#group() groups} and
   * {@link TieBreaker#slots slots} copy those fields aside once per record ({@link CollatedTies},
   * {@link CollatedSlots}).
   */
  @SuppressWarnings("exports") // the engine's interface, exported to dev.joule.io only
  public TieBreaker tieBreaker() {
    if (exact) {
      return null;
    }
    FieldCodec.Collated[] collated = new FieldCodec.Collated[tail.length];
    for (int i = 0; i < tail.length; i++) {
      if (!(tail[i] instanceof FieldCodec.Collated c)) {
        return this::compareTail;
      }
      collated[i] = c;
    }
    return new TieBreaker() {
      @Override
      public int compare(
          ByteBuffer a, int aStart, int aLength, ByteBuffer b, int bStart, int bLength) {
        return compareTail(a, aStart, aLength, b, bStart, bLength);
      }

      @Override
      public TieGroup group() {
        return CollatedTies.local(collated);
      }

      @Override
      public TieSlots slots(int count) {
        return new CollatedSlots(collated, count);
      }
    };
  }

  /**
   * Compares two records on the fields from the first inexact one on, each in its direction; 0 when
   * {@link #exact()}. Call it when the normalized keys are equal.
   */
  public int compareTail(
      ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
    if (exact) {
      return 0;
    }
    Scratch s = null; // a thread-local lookup only for the codes that need it
    for (FieldCodec c : tail) {
      long ra = c.locate(a, aOffset, aLength);
      long rb = c.locate(b, bOffset, bLength);
      int as = (int) (ra >>> 32);
      int ae = (int) ra;
      int bs = (int) (rb >>> 32);
      int be = (int) rb;
      int diff;
      if (c instanceof FieldCodec.Collated coll) {
        diff = coll.compareFull(a, as, ae, b, bs, be);
      } else if (c instanceof FieldCodec.Version v) {
        s = s != null ? s : SCRATCH.get();
        s.ensure(ae - as, be - bs);
        int la = v.filtered(a, as, ae, s.a);
        int lb = v.filtered(b, bs, be, s.b);
        diff = GnuVersion.compare(s.a, la, s.b, lb, v.wholeSuffix);
      } else {
        s = s != null ? s : SCRATCH.get();
        s.ensure(c.encode(a, as, ae, null, 0, true), c.encode(b, bs, be, null, 0, true));
        int la = c.encode(a, as, ae, s.aView, 0, true);
        int lb = c.encode(b, bs, be, s.bView, 0, true);
        diff = java.util.Arrays.compareUnsigned(s.a, 0, la, s.b, 0, lb);
      }
      if (diff != 0) {
        return c.descending ? (diff < 0 ? 1 : -1) : (diff < 0 ? -1 : 1);
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    return "KeyNormalizer[" + key + (exact ? "" : ", inexact") + "]";
  }

  /** Two growable byte arrays and heap views of them for {@link #compareTail}. */
  private static final class Scratch {
    byte[] a = new byte[64];
    byte[] b = new byte[64];
    ByteBuffer aView = ByteBuffer.wrap(a);
    ByteBuffer bView = ByteBuffer.wrap(b);

    void ensure(int na, int nb) {
      if (a.length < na) {
        a = new byte[Math.max(na, 2 * a.length)];
        aView = ByteBuffer.wrap(a);
      }
      if (b.length < nb) {
        b = new byte[Math.max(nb, 2 * b.length)];
        bView = ByteBuffer.wrap(b);
      }
    }
  }
}
