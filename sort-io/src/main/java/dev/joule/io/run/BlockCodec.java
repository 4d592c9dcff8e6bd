package dev.joule.io.run;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import dev.joule.io.block.SortThreads;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * One block compressor of run format v3: none, LZ4 (lz4-java's native build where it loads, its
 * pure Java port otherwise), zstd (zstd-jni's native build: there is no Java fallback, and a
 * platform without it fails the first zstd block with an {@link UnsatisfiedLinkError}, reported by
 * the sort as a failure naming the run, never a wrong result) or an external program ({@link
 * ProgramCodec}, GNU's {@code --compress-program}). The header of a run names its codec by {@link
 * #code()}; a program is not named there, and a reader runs only the program its own sort was
 * given, never one a file names.
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

  /** Header code: blocks may be what the sort's compress program wrote. */
  static final int PROGRAM_CODE = 3;

  /** No compression. */
  public static final BlockCodec NONE = new BlockCodec(NONE_CODE, 0);

  /** LZ4 (its fast compressor). */
  public static final BlockCodec LZ4 = new BlockCodec(LZ4_CODE, 0);

  /**
   * Everything that names lz4-java's types. Kept out of {@link BlockCodec}'s own methods (their
   * exception handlers included) so that verifying it loads none of them: a sort with compression
   * off runs without lz4-java on the class path.
   */
  private static final class Lz4 {
    static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    static final LZ4Compressor COMPRESSOR = FACTORY.fastCompressor();
    static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

    static int compress(ByteBuffer src, int srcLength, ByteBuffer dst, int dstCapacity) {
      try {
        return COMPRESSOR.compress(src, 0, srcLength, dst, 0, dstCapacity);
      } catch (LZ4Exception e) {
        return -1; // does not fit: the block is stored raw
      }
    }

    static int decompress(ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity) {
      try {
        return DECOMPRESSOR.decompress(src, 0, srcLength, dst, at, capacity);
      } catch (LZ4Exception e) {
        throw new IllegalArgumentException("LZ4: " + e.getMessage(), e);
      }
    }
  }

  /** Everything that names zstd-jni's types, for the same reason as {@link Lz4}. */
  private static final class ZstdBlocks {
    static void load() {
      Zstd.compressBound(1);
    }

    static int compress(ByteBuffer src, int srcLength, ByteBuffer dst, int dstCapacity, int level) {
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

    static int decompress(ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity) {
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
  }

  private final int code;
  private final int level;
  private final ProgramCodec program; // PROGRAM_CODE only

  private BlockCodec(int code, int level) {
    this(code, level, null);
  }

  private BlockCodec(int code, int level, ProgramCodec program) {
    this.code = code;
    this.level = level;
    this.program = program;
  }

  /** zstd at {@code level}. */
  public static BlockCodec zstd(int level) {
    return new BlockCodec(ZSTD_CODE, level);
  }

  /** The external {@code program}, its helper threads from {@code threads}. */
  public static BlockCodec program(String program, SortThreads threads) {
    return new BlockCodec(PROGRAM_CODE, 0, new ProgramCodec(program, threads));
  }

  /**
   * The decoder for a header's codec code, or null for an unknown code (the reader reports the run
   * corrupt). A program's code gives {@code sorts} codec if that is a program, else null: a run is
   * decoded only by the program of the sort that reads it.
   */
  static BlockCodec ofCode(int code, BlockCodec sorts) {
    switch (code) {
      case NONE_CODE:
        return NONE;
      case LZ4_CODE:
        return LZ4;
      case ZSTD_CODE:
        return zstd(0); // the level matters only when compressing
      case PROGRAM_CODE:
        return sorts != null && sorts.code == PROGRAM_CODE ? sorts : null;
      default:
        return null;
    }
  }

  /** Whether blocks go through an external program (whose failures name it, not the run). */
  boolean external() {
    return code == PROGRAM_CODE;
  }

  /** The program's name quoted as messages name it ({@link #external()} only). */
  String programName() {
    return ProgramCodec.quote(program.program());
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
        ZstdBlocks.load();
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
   *
   * @throws ProgramCodec.Failure if the codec is a program and it fails
   */
  int compress(ByteBuffer src, int srcLength, ByteBuffer dst, int dstCapacity)
      throws ProgramCodec.Failure {
    if (code == PROGRAM_CODE) {
      return program.compress(src, srcLength, dst, dstCapacity);
    }
    if (code == LZ4_CODE) {
      return Lz4.compress(src, srcLength, dst, dstCapacity);
    }
    if (code == ZSTD_CODE) {
      return ZstdBlocks.compress(src, srcLength, dst, dstCapacity, level);
    }
    throw new IllegalStateException("codec " + this + " does not compress");
  }

  /**
   * Decompresses {@code [0, srcLength)} of {@code src} into {@code dst} from index {@code at}, at
   * most {@code capacity} bytes (absolute indices; positions and limits unchanged). Returns the
   * decompressed length.
   *
   * @throws IllegalArgumentException with the codec's reason if the bytes are not a valid block
   * @throws ProgramCodec.Failure if the codec is a program and it fails
   */
  int decompress(ByteBuffer src, int srcLength, ByteBuffer dst, int at, int capacity)
      throws ProgramCodec.Failure {
    if (code == PROGRAM_CODE) {
      return program.decompress(src, srcLength, dst, at, capacity);
    }
    if (code == LZ4_CODE) {
      return Lz4.decompress(src, srcLength, dst, at, capacity);
    }
    if (code == ZSTD_CODE) {
      return ZstdBlocks.decompress(src, srcLength, dst, at, capacity);
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
    return o instanceof BlockCodec c
        && c.code == code
        && c.level == level
        && (program == null
            ? c.program == null
            : c.program != null && program.program().equals(c.program.program()));
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
      case PROGRAM_CODE:
        return "program:" + program.program();
      default:
        return level == 0 ? "zstd" : "zstd:" + level;
    }
  }
}
