package dev.joule.spark.partition;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;

/** Lexicographic order of byte arrays as unsigned bytes (memcmp order); for Spark's own sort. */
public final class UnsignedBytesComparator implements Comparator<byte[]>, Serializable {
  private static final long serialVersionUID = 1L;

  @Override
  public int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }
}
