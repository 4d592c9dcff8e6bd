package dev.joule.spark;

import java.io.Serializable;
import java.util.Objects;

/**
 * One column of a Dataset sort ({@link JouleSpark#sortBy}): its name, its direction and where its
 * nulls go. The defaults are Spark SQL's: ascending puts nulls first, descending puts them last.
 * Immutable.
 */
public final class SortColumn implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final boolean descending;
  private final boolean nullsFirst;

  private SortColumn(String name, boolean descending, boolean nullsFirst) {
    this.name = Objects.requireNonNull(name, "name");
    this.descending = descending;
    this.nullsFirst = nullsFirst;
  }

  /** Column {@code name}, ascending, nulls first. */
  public static SortColumn asc(String name) {
    return new SortColumn(name, false, true);
  }

  /** Column {@code name}, descending, nulls last. */
  public static SortColumn desc(String name) {
    return new SortColumn(name, true, false);
  }

  /** This column with its nulls before every value. */
  public SortColumn nullsFirst() {
    return new SortColumn(name, descending, true);
  }

  /** This column with its nulls after every value. */
  public SortColumn nullsLast() {
    return new SortColumn(name, descending, false);
  }

  public String name() {
    return name;
  }

  public boolean descending() {
    return descending;
  }

  public boolean isNullsFirst() {
    return nullsFirst;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SortColumn c
        && c.name.equals(name)
        && c.descending == descending
        && c.nullsFirst == nullsFirst;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, descending, nullsFirst);
  }

  /** As Spark SQL writes it, such as {@code score DESC NULLS LAST}. */
  @Override
  public String toString() {
    return name + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
  }
}
