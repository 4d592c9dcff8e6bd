package dev.joule.io.run;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * One block compressor of run format v3: none, LZ4 (lz4-java's native build where it loads, its
 * pure Java port otherwise) or zstd (zstd-jni's native build: there is no Java fallback, and a
 * platform without it fails the first zstd block with an {@link UnsatisfiedLinkError}, reported by
 * the sort as a failure naming the run, never a wrong result). The header of a run names its codec
 * by {@link #code()}.
 *
 * <p>Only LZ4's safe decompressor is used: it never reads or writes outside the ranges it is given,
 * whatever the input, and it is only ever given bytes whose CRC32C matched. Stateless and
 * thread-safe.
 */
public final class BlockCodec {
  /** Header code: blocks are stored as they are. */
  static final int NONE_CODE = 0;

  /** Header code: blocks may be LZ4 blocks. */
  static final int LZ4_CODE = 1;

  /** Header code: blocks may be zstd frames. */
  static final int ZSTD_CODE = 2;

  /** No compression. */
  public static final BlockCodec NONE = new BlockCodec(NONE_CODE, 0);

  /** LZ4 (its fast compressor). */
  public static final BlockCodec LZ4 = new BlockCodec(LZ4_CODE, 0);

  private static final class Lz4 {
    static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();
  }

  private final int code;
  private final int level;

  private BlockCodec(int code, int level) {
    this.code = code;
    this.level = level;
  }

  /** zstd at {@code level}. */
  public static BlockCodec zstd(int level) {
    return new BlockCodec(ZSTD_CODE, level);
  }

  /**
   * The decoder for a header's codec code, or null for an unknown code (the reader reports the run
   * corrupt).
   */
  static BlockCodec ofCode(int code) {
    switch (code) {
      case NONE_CODE:
        return NONE;
      case LZ4_CODE:
        return LZ4;
      case ZSTD_CODE:
        return zstd(0); // the level matters only when compressing
      default:
        return null;
    }
  }

  /** The header's code for this codec. */
  int code() {
    return code;
  }

  /**
   * Loads the codec's library now, so that its first block is not timed with the loading (the
   * {@code auto} rule measures the codec's speed) and a missing native library fails before the
   * first run rather than in it.
   *
   * @throws IllegalStateException if zstd's native library does not load on this platform
   */
  void load() {
    if (code == LZ4_CODE) {
      Lz4.COMPRESSOR.maxCompressedLength(1);
    } else if (code == ZSTD_CODE) {
      try {
        Zstd.compressBound(1);
      } catch (LinkageError e) {
        throw new IllegalStateException(
            "zstd compression needs zstd-jni's native library, which does not load on "
                + System.getProperty("os.name")
                + "/"
                + System.getProperty("os.arch")
                + " ("
                + e
                + "); use --compress lz4 or off",
            e);
      }
    }
  }

  /** Whether this codec compresses at all. */
  public boolean compresses() {
    return code != NONE_CODE;
  }

  /**
   * Compresses {@code [0, srcLength)} of {@code src} into {@code [0, dstCapacity)} of {@code dst}
   * (absolute indices; positions and limits unchanged). Returns the compressed length, or -1 if it
   * would not fit in {@code dstCapacity}.
   */
  int compress(ByteBuffer src, int srcLength, ByteBuffer dst, int dstCapacity) {
    if (code == LZ4_CODE) {
      try {
        return Lz4.COMPRESSOR.compress(src, 0, srcLength, dst, 0, dstCapacity);
      } catch (LZ4Exception e) {
        return -1; // does not fit: the block is stored raw
      }
    }
    if (code == ZSTD_CODE) {
      long n;
      try {
        if (src.isDirect() && dst.isDirect()) {
          n = Zstd.compressDirectByteBuffer(dst, 0, dstCapacity, src, 0, srcLength, level);
        } else {
          byte[] out = new byte[dstCapacity];
          n =
              Zstd.compressByteArray(
                  out, 0, dstCapacity, bytes(src, srcLength), 0, srcLength, level);
          if (!Zstd.isError(n)) {
            dst.put(0, out, 0, (int) n);
          }
        }
      } catch (ZstdException e) {
        return -1; // "Destination buffer is too small": the block is stored raw
      }
      return Zstd.isError(n) ? -1 : (int) n;
    }
    throw new IllegalStateException("codec " + this + " does not compress");
  }

  /**
   * Decompresses {@code [0, srcLength)} of {@code src} into {@code dst} from index {@code at}, at
   * most {@code capacity} bytes (absolute indices; positions and limits unchanged). Returns the
   * decompressed length.
   *
   * @throws IllegalArgumentException with the codec's reason if the bytes are not a valid block
   */
  int decompress(ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity) {
    if (code == LZ4_CODE) {
      try {
        return Lz4.DECOMPRESSOR.decompress(src, 0, srcLength, dst, at, capacity);
      } catch (LZ4Exception e) {
        throw new IllegalArgumentException("LZ4: " + e.getMessage(), e);
      }
    }
    if (code == ZSTD_CODE) {
      long n;
      try {
        if (src.isDirect() && dst.isDirect()) {
          n = Zstd.decompressDirectByteBuffer(dst, at, capacity, src, 0, srcLength);
        } else {
          byte[] out = new byte[capacity];
          n = Zstd.decompressByteArray(out, 0, capacity, bytes(src, srcLength), 0, srcLength);
          if (!Zstd.isError(n)) {
            dst.put(at, out, 0, (int) n);
          }
        }
      } catch (ZstdException e) {
        throw new IllegalArgumentException("zstd: " + e.getMessage(), e);
      }
      if (Zstd.isError(n)) {
        throw new IllegalArgumentException("zstd: " + Zstd.getErrorName(n));
      }
      return (int) n;
    }
    throw new IllegalStateException("codec " + this + " does not decompress");
  }

  private static byte[] bytes(ByteBuffer b, int n) {
    byte[] a = new byte[n];
    b.get(0, a);
    return a;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockCodec c && c.code == code && c.level == level;
  }

  @Override
  public int hashCode() {
    return code * 31 + level;
  }

  @Override
  public String toString() {
    switch (code) {
      case NONE_CODE:
        return "none";
      case LZ4_CODE:
        return "lz4";
      default:
        return level == 0 ? "zstd" : "zstd:" + level;
    }
  }
}
