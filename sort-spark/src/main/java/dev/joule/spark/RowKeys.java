package dev.joule.spark;

import dev.joule.core.key.KeyEncoder;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
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
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.YearMonthIntervalType;

/**
 * The binary sort key of a Dataset's rows: the sort columns' values encoded by joule's {@link
 * KeyEncoder}, so that the unsigned byte order of the keys is Spark SQL's order of the rows by
 * those columns (each ascending or descending, nulls first or last).
 *
 * <p>How each Spark type is encoded, and why that is Spark's order:
 *
 * <ul>
 *   <li>boolean, byte, short, int, date (days), year-month interval (months): {@code INT32}; false
 *       before true;
 *   <li>long, timestamp and timestamp without time zone (microseconds), day-time interval
 *       (microseconds): {@code INT64};
 *   <li>float, double: {@code FLOAT32}, {@code FLOAT64} after mapping every NaN to the canonical
 *       NaN and -0.0 to 0.0: Spark orders NaN after every other value, NaNs as equal, and -0.0 as
 *       0.0, which the encoder's IEEE total order then gives;
 *   <li>string: its UTF-8 bytes as {@code BYTES}, which is Spark's binary string order (only
 *       collations with binary ordering; others are refused);
 *   <li>binary: {@code BYTES}, unsigned and shorter first, as Spark compares byte arrays;
 *   <li>decimal: {@code DECIMAL}, by numeric value.
 * </ul>
 *
 * Columns of other types (arrays, structs, maps, variants, calendar intervals) are refused with the
 * column's name. A column the schema declares non-nullable gets no null marker. Immutable and
 * serializable; a {@link Writer} is one per task.
 */
final class RowKeys implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How a column's value is read from an {@link InternalRow}. */
  private enum Access {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    STRING,
    BINARY,
    DECIMAL
  }

  private final int[] ordinals;
  private final Access[] access;
  private final int[] precision; // DECIMAL only
  private final int[] scale; // DECIMAL only
  private final KeyEncoder.Type[] types;
  private final boolean[] descending;
  private final KeyEncoder.Nulls[] nulls;

  private RowKeys(
      int[] ordinals,
      Access[] access,
      int[] precision,
      int[] scale,
      KeyEncoder.Type[] types,
      boolean[] descending,
      KeyEncoder.Nulls[] nulls) {
    this.ordinals = ordinals;
    this.access = access;
    this.precision = precision;
    this.scale = scale;
    this.types = types;
    this.descending = descending;
    this.nulls = nulls;
  }

  /**
   * The keys of {@code schema}'s rows by {@code columns}, in order of precedence.
   *
   * @throws IllegalArgumentException when there is no column, a column is missing, or its type has
   *     no binary order here
   */
  static RowKeys of(StructType schema, List<SortColumn> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a sort needs at least one column");
    }
    int n = columns.size();
    int[] ordinals = new int[n];
    Access[] access = new Access[n];
    int[] precision = new int[n];
    int[] scale = new int[n];
    KeyEncoder.Type[] types = new KeyEncoder.Type[n];
    boolean[] descending = new boolean[n];
    KeyEncoder.Nulls[] nulls = new KeyEncoder.Nulls[n];
    for (int i = 0; i < n; i++) {
      SortColumn c = columns.get(i);
      StructField f = field(schema, c.name());
      ordinals[i] = schema.fieldIndex(c.name());
      DataType t = f.dataType();
      access[i] = access(c.name(), t);
      types[i] = type(access[i]);
      if (t instanceof DecimalType d) {
        precision[i] = d.precision();
        scale[i] = d.scale();
      }
      descending[i] = c.descending();
      nulls[i] =
          !f.nullable()
              ? KeyEncoder.Nulls.NEVER
              : c.isNullsFirst() ? KeyEncoder.Nulls.FIRST : KeyEncoder.Nulls.LAST;
    }
    return new RowKeys(ordinals, access, precision, scale, types, descending, nulls);
  }

  private static StructField field(StructType schema, String name) {
    try {
      return schema.apply(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no column " + name + " in " + schema.simpleString(), e);
    }
  }

  private static Access access(String name, DataType t) {
    if (t instanceof BooleanType) {
      return Access.BOOLEAN;
    } else if (t instanceof ByteType) {
      return Access.BYTE;
    } else if (t instanceof ShortType) {
      return Access.SHORT;
    } else if (t instanceof IntegerType
        || t instanceof DateType
        || t instanceof YearMonthIntervalType) {
      return Access.INT;
    } else if (t instanceof LongType
        || t instanceof TimestampType
        || t instanceof TimestampNTZType
        || t instanceof DayTimeIntervalType) {
      return Access.LONG;
    } else if (t instanceof FloatType) {
      return Access.FLOAT;
    } else if (t instanceof DoubleType) {
      return Access.DOUBLE;
    } else if (t instanceof StringType s) {
      if (!s.supportsBinaryOrdering()) {
        throw new IllegalArgumentException(
            "sort column "
                + name
                + " has collation "
                + s.collationName()
                + ", whose order is not its bytes' order; only binary-ordered strings sort here");
      }
      return Access.STRING;
    } else if (t instanceof BinaryType) {
      return Access.BINARY;
    } else if (t instanceof DecimalType) {
      return Access.DECIMAL;
    }
    throw new IllegalArgumentException(
        "sort column "
            + name
            + " is "
            + t.simpleString()
            + ", which has no binary sort key here (supported: numbers, booleans, strings, binary,"
            + " decimals, dates, timestamps and ANSI intervals)");
  }

  private static KeyEncoder.Type type(Access a) {
    switch (a) {
      case LONG:
        return KeyEncoder.Type.INT64;
      case FLOAT:
        return KeyEncoder.Type.FLOAT32;
      case DOUBLE:
        return KeyEncoder.Type.FLOAT64;
      case STRING:
      case BINARY:
        return KeyEncoder.Type.BYTES;
      case DECIMAL:
        return KeyEncoder.Type.DECIMAL;
      default:
        return KeyEncoder.Type.INT32;
    }
  }

  /** A writer of keys; one per task. */
  Writer newWriter() {
    KeyEncoder.Builder b = KeyEncoder.builder();
    for (int i = 0; i < types.length; i++) {
      b.field(types[i], descending[i], nulls[i]);
    }
    return new Writer(b.build().newWriter());
  }

  /** Encodes the keys of rows, one at a time. Not thread-safe. */
  final class Writer {
    private final KeyEncoder.Writer w;

    private Writer(KeyEncoder.Writer w) {
      this.w = w;
    }

    /** The key of {@code row}, as a new array. */
    byte[] key(InternalRow row) {
      w.reset();
      for (int i = 0; i < ordinals.length; i++) {
        int o = ordinals[i];
        if (row.isNullAt(o)) {
          w.nullValue();
          continue;
        }
        switch (access[i]) {
          case BOOLEAN -> w.int32(row.getBoolean(o) ? 1 : 0);
          case BYTE -> w.int32(row.getByte(o));
          case SHORT -> w.int32(row.getShort(o));
          case INT -> w.int32(row.getInt(o));
          case LONG -> w.int64(row.getLong(o));
          case FLOAT -> w.float32(sparkOrder(row.getFloat(o)));
          case DOUBLE -> w.float64(sparkOrder(row.getDouble(o)));
          case STRING -> w.bytes(row.getUTF8String(o).getBytes());
          case BINARY -> w.bytes(row.getBinary(o));
          case DECIMAL -> {
            Decimal d = row.getDecimal(o, precision[i], scale[i]);
            if (precision[i] <= Decimal.MAX_LONG_DIGITS()) {
              w.decimal(d.toUnscaledLong(), scale[i]);
            } else {
              w.decimal(d.toJavaBigDecimal());
            }
          }
        }
      }
      return w.toByteArray();
    }
  }

  /** The float that stands for {@code v} in Spark's order: one NaN, and no -0.0. */
  static float sparkOrder(float v) {
    return Float.isNaN(v) ? Float.NaN : v == 0.0f ? 0.0f : v;
  }

  /** The double that stands for {@code v} in Spark's order: one NaN, and no -0.0. */
  static double sparkOrder(double v) {
    return Double.isNaN(v) ? Double.NaN : v == 0.0 ? 0.0 : v;
  }
}
