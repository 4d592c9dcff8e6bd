package dev.joule.spark.sql;

import java.math.BigInteger;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.CollationFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.UserDefinedType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The order-preserving binary code of one non-null value of a Spark type: the codes of two values,
 * compared as unsigned bytes, order as Spark SQL orders the values ascending (its {@code
 * PhysicalDataType} orderings). A descending field inverts its code ({@link KeyBuffer#invertFrom});
 * the null marker is written by the caller ({@link SortKeyEncoder}).
 *
 * <ul>
 *   <li>boolean: one byte, false first; byte, short, int, long and the types stored as them (date
 *       and year-month interval as int days or months; timestamp, timestamp without time zone and
 *       day-time interval as long microseconds): big-endian two's complement with the sign bit
 *       flipped;
 *   <li>float, double: every NaN made the canonical NaN and -0.0 made 0.0 (Spark orders NaN above
 *       every other value, all NaNs equal, -0.0 equal to 0.0), then the IEEE bits with the sign bit
 *       set when clear and all bits inverted when set: a total order in which the canonical NaN
 *       comes last;
 *   <li>decimal of precision p, scale s (every value of the column has scale s, so the unscaled
 *       integers order as the values): p &lt;= 18 as a long, wider as a 16-byte two's complement
 *       integer (10^38 &lt; 2^127), both sign-flipped;
 *   <li>string: under a collation with binary ordering (UTF8_BINARY) its UTF-8 bytes, which Spark
 *       compares as unsigned bytes; under any other collation (UTF8_LCASE, trimming variants, and
 *       the ICU collations UNICODE, UNICODE_CI, locales when asked for) the collation's own sort
 *       key ({@code CollationFactory.Collation.sortKeyFunction}: ICU's collation key for ICU
 *       collations), whose bytes order as the collation's comparator, except that ICU's keys and
 *       ICU's comparisons, which Spark sorts by, disagree on some strings (ICU 78.3: {@code
 *       compare("Iß", "İß") > 0}, their keys the other way), so ICU collations stay Spark's unless
 *       {@link JouleSortRule#ICU_SORT_KEYS} says otherwise; binary: its bytes. Variable-length
 *       codes are escaped ({@link KeyBuffer#putEscaped}) so that a shorter value sorts first
 *       whatever follows, unless the code ends the key ascending ({@code last}), where the key's
 *       end does that;
 *   <li>struct: per field a marker ({@code 0x00} null, {@code 0x01} present) and the field's code,
 *       ascending: Spark orders structs field by field, each ascending with nulls first;
 *   <li>array: per element {@code 0x01} for null or {@code 0x02} and its code, then {@code 0x00}:
 *       Spark orders arrays element by element, nulls first, and a prefix before the longer array.
 * </ul>
 *
 * A user-defined type orders as its SQL type. Other types (maps, variants, calendar intervals,
 * types newer than this code) have no code: {@link #of} throws {@link Unsupported} naming them, and
 * the sort stays Spark's. Immutable and stateless.
 */
abstract class ValueCode {
  /** Appends the code of the non-null value at {@code ordinal} of {@code row}. */
  abstract void write(SpecializedGetters row, int ordinal, KeyBuffer out);

  /** A type without a binary code here; the message names the type. */
  static final class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    Unsupported(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The code of {@code type}'s values.
   *
   * @param last the code ends the key and its field is ascending: variable-length values need no
   *     escape
   * @throws Unsupported when the type has none
   */
  static ValueCode of(DataType type, boolean last, boolean icuSortKeys) throws Unsupported {
    if (type instanceof BooleanType) {
      return BOOLEAN;
    } else if (type instanceof ByteType) {
      return BYTE;
    } else if (type instanceof ShortType) {
      return SHORT;
    } else if (type instanceof IntegerType
        || type instanceof DateType
        || type instanceof YearMonthIntervalType) {
      return INT;
    } else if (type instanceof LongType
        || type instanceof TimestampType
        || type instanceof TimestampNTZType
        || type instanceof DayTimeIntervalType) {
      return LONG;
    } else if (type instanceof FloatType) {
      return FLOAT;
    } else if (type instanceof DoubleType) {
      return DOUBLE;
    } else if (type instanceof DecimalType d) {
      return d.precision() <= Decimal.MAX_LONG_DIGITS()
          ? new CompactDecimal(d.precision(), d.scale())
          : new WideDecimal(d.precision(), d.scale());
    } else if (type instanceof StringType s) {
      CollationFactory.Collation c = CollationFactory.fetchCollation(s.collationId());
      if (c.supportsBinaryOrdering) {
        return last ? RAW_STRING : ESCAPED_STRING;
      }
      if (c.getCollator() != null && !icuSortKeys) {
        throw new Unsupported(
            "collation "
                + c.collationName
                + ": ICU's sort keys do not always order as the ICU comparisons Spark sorts by"
                + " (ICU 78: 'Iß' and 'İß'); "
                + JouleSortRule.ICU_SORT_KEYS
                + "=true sorts by the keys");
      }
      return new CollatedString(s.collationId());
    } else if (type instanceof BinaryType) {
      return last ? RAW_BINARY : ESCAPED_BINARY;
    } else if (type instanceof StructType st) {
      StructField[] fields = st.fields();
      ValueCode[] codes = new ValueCode[fields.length];
      for (int i = 0; i < fields.length; i++) {
        codes[i] = of(fields[i].dataType(), false, icuSortKeys);
      }
      return new Struct(codes);
    } else if (type instanceof ArrayType a) {
      return new Array(of(a.elementType(), false, icuSortKeys));
    } else if (type instanceof UserDefinedType<?> u) {
      return of(u.sqlType(), last, icuSortKeys); // Spark orders a UDT by its SQL type
    } else if (type instanceof NullType) {
      return NOTHING; // every value is null: the marker says it all
    }
    throw new Unsupported("type " + type.catalogString() + " has no binary order encoding here");
  }

  private static final ValueCode BOOLEAN =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          out.put1(row.getBoolean(ordinal) ? 1 : 0);
        }
      };

  private static final ValueCode BYTE =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          out.put1(row.getByte(ordinal) ^ 0x80);
        }
      };

  private static final ValueCode SHORT =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          out.put2(row.getShort(ordinal) ^ 0x8000);
        }
      };

  private static final ValueCode INT =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          out.put4(row.getInt(ordinal) ^ Integer.MIN_VALUE);
        }
      };

  private static final ValueCode LONG =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          out.put8(row.getLong(ordinal) ^ Long.MIN_VALUE);
        }
      };

  private static final ValueCode FLOAT =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          float v = row.getFloat(ordinal);
          // floatToIntBits maps every NaN to the canonical one; v + 0.0f turns -0.0 into 0.0
          int bits = Float.floatToIntBits(v + 0.0f);
          out.put4(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE);
        }
      };

  private static final ValueCode DOUBLE =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
          double v = row.getDouble(ordinal);
          long bits = Double.doubleToLongBits(v + 0.0d);
          out.put8(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
        }
      };

  private static final ValueCode NOTHING =
      new ValueCode() {
        @Override
        void write(SpecializedGetters row, int ordinal, KeyBuffer out) {}
      };

  /** Decimals of up to 18 digits: the unscaled long. */
  private static final class CompactDecimal extends ValueCode {
    private final int precision;
    private final int scale;

    CompactDecimal(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      // Spark's unsafe rows and arrays store a compact decimal as its unscaled long
      long unscaled =
          row instanceof UnsafeRow || row instanceof UnsafeArrayData
              ? row.getLong(ordinal)
              : row.getDecimal(ordinal, precision, scale).toUnscaledLong();
      out.put8(unscaled ^ Long.MIN_VALUE);
    }
  }

  /** Decimals of 19 to 38 digits: the unscaled integer in 16 bytes. */
  private static final class WideDecimal extends ValueCode {
    private final int precision;
    private final int scale;

    WideDecimal(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      BigInteger unscaled =
          row.getDecimal(ordinal, precision, scale).toJavaBigDecimal().unscaledValue();
      long hi = unscaled.shiftRight(64).longValue();
      long lo = unscaled.longValue();
      out.put8(hi ^ Long.MIN_VALUE);
      out.put8(lo);
    }
  }

  /** Bytes of a string or binary value in Spark's unsafe formats, read without a copy. */
  private abstract static class Bytes extends ValueCode {
    private final boolean escape;

    Bytes(boolean escape) {
      this.escape = escape;
    }

    final void put(Object base, long offset, int n, KeyBuffer out) {
      if (escape) {
        out.putEscaped(base, offset, n);
      } else {
        out.putRaw(base, offset, n);
      }
    }

    @Override
    final void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      if (row instanceof UnsafeRow u) {
        long offsetAndSize = u.getLong(ordinal);
        put(
            u.getBaseObject(),
            u.getBaseOffset() + (offsetAndSize >>> 32),
            (int) offsetAndSize,
            out);
      } else if (row instanceof UnsafeArrayData a) {
        long offsetAndSize = a.getLong(ordinal);
        put(
            a.getBaseObject(),
            a.getBaseOffset() + (offsetAndSize >>> 32),
            (int) offsetAndSize,
            out);
      } else {
        writeValue(row, ordinal, out);
      }
    }

    abstract void writeValue(SpecializedGetters row, int ordinal, KeyBuffer out);
  }

  private static final class StringBytes extends Bytes {
    StringBytes(boolean escape) {
      super(escape);
    }

    @Override
    void writeValue(SpecializedGetters row, int ordinal, KeyBuffer out) {
      UTF8String s = row.getUTF8String(ordinal);
      put(s.getBaseObject(), s.getBaseOffset(), s.numBytes(), out);
    }
  }

  private static final class BinaryBytes extends Bytes {
    BinaryBytes(boolean escape) {
      super(escape);
    }

    @Override
    void writeValue(SpecializedGetters row, int ordinal, KeyBuffer out) {
      byte[] b = row.getBinary(ordinal);
      put(b, Platform.BYTE_ARRAY_OFFSET, b.length, out);
    }
  }

  private static final ValueCode RAW_STRING = new StringBytes(false);
  private static final ValueCode ESCAPED_STRING = new StringBytes(true);
  private static final ValueCode RAW_BINARY = new BinaryBytes(false);
  private static final ValueCode ESCAPED_BINARY = new BinaryBytes(true);

  /** A string under a collation without binary ordering: the collation's sort key, escaped. */
  private static final class CollatedString extends ValueCode {
    private final CollationFactory.Collation collation;

    CollatedString(int collationId) {
      this.collation = CollationFactory.fetchCollation(collationId);
    }

    @Override
    void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      byte[] key = collation.sortKeyFunction.apply(row.getUTF8String(ordinal));
      out.putEscaped(key, Platform.BYTE_ARRAY_OFFSET, key.length);
    }
  }

  private static final class Struct extends ValueCode {
    private final ValueCode[] fields;

    Struct(ValueCode[] fields) {
      this.fields = fields;
    }

    @Override
    void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      SpecializedGetters s = row.getStruct(ordinal, fields.length);
      for (int i = 0; i < fields.length; i++) {
        if (s.isNullAt(i)) {
          out.put1(0);
        } else {
          out.put1(1);
          fields[i].write(s, i, out);
        }
      }
    }
  }

  private static final class Array extends ValueCode {
    private final ValueCode element;

    Array(ValueCode element) {
      this.element = element;
    }

    @Override
    void write(SpecializedGetters row, int ordinal, KeyBuffer out) {
      ArrayData a = row.getArray(ordinal);
      for (int i = 0, n = a.numElements(); i < n; i++) {
        if (a.isNullAt(i)) {
          out.put1(1);
        } else {
          out.put1(2);
          element.write(a, i, out);
        }
      }
      out.put1(0);
    }
  }
}
