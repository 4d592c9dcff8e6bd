package dev.joule.spark.record;

/**
 * Where the sort key sits in a wrapped record: the bytes that the range splitters, Spark's
 * partitioner and joule's engine all compare, as unsigned bytes. Every wrapped layout puts a unique
 * ordinal inside this key, so no two records compare equal and the order of equal user keys is the
 * input order.
 */
public interface SortKeyLayout {
  /** Bytes per wrapped record. */
  int wrappedSize();

  /** Offset of the sort key inside a wrapped record. */
  int sortKeyOffset();

  /** Length of the sort key (the user key plus whatever makes it unique). */
  int sortKeyLength();
}
