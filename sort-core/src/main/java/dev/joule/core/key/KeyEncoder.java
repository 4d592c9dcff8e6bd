package dev.joule.core.key;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds binary sort keys from typed values, for callers (data platforms) that sort rows by several
 * typed columns: the key's bytes, compared as unsigned bytes lexicographically with the shorter
 * first on a tie ({@link java.util.Arrays#compareUnsigned(byte[], byte[])}), order exactly as the
 * values do field by field, each field ascending or descending, nulls first or last.
 *
 * <h2>Byte layout</h2>
 *
 * A key is its fields' codes in schema order. Each nullable field starts with a marker byte, never
 * inverted: {@code 0x00} null / {@code 0x01} present with {@link Nulls#FIRST}, {@code 0x01} present
 * / {@code 0x02} null with {@link Nulls#LAST}; a null has no value bytes. {@link Nulls#NEVER}
 * fields have no marker. A descending field's value bytes are inverted (each byte {@code b} becomes
 * {@code 0xFF - b}). Value codes:
 *
 * <ul>
 *   <li>{@code INT32}, {@code INT64}: 4 or 8 bytes, two's complement big-endian with the sign bit
 *       flipped;
 *   <li>{@code FLOAT32}, {@code FLOAT64}: the raw IEEE bits big-endian, all inverted when the sign
 *       bit is set, else with the sign bit set: IEEE 754 totalOrder, {@code -NaN < -inf < ... < -0
 *       < +0 < ... < +inf < +NaN}, NaNs ordered by payload;
 *   <li>{@code UTF8}: the UTF-8 bytes (unpaired surrogates as their 3-byte form), whose byte order
 *       is code point order; {@code BYTES}: the bytes. Both are variable-length: each {@code 0x00}
 *       is written {@code 0x00 0xFF} and the value ends with {@code 0x00 0x01}, so that a shorter
 *       value sorts first whatever follows and after inversion. The last field, when ascending, is
 *       written raw (no escape, no terminator): the key's end does the job;
 *   <li>{@code DECIMAL}: by numeric value, scale ignored ({@code 1.0 == 1.00}): zero is {@code
 *       0x80}; a positive value {@code 0.d1..dn x 10^e} ({@code d1 != 0}, no trailing zero digit)
 *       is a header, {@code 0xC0 + e} for {@code -61 <= e <= 62}, else {@code 0xFF} (larger) or
 *       {@code 0x81} (smaller) and {@code e} as 8 bytes big-endian with the sign bit flipped, then
 *       the digits as 4-bit nibbles {@code d + 1}, a 0 nibble, and a 0 nibble of padding if needed;
 *       a negative value is the positive code of its magnitude, inverted.
 * </ul>
 *
 * <h2>Use</h2>
 *
 * <pre>{@code
 * KeyEncoder enc = KeyEncoder.builder()
 *     .field(KeyEncoder.Type.INT64, false, KeyEncoder.Nulls.NEVER)
 *     .field(KeyEncoder.Type.UTF8, true, KeyEncoder.Nulls.LAST)
 *     .build();
 * KeyEncoder.Writer w = enc.newWriter();        // one per thread
 * ByteBuffer key = w.reset().int64(42).utf8("abc").finish();
 * }</pre>
 *
 * <p>Memory: a writer keeps one growable array as long as its longest key; writing a key allocates
 * nothing except {@link Writer#decimal(BigDecimal)} (which reads the value through {@link
 * BigDecimal}'s allocating accessors; {@link Writer#decimal(long, int)} does not). Costs are linear
 * in the key's bytes.
 *
 * <p>Threads: a {@code KeyEncoder} is immutable and thread-safe; a {@link Writer} is not.
 */
public final class KeyEncoder {
  /** Value types. */
  public enum Type {
    /** 32-bit signed integer. */
    INT32,
    /** 64-bit signed integer. */
    INT64,
    /** IEEE binary32 in totalOrder. */
    FLOAT32,
    /** IEEE binary64 in totalOrder. */
    FLOAT64,
    /** Text, ordered by code point. */
    UTF8,
    /** Bytes, ordered as unsigned bytes, shorter first. */
    BYTES,
    /** Decimal numbers, ordered by value. */
    DECIMAL
  }

  /** Where nulls of a field sort, whatever its direction. */
  public enum Nulls {
    /** Before every value. */
    FIRST,
    /** After every value. */
    LAST,
    /** The field is never null: no marker byte. */
    NEVER
  }

  private final Type[] types;
  private final boolean[] descending;
  private final Nulls[] nulls;

  private KeyEncoder(List<Type> types, List<Boolean> descending, List<Nulls> nulls) {
    if (types.isEmpty()) {
      throw new IllegalArgumentException("a key needs at least one field");
    }
    this.types = types.toArray(new Type[0]);
    this.descending = new boolean[types.size()];
    for (int i = 0; i < this.descending.length; i++) {
      this.descending[i] = descending.get(i);
    }
    this.nulls = nulls.toArray(new Nulls[0]);
  }

  /** A builder of an encoder's schema. */
  public static Builder builder() {
    return new Builder();
  }

  /** The number of fields. */
  public int fieldCount() {
    return types.length;
  }

  /** Field {@code i}'s type. */
  public Type type(int i) {
    return types[i];
  }

  /** Whether field {@code i} is descending. */
  public boolean descending(int i) {
    return descending[i];
  }

  /** Where field {@code i}'s nulls sort. */
  public Nulls nulls(int i) {
    return nulls[i];
  }

  /** A new writer for this schema. */
  public Writer newWriter() {
    return new Writer(this);
  }

  /** Collects the fields of a {@link KeyEncoder}; not thread-safe. */
  public static final class Builder {
    private final List<Type> types = new ArrayList<>();
    private final List<Boolean> descending = new ArrayList<>();
    private final List<Nulls> nulls = new ArrayList<>();

    private Builder() {}

    /** Appends a field. */
    public Builder field(Type type, boolean descending, Nulls nulls) {
      this.types.add(Objects.requireNonNull(type, "type"));
      this.descending.add(descending);
      this.nulls.add(Objects.requireNonNull(nulls, "nulls"));
      return this;
    }

    /** The encoder. */
    public KeyEncoder build() {
      return new KeyEncoder(types, descending, nulls);
    }
  }

  /**
   * Writes one key at a time: {@link #reset()}, one call per field in schema order ({@link
   * #nullValue()} for a null), then {@link #finish()}. Reusable; not thread-safe.
   */
  public static final class Writer {
    private static final int NULL_FIRST = 0x00;
    private static final int PRESENT = 0x01;
    private static final int NULL_LAST = 0x02;

    private final KeyEncoder schema;
    private byte[] buf = new byte[64];
    private ByteBuffer view = ByteBuffer.wrap(buf);
    private ByteBuffer readOnly = view.asReadOnlyBuffer();
    private final byte[] digits = new byte[20];
    private int len;
    private int field;
    private int valueStart;

    private Writer(KeyEncoder schema) {
      this.schema = schema;
    }

    /** Starts a new key, discarding the current one. */
    public Writer reset() {
      len = 0;
      field = 0;
      return this;
    }

    /** The next field is null. */
    public Writer nullValue() {
      checkField(null);
      Nulls n = schema.nulls[field];
      if (n == Nulls.NEVER) {
        throw new IllegalStateException("field " + field + " is declared never null");
      }
      ensure(1);
      buf[len++] = (byte) (n == Nulls.FIRST ? NULL_FIRST : NULL_LAST);
      field++;
      return this;
    }

    /** The next field, an {@code INT32}. */
    public Writer int32(int v) {
      begin(Type.INT32, 4);
      view.putInt(len, v ^ Integer.MIN_VALUE);
      len += 4;
      return end();
    }

    /** The next field, an {@code INT64}. */
    public Writer int64(long v) {
      begin(Type.INT64, 8);
      view.putLong(len, v ^ Long.MIN_VALUE);
      len += 8;
      return end();
    }

    /** The next field, a {@code FLOAT32}. */
    public Writer float32(float v) {
      begin(Type.FLOAT32, 4);
      int bits = Float.floatToRawIntBits(v);
      view.putInt(len, bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE);
      len += 4;
      return end();
    }

    /** The next field, a {@code FLOAT64}. */
    public Writer float64(double v) {
      begin(Type.FLOAT64, 8);
      long bits = Double.doubleToRawLongBits(v);
      view.putLong(len, bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
      len += 8;
      return end();
    }

    /** The next field, a {@code UTF8} string (not null: use {@link #nullValue()}). */
    public Writer utf8(CharSequence s) {
      int n = s.length();
      begin(Type.UTF8, 3 * n + 2);
      boolean delimit = !open();
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c < 0x80) {
          buf[len++] = (byte) c;
          if (c == 0 && delimit) {
            buf[len++] = (byte) 0xFF;
          }
        } else if (c < 0x800) {
          buf[len++] = (byte) (0xC0 | c >> 6);
          buf[len++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          buf[len++] = (byte) (0xF0 | cp >> 18);
          buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          buf[len++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          // Unpaired surrogates too: their 3-byte form sits between U+D7FF and U+E000.
          buf[len++] = (byte) (0xE0 | c >> 12);
          buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
          buf[len++] = (byte) (0x80 | (c & 0x3F));
        }
      }
      if (delimit) {
        buf[len++] = 0;
        buf[len++] = 1;
      }
      return end();
    }

    /** The next field, {@code BYTES}. */
    public Writer bytes(byte[] b) {
      return bytes(b, 0, b.length);
    }

    /** The next field, {@code BYTES}: {@code length} bytes of {@code b} from {@code offset}. */
    public Writer bytes(byte[] b, int offset, int length) {
      Objects.checkFromIndexSize(offset, length, b.length);
      begin(Type.BYTES, 2 * length + 2);
      if (open()) {
        System.arraycopy(b, offset, buf, len, length);
        len += length;
        return end();
      }
      for (int i = offset; i < offset + length; i++) {
        byte x = b[i];
        buf[len++] = x;
        if (x == 0) {
          buf[len++] = (byte) 0xFF;
        }
      }
      buf[len++] = 0;
      buf[len++] = 1;
      return end();
    }

    /**
     * The next field, {@code BYTES}: the bytes of {@code b} from its position to its limit; its
     * position is not moved.
     */
    public Writer bytes(ByteBuffer b) {
      int from = b.position();
      int length = b.remaining();
      begin(Type.BYTES, 2 * length + 2);
      boolean delimit = !open();
      for (int i = from; i < from + length; i++) {
        byte x = b.get(i);
        buf[len++] = x;
        if (x == 0 && delimit) {
          buf[len++] = (byte) 0xFF;
        }
      }
      if (delimit) {
        buf[len++] = 0;
        buf[len++] = 1;
      }
      return end();
    }

    /** The next field, the {@code DECIMAL} {@code unscaled x 10^-scale}. */
    public Writer decimal(long unscaled, int scale) {
      begin(Type.DECIMAL, 1 + 9 + 11);
      writeDecimal(unscaled, scale);
      return end();
    }

    /** The next field, a {@code DECIMAL} (not null: use {@link #nullValue()}). */
    public Writer decimal(BigDecimal v) {
      if (v.signum() == 0) {
        return decimal(0, 0);
      }
      BigDecimal stripped = v.stripTrailingZeros();
      BigInteger unscaled = stripped.unscaledValue();
      if (unscaled.bitLength() < 64) {
        return decimal(unscaled.longValue(), stripped.scale());
      }
      String magnitude = unscaled.abs().toString();
      int n = magnitude.length();
      begin(Type.DECIMAL, 9 + n / 2 + 2);
      int start = len;
      long exponent = (long) n - stripped.scale();
      len += DecimalCode.writeHeader(view, len, exponent);
      for (int i = 0; i < n; i += 2) {
        int hi = magnitude.charAt(i) - '0' + 1;
        int lo = i + 1 < n ? magnitude.charAt(i + 1) - '0' + 1 : 0;
        buf[len++] = (byte) (hi << 4 | lo);
      }
      if (n % 2 == 0) {
        buf[len++] = 0;
      }
      if (unscaled.signum() < 0) {
        DecimalCode.invert(view, start, len);
      }
      return end();
    }

    private void writeDecimal(long unscaled, long scale) {
      if (unscaled == 0) {
        buf[len++] = (byte) DecimalCode.ZERO;
        return;
      }
      boolean negative = unscaled < 0;
      long m = negative ? -unscaled : unscaled; // unsigned: Long.MIN_VALUE's magnitude is 2^63
      while (Long.remainderUnsigned(m, 10) == 0) {
        m = Long.divideUnsigned(m, 10);
        scale--;
      }
      int n = 0;
      while (m != 0) {
        digits[digits.length - 1 - n++] = (byte) Long.remainderUnsigned(m, 10);
        m = Long.divideUnsigned(m, 10);
      }
      int start = len;
      len += DecimalCode.writeHeader(view, len, n - scale);
      int first = digits.length - n;
      for (int i = 0; i < n; i += 2) {
        int hi = digits[first + i] + 1;
        int lo = i + 1 < n ? digits[first + i + 1] + 1 : 0;
        buf[len++] = (byte) (hi << 4 | lo);
      }
      if (n % 2 == 0) {
        buf[len++] = 0;
      }
      if (negative) {
        DecimalCode.invert(view, start, len);
      }
    }

    /**
     * The key: a read-only view of the writer's array from 0 to the key's length. The same view
     * object is returned each time; it is valid until the writer is used again.
     *
     * @throws IllegalStateException if a field is missing
     */
    public ByteBuffer finish() {
      checkComplete();
      readOnly.limit(len).position(0);
      return readOnly;
    }

    /** The current key's length in bytes. */
    public int length() {
      return len;
    }

    /** Copies the finished key into {@code dst} at {@code offset}; returns its length. */
    public int copyTo(byte[] dst, int offset) {
      checkComplete();
      System.arraycopy(buf, 0, dst, offset, len);
      return len;
    }

    /**
     * Copies the finished key into {@code dst} at absolute index {@code index} (its position is not
     * moved); returns its length.
     */
    public int copyTo(ByteBuffer dst, int index) {
      checkComplete();
      dst.put(index, buf, 0, len);
      return len;
    }

    /** A copy of the finished key. */
    public byte[] toByteArray() {
      checkComplete();
      return java.util.Arrays.copyOf(buf, len);
    }

    private void checkComplete() {
      if (field != schema.types.length) {
        throw new IllegalStateException(
            "key has " + field + " of " + schema.types.length + " fields");
      }
    }

    private void checkField(Type t) {
      if (field >= schema.types.length) {
        throw new IllegalStateException("key already has all " + field + " fields");
      }
      if (t != null && schema.types[field] != t) {
        throw new IllegalStateException(
            "field " + field + " is " + schema.types[field] + ", not " + t);
      }
    }

    private boolean open() {
      return field == schema.types.length - 1 && !schema.descending[field];
    }

    private void begin(Type t, int maxValueBytes) {
      checkField(t);
      ensure(1 + maxValueBytes);
      if (schema.nulls[field] != Nulls.NEVER) {
        buf[len++] = PRESENT;
      }
      valueStart = len;
    }

    private Writer end() {
      if (schema.descending[field]) {
        for (int i = valueStart; i < len; i++) {
          buf[i] = (byte) ~buf[i];
        }
      }
      field++;
      return this;
    }

    private void ensure(int more) {
      long need = (long) len + more;
      if (need > buf.length) {
        if (need > Integer.MAX_VALUE - 8) {
          throw new IllegalArgumentException("key longer than 2 GiB");
        }
        buf =
            java.util.Arrays.copyOf(
                buf, (int) Math.max(need, Math.min(2L * buf.length, Integer.MAX_VALUE - 8)));
        view = ByteBuffer.wrap(buf);
        readOnly = view.asReadOnlyBuffer();
      }
    }
  }
}
