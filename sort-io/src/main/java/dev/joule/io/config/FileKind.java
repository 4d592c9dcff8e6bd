package dev.joule.io.config;

/**
 * The three kinds of file a sort touches; each has its own transfer size ({@link TransferSizes}).
 */
public enum FileKind {
  /** The input being sorted, read sequentially once. */
  INPUT,
  /** The published output, written sequentially once. */
  OUTPUT,
  /** Temporary run files: written sequentially, read back block by block by position. */
  TEMP
}
