package dev.joule.io.report;

/**
 * What compressing the temp runs did over a whole sort (docs/run-format.md, "Compression"): the
 * policy it was given, the codec tried, the run blocks written uncompressed and as stored, and the
 * CPU the codec took. {@code storedBytes} counts what reached the temp files for those blocks
 * (whole pages; a block that did not shrink is stored raw and counts its raw length), so {@link
 * #savedBytes} is temp traffic the sort did not write, and later read back.
 *
 * @param policy the compression policy ({@code auto}, {@code off}, {@code lz4}, {@code zstd:N} or
 *     {@code program:PROG})
 * @param codec the codec tried on blocks ({@code none} when none was)
 * @param rawBytes run block bytes written, uncompressed
 * @param storedBytes the bytes those blocks took in the temp files
 * @param blocks run blocks written
 * @param compressedBlocks of them, the blocks stored compressed
 * @param triedBytes raw bytes of the blocks the codec was tried on ({@code auto} tries a sample of
 *     the blocks it keeps raw)
 * @param compressNanos CPU time spent compressing (of the writing threads; blocks tried but kept
 *     raw included)
 * @param decompressNanos time spent decompressing blocks for merges
 * @param probedReadRate what {@code auto}'s timed read of a run gave for the temp devices, in bytes
 *     per second (0 when none was made or it gave nothing)
 */
public record CompressionReport(
    String policy,
    String codec,
    long rawBytes,
    long storedBytes,
    long blocks,
    long compressedBlocks,
    long triedBytes,
    long compressNanos,
    long decompressNanos,
    double probedReadRate) {
  /** No temp run written, or compression off. */
  public static final CompressionReport NONE =
      new CompressionReport("off", "none", 0, 0, 0, 0, 0, 0, 0, 0);

  /** Stored bytes per raw byte (1 when nothing was written). */
  public double ratio() {
    return rawBytes == 0 ? 1 : (double) storedBytes / rawBytes;
  }

  /** Temp bytes not written thanks to compression (0 or more). */
  public long savedBytes() {
    return Math.max(0, rawBytes - storedBytes);
  }

  /** Whether a codec was tried on any block (a policy other than off, and runs written). */
  public boolean tried() {
    return !"none".equals(codec) && blocks > 0;
  }

  /** The codec's rate: raw megabytes it was tried on per CPU-second (0 when it was not). */
  public double compressMegabytesPerCpuSecond() {
    return compressNanos == 0 ? 0 : triedBytes / 1e6 / (compressNanos / 1e9);
  }

  void appendJson(JsonWriter w) {
    w.beginObject("compression")
        .field("policy", policy)
        .field("codec", codec)
        .field("rawBytes", rawBytes)
        .field("storedBytes", storedBytes)
        .field("savedBytes", savedBytes())
        .field("blocks", blocks)
        .field("compressedBlocks", compressedBlocks)
        .field("triedBytes", triedBytes)
        .field("compressSeconds", compressNanos / 1e9)
        .field("decompressSeconds", decompressNanos / 1e9)
        .field("probedReadBytesPerSecond", Math.round(probedReadRate))
        .endObject();
  }
}
