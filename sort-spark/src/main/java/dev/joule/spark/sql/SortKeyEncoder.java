package dev.joule.spark.sql;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A row's sort key under a {@code SortExec}'s orders: per order a null marker, never inverted
 * ({@code 0x00} null / {@code 0x01} present with nulls first, {@code 0x01} present / {@code 0x02}
 * null with nulls last), then the value's {@link ValueCode}, inverted when descending. The keys'
 * unsigned byte order is Spark's order of the rows; rows that Spark holds equal get equal keys.
 *
 * <p>Orders on input columns read the row in place; any other expression ({@code ORDER BY a + b})
 * is evaluated first by Spark's own projection of all the order expressions. Not thread-safe: one
 * per task ({@link #bind}).
 */
final class SortKeyEncoder {
  private final ValueCode[] codes;
  private final int[] ordinals;
  private final boolean[] descending;
  private final boolean[] nullsFirst;
  private final UnsafeProjection projection; // null when every order reads an input column
  private final KeyBuffer key = new KeyBuffer();

  private SortKeyEncoder(
      ValueCode[] codes,
      int[] ordinals,
      boolean[] descending,
      boolean[] nullsFirst,
      UnsafeProjection projection) {
    this.codes = codes;
    this.ordinals = ordinals;
    this.descending = descending;
    this.nullsFirst = nullsFirst;
    this.projection = projection;
  }

  /**
   * Why {@code orders} have no binary key here, or null when they have one.
   *
   * @param orders a sort's orders (bound or not: only their types matter)
   * @param icuSortKeys whether strings under ICU collations sort by ICU's sort keys
   */
  static String unsupported(List<SortOrder> orders, boolean icuSortKeys) {
    for (int i = 0; i < orders.size(); i++) {
      DataType t = orders.get(i).dataType();
      try {
        ValueCode.of(t, false, icuSortKeys);
      } catch (ValueCode.Unsupported e) {
        return orders.get(i).child().sql() + ": " + e.getMessage();
      }
    }
    return null;
  }

  /**
   * The encoder of rows of {@code input} under {@code orders}.
   *
   * @throws IllegalArgumentException when an order's type has no code ({@link #unsupported} says
   *     which: the planner checked it first)
   */
  static SortKeyEncoder bind(List<SortOrder> orders, List<Attribute> input, boolean icuSortKeys) {
    int n = orders.size();
    ValueCode[] codes = new ValueCode[n];
    int[] ordinals = new int[n];
    boolean[] descending = new boolean[n];
    boolean[] nullsFirst = new boolean[n];
    List<Expression> bound = new ArrayList<>(n);
    boolean inPlace = true;
    for (int i = 0; i < n; i++) {
      SortOrder o = orders.get(i);
      descending[i] = !o.isAscending();
      nullsFirst[i] = o.nullOrdering().sql().equals("NULLS FIRST");
      try {
        codes[i] = ValueCode.of(o.dataType(), i == n - 1 && !descending[i], icuSortKeys);
      } catch (ValueCode.Unsupported e) {
        throw new IllegalArgumentException(o.child().sql() + ": " + e.getMessage(), e);
      }
      Expression e = o.child();
      bound.add(e);
      ordinals[i] = e instanceof Attribute a ? indexOf(input, a) : -1;
      inPlace &= ordinals[i] >= 0;
    }
    UnsafeProjection projection = null;
    if (!inPlace) {
      projection =
          UnsafeProjection.create(
              CollectionConverters.asScala(bound).toSeq(),
              CollectionConverters.asScala(input).toSeq());
      for (int i = 0; i < n; i++) {
        ordinals[i] = i;
      }
    }
    return new SortKeyEncoder(codes, ordinals, descending, nullsFirst, projection);
  }

  private static int indexOf(List<Attribute> input, Attribute a) {
    for (int i = 0; i < input.size(); i++) {
      if (input.get(i).exprId().equals(a.exprId())) {
        return i;
      }
    }
    return -1;
  }

  /** The key of {@code row}: a view valid until the next call. */
  ByteBuffer encode(InternalRow row) {
    InternalRow source = projection == null ? row : projection.apply(row);
    KeyBuffer k = key;
    k.reset();
    for (int i = 0; i < codes.length; i++) {
      int o = ordinals[i];
      if (source.isNullAt(o)) {
        k.put1(nullsFirst[i] ? 0 : 2);
        continue;
      }
      k.put1(1);
      int start = k.length();
      codes[i].write(source, o, k);
      if (descending[i]) {
        k.invertFrom(start);
      }
    }
    return k.key();
  }

  /** A copy of {@link #encode}'s key, for tests. */
  byte[] encodeToArray(InternalRow row) {
    encode(row);
    return key.toByteArray();
  }

  /** Whether rows are {@link UnsafeRow}s read in place (no projection), for tests. */
  boolean readsInPlace() {
    return projection == null;
  }
}
