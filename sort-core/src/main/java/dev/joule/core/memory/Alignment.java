package dev.joule.core.memory;

/**
 * The one alignment of direct I/O in joule: the JDK's O_DIRECT channels demand that the buffer
 * address, the file position and the length of every transfer be multiples of the file system's
 * block size, which is 4096 bytes on the file systems joule runs on (ext4, xfs, tmpfs). Arena slabs
 * and their windows, block-pool buffers, run-file regions and the input positions where runs start
 * all use this one constant.
 *
 * <p>Stateless.
 */
public final class Alignment {
  /** Bytes of one aligned page: address, position and length granule of every direct transfer. */
  public static final int BYTES = 4096;

  private Alignment() {}

  /** {@code n} rounded up to a multiple of {@link #BYTES}. */
  public static long roundUp(long n) {
    return (n + BYTES - 1) & -BYTES;
  }

  /** {@code n} rounded down to a multiple of {@link #BYTES}. */
  public static long roundDown(long n) {
    return n & -BYTES;
  }

  /**
   * Records of {@code recordSize} bytes per aligned stretch: the smallest record count whose bytes
   * are a multiple of {@link #BYTES}, {@code 4096 / gcd(recordSize, 4096)} (1024 for gensort's
   * 100-byte records, since gcd(100, 4096) = 4). Runs that start at a multiple of this many records
   * start at an aligned input offset.
   */
  public static long recordQuantum(int recordSize) {
    int a = recordSize;
    int b = BYTES;
    while (b != 0) {
      int t = a % b;
      a = b;
      b = t;
    }
    return BYTES / a;
  }
}
