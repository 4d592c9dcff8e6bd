package dev.joule.core.key;

import dev.joule.core.index.RecordIndex;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One compiled key field: finds the field's bytes in a record and writes its normalized (ascending)
 * code. The normalizer holds an array of these and makes one call per field, so the per-byte loops
 * run inside a monomorphic method. With {@code dst == null} {@link #encode} only measures.
 */
abstract class FieldCodec {
  private static final int WHOLE = 0;
  private static final int FIXED = 1;
  private static final int FROM = 2;
  private static final int TEXT = 3;

  final KeyField field;
  final boolean descending;
  private final int where;
  private final int offset;
  private final int length;
  private final TextPosition position;

  FieldCodec(KeyField field) {
    this.field = field;
    this.descending = field.descending();
    KeyLocation loc = field.location();
    switch (loc.kind()) {
      case WHOLE_RECORD:
        where = WHOLE;
        break;
      case BYTE_RANGE:
        where = loc.fixedLength() ? FIXED : FROM;
        break;
      default:
        where = TEXT;
        break;
    }
    this.offset = loc.offset();
    this.length = loc.length();
    this.position = loc.position();
  }

  static FieldCodec of(KeyField f) {
    KeyType t = f.type();
    switch (t.kind()) {
      case BYTES:
      case TEXT:
        return new Text(f);
      case INTEGER:
        return new Binary(f, false);
      case FLOAT:
        return new Binary(f, true);
      case GNU_NUMERIC:
        return new Numeric(f, false);
      case GNU_HUMAN_NUMERIC:
        return new Numeric(f, true);
      case GNU_MONTH:
        return new Month(f);
      case GNU_GENERAL_NUMERIC:
        return new General(f);
      case GNU_VERSION:
        return new Version(f);
      case COLLATED:
        return new Collated(f);
      case GNU_RANDOM:
        return new RandomHash(f);
    }
    throw new AssertionError(t);
  }

  /** The field's bytes as absolute indexes {@code (start << 32) | end} of {@code rec}. */
  final long locate(ByteBuffer rec, int off, int len) {
    int s;
    int e;
    switch (where) {
      case WHOLE:
        s = off;
        e = off + len;
        break;
      case FIXED:
        if (len - offset < length) {
          throw new IllegalArgumentException(
              "a record of "
                  + len
                  + " bytes has no key field at bytes "
                  + offset
                  + ".."
                  + ((long) offset + length));
        }
        s = off + offset;
        e = s + length;
        break;
      case FROM:
        s = off + Math.min(offset, len);
        e = off + len;
        break;
      default:
        long r = TextFields.locate(rec, off, len, position);
        s = off + TextFields.startOf(r);
        e = off + TextFields.endOf(r);
        break;
    }
    return ((long) s << 32) | (e & 0xFFFFFFFFL);
  }

  /**
   * {@link #locate(ByteBuffer, int, int)}, a text position found through {@code line} (reset to
   * this record) when it is not null.
   */
  final long locate(ByteBuffer rec, int off, int len, LineFields line) {
    if (where != TEXT || line == null) {
      return locate(rec, off, len);
    }
    long r = line.locate(position);
    long s = (long) off + TextFields.startOf(r);
    return (s << 32) | ((off + TextFields.endOf(r)) & 0xFFFFFFFFL);
  }

  /** The separator of a text position, or null for other locations. */
  final Integer textSeparator() {
    return where == TEXT ? position.separator() : null;
  }

  /** The longest field this location yields from a record of {@code recordLength} bytes. */
  final int maxFieldLength(int recordLength) {
    return where == FIXED ? length : recordLength;
  }

  /** True when every record's field has the same length. */
  final boolean fixedLength() {
    return where == FIXED;
  }

  /**
   * Writes the ascending code of {@code rec[s, e)} at {@code dst[pos]} and returns its length; the
   * code needs no terminator if {@code open} (the last field, ascending: shorter-first ends it).
   */
  abstract int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open);

  /** An upper bound of {@link #encode}'s length for a field of {@code fieldLength} bytes. */
  abstract int maxLength(int fieldLength, boolean open);

  /** True when the code decides the field's order. */
  boolean exact() {
    return true;
  }

  /**
   * True when {@link #encode} with a {@code dst} writes only if the whole code fits before {@code
   * dst.limit()} (returning its length either way), so that the caller need not measure first:
   * codes that are costly to compute and have no useful bound ({@link #maxLength} is then {@link
   * Integer#MAX_VALUE}).
   */
  boolean selfBounded() {
    return false;
  }

  /** The bytes {@code -d} or {@code -i} of {@code t} drops in its locale, or null. */
  static boolean[] dropped(KeyType t) {
    switch (t.ignore()) {
      case NONDICTIONARY:
        return t.locale().nondictionary;
      case NONPRINTING:
        return t.locale().nonprinting;
      default:
        return null;
    }
  }

  /** Unsigned bytes, optionally filtered ({@code -d}/{@code -i}) and folded ({@code -f}). */
  static final class Text extends FieldCodec {
    private final boolean[] drop;
    private final byte[] translate;
    private final boolean plain;
    private final boolean fixedWidth;

    Text(KeyField f) {
      super(f);
      KeyType t = f.type();
      drop = dropped(t);
      translate = t.foldCase() ? t.locale().upper : CLocale.IDENTITY;
      plain = drop == null && !t.foldCase();
      // Codes of equal length are prefix-free without a terminator.
      fixedWidth = plain && fixedLength();
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      boolean delimit = !open && !fixedWidth;
      if (plain && !delimit) {
        if (dst != null) {
          dst.put(pos, rec, s, e - s);
        }
        return e - s;
      }
      int out = pos;
      if (dst == null) {
        for (int i = s; i < e; i++) {
          int b = rec.get(i) & 0xFF;
          if (drop == null || !drop[b]) {
            out += delimit && translate[b] == 0 ? 2 : 1;
          }
        }
      } else if (plain) {
        for (int i = s; i < e; i++) {
          byte b = rec.get(i);
          dst.put(out++, b);
          if (b == 0) {
            dst.put(out++, (byte) 0xFF);
          }
        }
      } else {
        for (int i = s; i < e; i++) {
          int b = rec.get(i) & 0xFF;
          if (drop != null && drop[b]) {
            continue;
          }
          byte t = translate[b];
          dst.put(out++, t);
          if (t == 0 && delimit) {
            dst.put(out++, (byte) 0xFF);
          }
        }
      }
      if (delimit) {
        if (dst != null) {
          dst.put(out, (byte) 0);
          dst.put(out + 1, (byte) 1);
        }
        out += 2;
      }
      return out - pos;
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return open || fixedWidth ? fieldLength : 2 * fieldLength + 2;
    }
  }

  /** A binary integer or IEEE float, rewritten big-endian with the sign handled. */
  static final class Binary extends FieldCodec {
    private final int width;
    private final boolean littleEndian;
    private final boolean signed;
    private final boolean floating;

    Binary(KeyField f, boolean floating) {
      super(f);
      KeyType t = f.type();
      this.width = t.width();
      this.littleEndian = t.byteOrder() == ByteOrder.LITTLE_ENDIAN;
      this.signed = t.signed();
      this.floating = floating;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (dst == null) {
        return width;
      }
      long v = 0;
      for (int i = 0; i < width; i++) {
        int b = rec.get(littleEndian ? s + width - 1 - i : s + i) & 0xFF;
        v = (v << 8) | b;
      }
      long sign = 1L << (8 * width - 1);
      if (floating) {
        // totalOrder: a negative float's magnitude bits run backwards, so invert them all.
        v = (v & sign) != 0 ? ~v : v ^ sign;
      } else if (signed) {
        v ^= sign;
      }
      for (int i = width - 1; i >= 0; i--) {
        dst.put(pos + i, (byte) v);
        v >>>= 8;
      }
      return width;
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return width;
    }
  }

  /** GNU {@code -n} and {@code -h}. */
  static final class Numeric extends FieldCodec {
    private final int maxUnit;
    private final GnuNumbers.Conventions numbers;

    Numeric(KeyField f, boolean human) {
      super(f);
      KeyType t = f.type();
      boolean old = t.gnuRelease() == KeyType.GnuRelease.COREUTILS_9_1;
      this.maxUnit = human ? (old ? 8 : 10) : 0;
      this.numbers = GnuNumbers.Conventions.of(t.locale(), old, t.foldCase());
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      return GnuNumbers.encodeNumeric(rec, s, e, dst, pos, maxUnit, numbers);
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return GnuNumbers.maxNumericLength(fieldLength, maxUnit > 0);
    }
  }

  /** GNU {@code -M}. */
  static final class Month extends FieldCodec {
    private final GnuMonths months; // null: the C locale's

    Month(KeyField f) {
      super(f);
      this.months = f.type().locale().months;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (dst != null) {
        int m =
            months == null ? GnuNumbers.month(rec, s, e) : (int) (months.find(rec, s, e) & 0xFF);
        dst.put(pos, (byte) m);
      }
      return 1;
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return 1;
    }
  }

  /** GNU {@code -g}. */
  static final class General extends FieldCodec {
    private final boolean textNans;
    private final byte point;

    General(KeyField f) {
      super(f);
      this.textNans = f.type().gnuRelease() != KeyType.GnuRelease.COREUTILS_9_1;
      this.point = f.type().locale().radix[0];
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      return GnuGeneralNumeric.encode(rec, s, e, dst, pos, textNans, point);
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return GnuGeneralNumeric.MAX_LENGTH;
    }
  }

  /**
   * GNU {@code -V}: the code is only {@link GnuVersion#specialClass} of the filtered key, an
   * order-preserving prefix; {@link KeyNormalizer#compareTail} decides ties.
   */
  static final class Version extends FieldCodec {
    private final boolean[] drop;
    private final byte[] translate;
    final boolean wholeSuffix;

    Version(KeyField f) {
      super(f);
      KeyType t = f.type();
      wholeSuffix = t.gnuRelease() == KeyType.GnuRelease.COREUTILS_9_1;
      drop = dropped(t);
      translate = t.foldCase() ? t.locale().upper : CLocale.IDENTITY;
    }

    @Override
    boolean exact() {
      return false;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (dst == null) {
        return 1;
      }
      int kept = 0;
      byte first = 0;
      byte second = 0;
      for (int i = s; i < e && kept < 3; i++) {
        int b = rec.get(i) & 0xFF;
        if (drop != null && drop[b]) {
          continue;
        }
        if (kept == 0) {
          first = translate[b];
        } else if (kept == 1) {
          second = translate[b];
        }
        kept++;
      }
      int cls;
      if (kept == 0) {
        cls = 0;
      } else if (first != '.') {
        cls = 4;
      } else if (kept == 1) {
        cls = 1;
      } else {
        cls = kept == 2 && second == '.' ? 2 : 3;
      }
      dst.put(pos, (byte) cls);
      return 1;
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return 1;
    }

    /** Copies the filtered, folded field into {@code out}; returns its length. */
    int filtered(ByteBuffer rec, int s, int e, byte[] out) {
      return filter(rec, s, e, drop, translate, out);
    }
  }

  /**
   * Text in a locale's collation. The key (after {@code -d}/{@code -i} and {@code -f}) is copied
   * into the thread's native scratch as a C string; its code is nothing when it is empty, else
   * {@code 01} and the part of its {@code strxfrm_l} that orders as {@code strcoll} does: the
   * levels before the last ({@link TextLocale#trustedLevels}), cut before the separator byte {@code
   * 01} that starts the next. glibc's transform of the last level (the {@code position} level of
   * its locales) does not always order as {@code strcoll}: in de_DE.UTF-8, {@code " 9,M"} collates
   * before {@code " -,9M"} and transforms after it. A delimited code ends with {@code 00 01}.
   *
   * <p>The code is therefore inexact, as GNU's order of two keys whose codes are equal is {@code
   * strcoll}'s, applied as GNU's {@code xmemcoll0} does ({@link #compareFull}): an empty key first,
   * then NUL-separated parts in turn, fewer parts first. Only the first part is transformed: the
   * code of a key with NUL bytes is that of its first part, and ties decide the rest. Keys with
   * equal codes are the same text or differ only where the last level sees them (punctuation, bytes
   * that are not UTF-8); {@code strcoll} costs one call for a tie of keys with different bytes,
   * nothing for keys that are the same bytes.
   *
   * <p>Cost: one {@code strxfrm_l} (about 0.3 µs for a word, 1.3 µs for a 40-byte line in
   * en_US.UTF-8 on this project's test machine), and two copies of the key.
   */
  static final class Collated extends FieldCodec {
    private final long locale;
    private final int levels;
    private final boolean[] drop;
    private final byte[] translate;
    private final boolean plain;

    Collated(KeyField f) {
      super(f);
      KeyType t = f.type();
      this.locale = t.locale().handle();
      this.levels = t.locale().trustedLevels;
      this.drop = dropped(t);
      this.translate = t.foldCase() ? t.locale().upper : CLocale.IDENTITY;
      this.plain = drop == null && !t.foldCase();
    }

    @Override
    boolean exact() {
      return false;
    }

    @Override
    boolean selfBounded() {
      return true;
    }

    /** Copies the key into {@code in} from {@code at}, as GNU's copy does; returns its length. */
    private int copy(ByteBuffer rec, int s, int e, ByteBuffer in, int at) {
      if (plain) {
        in.put(at, rec, s, e - s);
        return e - s;
      }
      int n = 0;
      for (int i = s; i < e; i++) {
        int b = rec.get(i) & 0xFF;
        if (drop == null || !drop[b]) {
          in.put(at + n++, translate[b]);
        }
      }
      return n;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      Strxfrm x = Strxfrm.local();
      ByteBuffer in = x.input(e - s);
      int n = copy(rec, s, e, in, 0);
      in.put(n, (byte) 0);
      int limit = dst == null ? 0 : dst.limit();
      int out = pos;
      if (n > 0) {
        out = put(dst, limit, out, (byte) 1);
        int m = in.get(0) == 0 ? 0 : x.transform(locale, 0);
        ByteBuffer t = x.output();
        int cut = 0;
        for (int seen = 0; cut < m; cut++) {
          if (t.get(cut) == 1 && ++seen == levels) {
            break;
          }
        }
        if (dst != null && out + cut <= limit) {
          dst.put(out, t, 0, cut);
        }
        out += cut;
      }
      if (!open) {
        out = put(dst, limit, out, (byte) 0);
        out = put(dst, limit, out, (byte) 1);
      }
      if (e - s > Strxfrm.KEEP) {
        x.release();
      }
      return out - pos;
    }

    /**
     * GNU's comparison of two keys in the locale: an empty key before any other, then {@code
     * memcoll0}: equal bytes are equal, else {@code strcoll} of each NUL-separated part in turn,
     * the key that runs out of parts first being the smaller.
     */
    int compareFull(ByteBuffer a, int as, int ae, ByteBuffer b, int bs, int be) {
      if (plain && ae - as == be - bs && RecordIndex.compareBytes(a, as, b, bs, ae - as) == 0) {
        return 0; // before any copy: most ties of a -k key in a tie group are the same text
      }
      Strxfrm x = Strxfrm.local();
      ByteBuffer in = x.input((ae - as) + (be - bs) + 1);
      int la = copy(a, as, ae, in, 0);
      in.put(la, (byte) 0);
      int lb = copy(b, bs, be, in, la + 1);
      in.put(la + 1 + lb, (byte) 0);
      int diff;
      if (la == 0 || lb == 0) {
        diff = Integer.compare(la == 0 ? 0 : 1, lb == 0 ? 0 : 1);
      } else if (la == lb && RecordIndex.compareBytes(in, 0, in, la + 1, la) == 0) {
        diff = 0;
      } else {
        long address = x.inputAddress();
        diff = strcollParts(in, address, 0, la, in, address, la + 1, lb);
      }
      if (la + lb > Strxfrm.KEEP) {
        x.release();
      }
      return diff;
    }

    /**
     * Copies the key {@code [s, e)} of {@code rec} into {@code to} from {@code at} as {@link
     * #compareFull} sees it, with a NUL after it, when {@code room} bytes from {@code at} hold it;
     * returns its length, or -1 when they do not.
     */
    int stage(ByteBuffer rec, int s, int e, ByteBuffer to, int at, int room) {
      if (e - s + 1 > room) {
        return -1; // the copy is never longer than the field
      }
      int n = copy(rec, s, e, to, at);
      to.put(at + n, (byte) 0);
      return n;
    }

    /**
     * {@link #compareFull} of two keys {@link #stage staged} in native blocks: {@code la} bytes at
     * {@code a} of {@code inA} (whose address is {@code addressA}), {@code lb} at {@code b} of
     * {@code inB}.
     */
    int compareStaged(
        ByteBuffer inA,
        long addressA,
        int a,
        int la,
        ByteBuffer inB,
        long addressB,
        int b,
        int lb) {
      if (la == 0 || lb == 0) {
        return Integer.compare(la == 0 ? 0 : 1, lb == 0 ? 0 : 1);
      }
      if (la == lb && sameBytes(inA, a, inB, b, la)) {
        return 0;
      }
      return strcollParts(inA, addressA, a, la, inB, addressB, b, lb);
    }

    /**
     * {@link #compareStaged} of each of {@code fields} in turn, in its direction: their copies'
     * offsets and lengths are {@code sa[baseA + 2f]} and {@code sa[baseA + 2f + 1]} in {@code inA}
     * (at {@code addressA}), and likewise for b; the sign of the first that differs, else 0.
     */
    static int compareStagedFields(
        Collated[] fields,
        ByteBuffer inA,
        long addressA,
        int[] sa,
        int baseA,
        ByteBuffer inB,
        long addressB,
        int[] sb,
        int baseB) {
      for (int f = 0; f < fields.length; f++) {
        Collated c = fields[f];
        int ia = baseA + 2 * f;
        int ib = baseB + 2 * f;
        int diff =
            c.compareStaged(inA, addressA, sa[ia], sa[ia + 1], inB, addressB, sb[ib], sb[ib + 1]);
        if (diff != 0) {
          return c.descending ? (diff < 0 ? 1 : -1) : (diff < 0 ? -1 : 1);
        }
      }
      return 0;
    }

    /**
     * Whether {@code n} bytes at {@code a} of {@code inA} and {@code b} of {@code inB}, blocks of
     * staged copies, are the same. Its own loop rather than {@link RecordIndex#compareBytes}, whose
     * call sites also see heap buffers: there the JIT no longer inlined the direct buffers' reads,
     * and the check cost 16 of a 1 GB merge's 92 CPU-s (async-profiler, `-k2,2` in en_US.UTF-8).
     */
    static boolean sameBytes(ByteBuffer inA, int a, ByteBuffer inB, int b, int n) {
      int i = 0;
      for (; i + Long.BYTES <= n; i += Long.BYTES) {
        if (inA.getLong(a + i) != inB.getLong(b + i)) {
          return false;
        }
      }
      for (; i < n; i++) {
        if (inA.get(a + i) != inB.get(b + i)) {
          return false;
        }
      }
      return true;
    }

    /**
     * {@code memcoll0} of the C strings at {@code pa} of {@code inA} and {@code pb} of {@code inB}.
     */
    private int strcollParts(
        ByteBuffer inA,
        long addressA,
        int pa,
        int la,
        ByteBuffer inB,
        long addressB,
        int pb,
        int lb) {
      int endA = pa + la + 1;
      int endB = pb + lb + 1;
      while (true) {
        int d = ForeignCalls.strcoll(addressA + pa, addressB + pb, locale);
        if (d != 0) {
          return d;
        }
        while (inA.get(pa) != 0) {
          pa++;
        }
        while (inB.get(pb) != 0) {
          pb++;
        }
        pa++;
        pb++;
        if (pa == endA) {
          return pb == endB ? 0 : -1;
        }
        if (pb == endB) {
          return 1;
        }
      }
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return Integer.MAX_VALUE;
    }
  }

  /**
   * GNU {@code -R}: the 16 bytes of MD5(salt, key), then a code of the key that orders two keys
   * whose digests collide as GNU's tie-break does. The key is filtered and folded first, as {@code
   * -d}, {@code -i} and {@code -f} say in its locale. Equal keys get equal codes, so they stay
   * together.
   *
   * <p>In the C locale, and in any whose collation GNU does not count as its own ({@link
   * TextLocale#hardCollation()}), the key's bytes are hashed and the tie-break is their text code
   * (memcmp, then shorter first). In the others GNU's {@code compare_random} hashes the key's
   * collation transform: each NUL-separated part's whole {@code strxfrm} (every level: the digest
   * needs GNU's bytes) followed by a NUL. C.UTF-8's transform copies, so there a key is hashed with
   * a NUL after it, and orders differently from C. The code then holds those bytes after the digest
   * (its NULs escaped as {@code 00 FF}, and {@code 00 01} after them, where the code is delimited):
   * GNU's tie-break, under which keys with equal transforms are equal.
   *
   * <p>Cost in such a locale: one {@code strxfrm_l} per part, as for a collated key, and the whole
   * transform in the key (several times the key's length).
   */
  static final class RandomHash extends FieldCodec {
    static final int DIGEST = 16;

    private final byte[] salt;
    private final Text text;
    private final boolean[] drop;
    private final byte[] translate;
    private final boolean transformed; // GNU's hard_LC_COLLATE
    private final long locale; // 0 where the transform copies (C.UTF-8)
    // per thread: the digest (not thread-safe), the filtered key and the digest's bytes
    private final ThreadLocal<MessageDigest> md5 = ThreadLocal.withInitial(RandomHash::newMd5);
    private final ThreadLocal<byte[][]> scratch =
        ThreadLocal.withInitial(() -> new byte[][] {new byte[256], new byte[DIGEST]});

    RandomHash(KeyField f) {
      super(f);
      KeyType t = f.type();
      TextLocale l = t.locale();
      salt = t.salt();
      text = new Text(f);
      drop = dropped(t);
      translate = t.foldCase() ? l.upper : CLocale.IDENTITY;
      transformed = l.hardCollation();
      locale = l.byteCollation() ? 0 : l.handle();
    }

    private static MessageDigest newMd5() {
      try {
        return MessageDigest.getInstance("MD5");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java platform has MD5", e);
      }
    }

    @Override
    boolean selfBounded() {
      return transformed;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (!transformed && dst == null) {
        return DIGEST + text.encode(rec, s, e, null, pos + DIGEST, open);
      }
      byte[][] buffers = scratch.get();
      if (buffers[0].length < e - s) {
        buffers[0] = new byte[Math.max(e - s, 2 * buffers[0].length)];
      }
      byte[] key = buffers[0];
      int n = filter(rec, s, e, drop, translate, key);
      MessageDigest md = md5.get();
      md.update(salt);
      int length;
      if (transformed) {
        length = DIGEST + transform(key, n, md, dst, pos + DIGEST, open);
      } else {
        md.update(key, 0, n);
        length = DIGEST + text.encode(rec, s, e, dst, pos + DIGEST, open);
      }
      if (dst == null || pos + DIGEST > dst.limit()) {
        md.reset();
        return length;
      }
      byte[] digest = buffers[1];
      try {
        md.digest(digest, 0, DIGEST);
      } catch (DigestException ex) {
        throw new IllegalStateException("MD5 digests are 16 bytes", ex);
      }
      dst.put(pos, digest, 0, DIGEST);
      return length;
    }

    /**
     * Hashes GNU's transform of {@code key[0, n)} into {@code md} and writes it at {@code dst[at]}
     * as far as {@code dst}'s limit allows; returns its code's length.
     */
    private int transform(
        byte[] key, int n, MessageDigest md, ByteBuffer dst, int at, boolean open) {
      Strxfrm x = locale == 0 ? null : Strxfrm.local();
      int limit = dst == null ? 0 : dst.limit();
      int out = at;
      int part = 0;
      while (part < n) {
        int end = part;
        while (end < n && key[end] != 0) {
          end++;
        }
        if (x == null) {
          md.update(key, part, end - part);
          if (dst != null && out + end - part <= limit) {
            dst.put(out, key, part, end - part);
          }
          out += end - part;
        } else {
          int m = 0;
          if (end > part) {
            ByteBuffer in = x.input(end - part);
            in.put(0, key, part, end - part);
            in.put(end - part, (byte) 0);
            m = x.transform(locale, 0);
          }
          ByteBuffer t = x.output();
          md.update(t.slice(0, m));
          if (dst != null && out + m <= limit) {
            dst.put(out, t, 0, m);
          }
          out += m;
        }
        md.update((byte) 0);
        out = put(dst, limit, out, (byte) 0);
        if (!open) {
          out = put(dst, limit, out, (byte) 0xFF);
        }
        part = end + 1;
      }
      if (!open) {
        out = put(dst, limit, out, (byte) 0);
        out = put(dst, limit, out, (byte) 1);
      }
      if (x != null && n > Strxfrm.KEEP) {
        x.release();
      }
      return out - at;
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return transformed ? Integer.MAX_VALUE : DIGEST + text.maxLength(fieldLength, open);
    }
  }

  /**
   * Copies {@code rec[s, e)} into {@code out} without the bytes {@code drop} marks (if not null),
   * each through {@code translate}; returns the length copied.
   */
  static int filter(ByteBuffer rec, int s, int e, boolean[] drop, byte[] translate, byte[] out) {
    int n = 0;
    for (int i = s; i < e; i++) {
      int b = rec.get(i) & 0xFF;
      if (drop == null || !drop[b]) {
        out[n++] = translate[b];
      }
    }
    return n;
  }

  /** Writes {@code b} at {@code dst[at]} if there is one and {@code at} is before {@code limit}. */
  private static int put(ByteBuffer dst, int limit, int at, byte b) {
    if (dst != null && at < limit) {
      dst.put(at, b);
    }
    return at + 1;
  }
}
