package dev.joule.core.key;

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

  /** Unsigned bytes, optionally filtered ({@code -d}/{@code -i}) and folded ({@code -f}). */
  static final class Text extends FieldCodec {
    private final boolean[] drop;
    private final byte[] translate;
    private final boolean plain;
    private final boolean fixedWidth;

    Text(KeyField f) {
      super(f);
      KeyType t = f.type();
      drop =
          t.ignore() == KeyType.Ignore.NONDICTIONARY
              ? CLocale.NONDICTIONARY
              : t.ignore() == KeyType.Ignore.NONPRINTING ? CLocale.NONPRINTING : null;
      translate = t.foldCase() ? CLocale.UPPER : CLocale.IDENTITY;
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
    private final int separator;
    private final boolean fold;

    Numeric(KeyField f, boolean human) {
      super(f);
      boolean old = f.type().gnuRelease() == KeyType.GnuRelease.COREUTILS_9_1;
      this.maxUnit = human ? (old ? 8 : 10) : 0;
      this.separator = old ? 0x80 : -1;
      this.fold = f.type().foldCase();
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      return GnuNumbers.encodeNumeric(rec, s, e, dst, pos, maxUnit, separator, fold);
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return GnuNumbers.maxNumericLength(fieldLength, maxUnit > 0);
    }
  }

  /** GNU {@code -M}. */
  static final class Month extends FieldCodec {
    Month(KeyField f) {
      super(f);
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (dst != null) {
        dst.put(pos, (byte) GnuNumbers.month(rec, s, e));
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

    General(KeyField f) {
      super(f);
      this.textNans = f.type().gnuRelease() != KeyType.GnuRelease.COREUTILS_9_1;
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      return GnuGeneralNumeric.encode(rec, s, e, dst, pos, textNans);
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
      drop =
          t.ignore() == KeyType.Ignore.NONDICTIONARY
              ? CLocale.NONDICTIONARY
              : t.ignore() == KeyType.Ignore.NONPRINTING ? CLocale.NONPRINTING : null;
      translate = t.foldCase() ? CLocale.UPPER : CLocale.IDENTITY;
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
      int n = 0;
      for (int i = s; i < e; i++) {
        int b = rec.get(i) & 0xFF;
        if (drop == null || !drop[b]) {
          out[n++] = translate[b];
        }
      }
      return n;
    }
  }

  /**
   * GNU {@code -R}: the 16 bytes of MD5(salt, key) (the key filtered and folded as {@code -d},
   * {@code -i}, {@code -f} say), then the text code of the same key, which orders two keys whose
   * digests collide as GNU's tie-break does (memcmp, then shorter first). Equal keys get equal
   * codes, so they stay together.
   */
  static final class RandomHash extends FieldCodec {
    static final int DIGEST = 16;

    private final byte[] salt;
    private final Text text;
    private final boolean[] drop;
    private final byte[] translate;
    // per thread: the digest (not thread-safe) and the filtered key it hashes
    private final ThreadLocal<MessageDigest> md5 = ThreadLocal.withInitial(RandomHash::newMd5);
    private final ThreadLocal<byte[][]> scratch =
        ThreadLocal.withInitial(() -> new byte[][] {new byte[256], new byte[DIGEST]});

    RandomHash(KeyField f) {
      super(f);
      KeyType t = f.type();
      salt = t.salt();
      text = new Text(f);
      drop =
          t.ignore() == KeyType.Ignore.NONDICTIONARY
              ? CLocale.NONDICTIONARY
              : t.ignore() == KeyType.Ignore.NONPRINTING ? CLocale.NONPRINTING : null;
      translate = t.foldCase() ? CLocale.UPPER : CLocale.IDENTITY;
    }

    private static MessageDigest newMd5() {
      try {
        return MessageDigest.getInstance("MD5");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java platform has MD5", e);
      }
    }

    @Override
    int encode(ByteBuffer rec, int s, int e, ByteBuffer dst, int pos, boolean open) {
      if (dst == null) {
        return DIGEST + text.encode(rec, s, e, null, pos + DIGEST, open);
      }
      byte[][] buffers = scratch.get();
      byte[] key = buffers[0];
      if (key.length < e - s) {
        key = new byte[Math.max(e - s, 2 * key.length)];
        buffers[0] = key;
      }
      int n = 0;
      for (int i = s; i < e; i++) {
        int b = rec.get(i) & 0xFF;
        if (drop == null || !drop[b]) {
          key[n++] = translate[b];
        }
      }
      MessageDigest md = md5.get();
      md.update(salt);
      md.update(key, 0, n);
      byte[] digest = buffers[1];
      try {
        md.digest(digest, 0, DIGEST);
      } catch (DigestException ex) {
        throw new IllegalStateException("MD5 digests are 16 bytes", ex);
      }
      dst.put(pos, digest, 0, DIGEST);
      return DIGEST + text.encode(rec, s, e, dst, pos + DIGEST, open);
    }

    @Override
    int maxLength(int fieldLength, boolean open) {
      return DIGEST + text.maxLength(fieldLength, open);
    }
  }
}
