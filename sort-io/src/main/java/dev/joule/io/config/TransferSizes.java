package dev.joule.io.config;

import dev.joule.core.memory.Alignment;
import java.util.EnumMap;
import java.util.Map;

/**
 * Bytes moved per read or write system call, per {@link FileKind} (Nsort keeps one per file kind
 * too). Each is a positive multiple of {@link Alignment#BYTES}, so that direct transfers stay
 * aligned.
 *
 * <p>Immutable and thread-safe.
 */
public final class TransferSizes {
  /**
   * Default transfer size: 4 MiB. Transfers of 1–4 MiB already reach the disk's sequential speed on
   * these machines (docs/decisions/D4; sort-bench/results/io.md).
   */
  public static final int DEFAULT_TRANSFER = 4 << 20;

  private final Map<FileKind, Integer> sizes;

  private TransferSizes(Map<FileKind, Integer> sizes) {
    this.sizes = sizes;
  }

  /** 4 MiB for every kind. */
  public static TransferSizes defaults() {
    Map<FileKind, Integer> m = new EnumMap<>(FileKind.class);
    for (FileKind k : FileKind.values()) {
      m.put(k, DEFAULT_TRANSFER);
    }
    return new TransferSizes(m);
  }

  /** A copy with {@code kind}'s transfer size set to {@code bytes}. */
  public TransferSizes with(FileKind kind, int bytes) {
    if (bytes <= 0 || bytes % Alignment.BYTES != 0) {
      throw new IllegalArgumentException(
          "transfer size for "
              + kind
              + " must be a positive multiple of "
              + Alignment.BYTES
              + ": "
              + bytes);
    }
    Map<FileKind, Integer> m = new EnumMap<>(sizes);
    m.put(kind, bytes);
    return new TransferSizes(m);
  }

  /** The transfer size for {@code kind}, in bytes. */
  public int of(FileKind kind) {
    return sizes.get(kind);
  }

  @Override
  public String toString() {
    return sizes.toString();
  }
}
