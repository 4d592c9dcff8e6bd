package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * For random values of every type, direction and null placement, and for random multi-field rows:
 * {@code signum(reference.compare(a, b)) == signum(compareUnsigned(encode(a), encode(b)))}, the
 * reference written from each type's definition.
 */
class KeyEncoderTest {
  private static final KeyEncoder.Type[] TYPES = KeyEncoder.Type.values();

  static Object value(KeyEncoder.Type t, Random r) {
    switch (t) {
      case INT32:
        {
          int[] sp = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE + 1};
          int k = r.nextInt(4);
          return k == 0 ? sp[r.nextInt(sp.length)] : k == 1 ? r.nextInt(7) - 3 : r.nextInt();
        }
      case INT64:
        {
          long[] sp = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1};
          int k = r.nextInt(4);
          return k == 0
              ? sp[r.nextInt(sp.length)]
              : k == 1 ? (long) r.nextInt(7) - 3 : r.nextLong();
        }
      case FLOAT32:
        {
          float[] sp = {
            0f,
            -0f,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE,
            -Float.MIN_VALUE,
            Float.MAX_VALUE,
            -Float.MAX_VALUE,
            1f,
            -1f,
            Float.intBitsToFloat(0x7FC00001),
            Float.intBitsToFloat(0xFFC00000),
            Float.intBitsToFloat(0xFF800001),
            Float.intBitsToFloat(0x7F800001)
          };
          int k = r.nextInt(3);
          return k == 0
              ? sp[r.nextInt(sp.length)]
              : k == 1 ? Float.intBitsToFloat(r.nextInt()) : (float) r.nextGaussian();
        }
      case FLOAT64:
        {
          double[] sp = {
            0d,
            -0d,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            -Double.MIN_VALUE,
            Double.MAX_VALUE,
            -Double.MAX_VALUE,
            1d,
            -1d,
            Double.longBitsToDouble(0x7FF8000000000001L),
            Double.longBitsToDouble(0xFFF8000000000000L),
            Double.longBitsToDouble(0xFFF0000000000001L),
            Double.longBitsToDouble(0x7FF0000000000001L)
          };
          int k = r.nextInt(3);
          return k == 0
              ? sp[r.nextInt(sp.length)]
              : k == 1 ? Double.longBitsToDouble(r.nextLong()) : r.nextGaussian();
        }
      case UTF8:
        {
          String[] pieces = {
            "",
            "a",
            "ab",
            "\0",
            "\u0001",
            "\u007F",
            "\u0080",
            "\u00FF",
            "\u07FF",
            "\u0800",
            "\uD7FF",
            "\uE000",
            "\uFFFF",
            "\uD800",
            "\uDFFF",
            "\uD83D\uDE00",
            "\uDBFF\uDFFF",
            "zzzzzzzzzzzzzzzzzzzz"
          };
          StringBuilder s = new StringBuilder();
          for (int i = r.nextInt(5); i > 0; i--) {
            s.append(pieces[r.nextInt(pieces.length)]);
          }
          return s.toString();
        }
      case BYTES:
        {
          byte[] b = new byte[r.nextInt(6)];
          for (int i = 0; i < b.length; i++) {
            int k = r.nextInt(4);
            b[i] = (byte) (k == 0 ? 0 : k == 1 ? 0xFF : k == 2 ? 1 : r.nextInt(256));
          }
          return b;
        }
      default:
        {
          int k = r.nextInt(5);
          BigInteger unscaled =
              k == 0
                  ? BigInteger.valueOf(r.nextInt(21) - 10)
                  : k == 1
                      ? new BigInteger(90, r).subtract(BigInteger.ONE.shiftLeft(89))
                      : k == 2
                          ? BigInteger.valueOf(Long.MIN_VALUE)
                          : BigInteger.valueOf(r.nextLong() >> r.nextInt(64));
          int scale = r.nextInt(10) == 0 ? r.nextInt() : r.nextInt(41) - 20;
          BigDecimal v = new BigDecimal(unscaled, scale);
          // Equal values at other scales: 1.0 and 1.00 must encode the same.
          return r.nextBoolean() && scale < 1000 && scale > -1000
              ? v.setScale(scale + r.nextInt(3))
              : v;
        }
    }
  }

  static int reference(KeyEncoder.Type t, Object a, Object b) {
    switch (t) {
      case INT32:
        return Integer.compare((Integer) a, (Integer) b);
      case INT64:
        return Long.compare((Long) a, (Long) b);
      case FLOAT32:
        {
          float x = (Float) a;
          float y = (Float) b;
          return TotalOrder.compare(
              x, y, Float.floatToRawIntBits(x), Float.floatToRawIntBits(y), 23);
        }
      case FLOAT64:
        {
          double x = (Double) a;
          double y = (Double) b;
          return TotalOrder.compare(
              x, y, Double.doubleToRawLongBits(x), Double.doubleToRawLongBits(y), 52);
        }
      case UTF8:
        return Arrays.compare(
            ((String) a).codePoints().toArray(), ((String) b).codePoints().toArray());
      case BYTES:
        return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default:
        return ((BigDecimal) a).compareTo((BigDecimal) b);
    }
  }

  static void write(KeyEncoder.Writer w, KeyEncoder.Type t, Object v, Random r) {
    if (v == null) {
      w.nullValue();
      return;
    }
    switch (t) {
      case INT32:
        w.int32((Integer) v);
        break;
      case INT64:
        w.int64((Long) v);
        break;
      case FLOAT32:
        w.float32((Float) v);
        break;
      case FLOAT64:
        w.float64((Double) v);
        break;
      case UTF8:
        w.utf8(r.nextBoolean() ? (String) v : java.nio.CharBuffer.wrap((String) v));
        break;
      case BYTES:
        {
          byte[] b = (byte[]) v;
          int k = r.nextInt(3);
          if (k == 0) {
            w.bytes(b);
          } else if (k == 1) {
            byte[] padded = new byte[b.length + 4];
            System.arraycopy(b, 0, padded, 2, b.length);
            w.bytes(padded, 2, b.length);
          } else {
            ByteBuffer bb = ByteBuffer.allocate(b.length + 3).position(1);
            bb.put(b).flip().position(1);
            w.bytes(bb);
          }
          break;
        }
      default:
        {
          BigDecimal d = (BigDecimal) v;
          if (r.nextBoolean() && d.unscaledValue().bitLength() < 64) {
            w.decimal(d.unscaledValue().longValue(), d.scale());
          } else {
            w.decimal(d);
          }
        }
    }
  }

  @Test
  void singleFieldsOrderAsTheirValues() {
    for (int c = 0; c < 4 * TYPES.length * 3 * 2; c++) {
      int caseNo = c;
      Seeds.run(
          "single field",
          20000 + c,
          seed -> {
            Random r = new Random(seed);
            KeyEncoder.Type t = TYPES[caseNo % TYPES.length];
            KeyEncoder.Nulls nulls = KeyEncoder.Nulls.values()[(caseNo / TYPES.length) % 3];
            boolean desc = (caseNo / (3 * TYPES.length)) % 2 == 1;
            rows(
                r,
                new KeyEncoder.Type[] {t},
                new boolean[] {desc},
                new KeyEncoder.Nulls[] {nulls},
                120);
          });
    }
  }

  @Test
  void multiFieldRowsOrderFieldByField() {
    for (int c = 0; c < 150; c++) {
      Seeds.run(
          "multi field",
          30000 + c,
          seed -> {
            Random r = new Random(seed);
            int n = 1 + r.nextInt(4);
            KeyEncoder.Type[] types = new KeyEncoder.Type[n];
            boolean[] desc = new boolean[n];
            KeyEncoder.Nulls[] nulls = new KeyEncoder.Nulls[n];
            for (int i = 0; i < n; i++) {
              types[i] = TYPES[r.nextInt(TYPES.length)];
              desc[i] = r.nextBoolean();
              nulls[i] = KeyEncoder.Nulls.values()[r.nextInt(3)];
            }
            rows(r, types, desc, nulls, 100);
          });
    }
  }

  private static void rows(
      Random r, KeyEncoder.Type[] types, boolean[] desc, KeyEncoder.Nulls[] nulls, int count) {
    KeyEncoder.Builder b = KeyEncoder.builder();
    for (int i = 0; i < types.length; i++) {
      b.field(types[i], desc[i], nulls[i]);
    }
    KeyEncoder enc = b.build();
    KeyEncoder.Writer w = enc.newWriter();
    // Small pools per field, so that rows tie on early fields and later ones decide.
    List<List<Object>> pools = new ArrayList<>();
    for (KeyEncoder.Type t : types) {
      List<Object> pool = new ArrayList<>();
      for (int i = 0; i < 2 + r.nextInt(types.length > 1 ? 4 : 60); i++) {
        pool.add(value(t, r));
      }
      pools.add(pool);
    }
    List<Object[]> rows = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      Object[] row = new Object[types.length];
      w.reset();
      for (int i = 0; i < types.length; i++) {
        boolean isNull = nulls[i] != KeyEncoder.Nulls.NEVER && r.nextInt(6) == 0;
        row[i] = isNull ? null : pools.get(i).get(r.nextInt(pools.get(i).size()));
        write(w, types[i], row[i], r);
      }
      rows.add(row);
      byte[] key = w.toByteArray();
      ByteBuffer view = w.finish();
      assertEquals(ByteBuffer.wrap(key), view);
      keys.add(key);
    }
    Comparator<Object[]> ref =
        (x, y) -> {
          for (int i = 0; i < types.length; i++) {
            if (x[i] == null || y[i] == null) {
              if (x[i] == y[i]) {
                continue;
              }
              boolean xFirst = (x[i] == null) == (nulls[i] == KeyEncoder.Nulls.FIRST);
              return xFirst ? -1 : 1;
            }
            int d = Integer.signum(reference(types[i], x[i], y[i]));
            if (d != 0) {
              return desc[i] ? -d : d;
            }
          }
          return 0;
        };
    for (int i = 0; i < count; i++) {
      for (int j = 0; j < count; j++) {
        int want = Integer.signum(ref.compare(rows.get(i), rows.get(j)));
        int got = Integer.signum(Arrays.compareUnsigned(keys.get(i), keys.get(j)));
        if (want != got) {
          assertEquals(
              want,
              got,
              Arrays.toString(types)
                  + Arrays.toString(desc)
                  + Arrays.toString(nulls)
                  + " "
                  + Arrays.deepToString(rows.get(i))
                  + " vs "
                  + Arrays.deepToString(rows.get(j)));
        }
      }
    }
  }

  @Test
  void writerChecksTheSchema() {
    KeyEncoder enc =
        KeyEncoder.builder()
            .field(KeyEncoder.Type.INT32, false, KeyEncoder.Nulls.NEVER)
            .field(KeyEncoder.Type.UTF8, false, KeyEncoder.Nulls.FIRST)
            .build();
    KeyEncoder.Writer w = enc.newWriter();
    assertThrows(IllegalStateException.class, () -> w.reset().utf8("x"));
    assertThrows(IllegalStateException.class, () -> w.reset().nullValue());
    assertThrows(IllegalStateException.class, () -> w.reset().int32(1).finish());
    assertThrows(IllegalStateException.class, () -> w.reset().int32(1).utf8("a").int32(2));
    assertEquals(4 + 1 + 1, w.reset().int32(1).utf8("a").finish().remaining());
  }

  @Test
  void documentedLayouts() {
    KeyEncoder.Writer w =
        KeyEncoder.builder()
            .field(KeyEncoder.Type.DECIMAL, false, KeyEncoder.Nulls.NEVER)
            .build()
            .newWriter();
    // 12.5 = 0.125 x 10^2: header 0xC2, nibbles 2 3 6 0
    assertEquals("c22360", hex(w.reset().decimal(new BigDecimal("12.50")).toByteArray()));
    assertEquals("80", hex(w.reset().decimal(BigDecimal.ZERO.setScale(5)).toByteArray()));
    // -12.5: the positive code inverted
    assertEquals("3ddc9f", hex(w.reset().decimal(-125, 1).toByteArray()));
    KeyEncoder.Writer s =
        KeyEncoder.builder()
            .field(KeyEncoder.Type.BYTES, false, KeyEncoder.Nulls.LAST)
            .field(KeyEncoder.Type.INT32, true, KeyEncoder.Nulls.FIRST)
            .build()
            .newWriter();
    // present marker, "a\0" escaped and terminated, present marker, ~(1 ^ sign)
    assertEquals(
        "016100ff000101" + "7ffffffe",
        hex(s.reset().bytes(new byte[] {'a', 0}).int32(1).toByteArray()));
    assertEquals("02" + "00", hex(s.reset().nullValue().nullValue().toByteArray()));
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }
    return s.toString();
  }
}
