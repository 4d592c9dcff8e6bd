package dev.joule.io.config;

import java.util.Locale;
import java.util.Objects;

/**
 * How the blocks of temp runs are compressed: {@link #auto()} (the default) decides per run from
 * measurement, {@link #off()} never compresses, {@link #lz4()} and {@link #zstd(int)} always try
 * their codec, {@link #program(String)} pipes every block through an external program (GNU's {@code
 * --compress-program}). In every mode a block that does not shrink by at least one 4096-byte page
 * is stored as it is, so incompressible data costs the codec's attempt, never space.
 *
 * <p>{@code auto} compresses with LZ4 while the codec runs faster than the temp devices write and
 * shrinks the blocks, both by a margin and both measured during the sort on its own data
 * (docs/run-format.md, "Compression").
 *
 * <p>Immutable; the CLI's {@code --compress} spells it {@code auto|off|lz4|zstd[:LEVEL]} ({@link
 * #parse}), its {@code --compress-program=PROG} is {@link #program(String)}.
 */
public final class Compression {
  /** What the sort does with run blocks. */
  public enum Mode {
    /** Decide per run from the data's ratio, the codec's speed and the temp devices' speed. */
    AUTO,
    /** Never compress. */
    OFF,
    /** LZ4 (fast, about 2× on text). */
    LZ4,
    /** Zstandard at a level (slower, smaller). */
    ZSTD,
    /** An external program: {@code PROG} compresses standard input, {@code PROG -d} restores it. */
    PROGRAM
  }

  /** The zstd level when none is given: the fastest of the regular levels. */
  public static final int DEFAULT_ZSTD_LEVEL = 1;

  /** Lowest zstd level accepted (negative levels are zstd's "fast" ones). */
  public static final int MIN_ZSTD_LEVEL = -7;

  /** Highest zstd level accepted. */
  public static final int MAX_ZSTD_LEVEL = 22;

  private static final Compression AUTO = new Compression(Mode.AUTO, 0);
  private static final Compression OFF = new Compression(Mode.OFF, 0);
  private static final Compression LZ4 = new Compression(Mode.LZ4, 0);

  private final Mode mode;
  private final int level;
  private final String program; // PROGRAM only

  private Compression(Mode mode, int level) {
    this(mode, level, null);
  }

  private Compression(Mode mode, int level, String program) {
    this.mode = mode;
    this.level = level;
    this.program = program;
  }

  /** Decide from measurement (the default). */
  public static Compression auto() {
    return AUTO;
  }

  /** Never compress temp runs. */
  public static Compression off() {
    return OFF;
  }

  /** Always try LZ4. */
  public static Compression lz4() {
    return LZ4;
  }

  /**
   * Always try zstd at {@code level}, from {@value #MIN_ZSTD_LEVEL} to {@value #MAX_ZSTD_LEVEL}.
   *
   * @throws IllegalArgumentException for a level outside that range
   */
  public static Compression zstd(int level) {
    if (level < MIN_ZSTD_LEVEL || level > MAX_ZSTD_LEVEL || level == 0) {
      throw new IllegalArgumentException(
          "zstd level "
              + level
              + " is not between "
              + MIN_ZSTD_LEVEL
              + " and "
              + MAX_ZSTD_LEVEL
              + " (0 excluded)");
    }
    return new Compression(Mode.ZSTD, level);
  }

  /**
   * Every block through {@code program}, as GNU sort's {@code --compress-program} does: the program
   * (found on {@code PATH} unless it names a path) is run once per block, with no argument to
   * compress the block from its standard input to its standard output and with {@code -d} to
   * restore it. Exiting with a status other than 0 fails the sort.
   *
   * @throws IllegalArgumentException for an empty name
   */
  public static Compression program(String program) {
    if (program.isEmpty()) {
      throw new IllegalArgumentException("the compress program's name is empty");
    }
    return new Compression(Mode.PROGRAM, 0, program);
  }

  /**
   * Parses {@code auto}, {@code off}, {@code lz4}, {@code zstd} or {@code zstd:LEVEL} (case
   * ignored).
   *
   * @throws IllegalArgumentException naming what was given and what is accepted
   */
  public static Compression parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    switch (s) {
      case "auto":
        return AUTO;
      case "off":
      case "none":
        return OFF;
      case "lz4":
        return LZ4;
      case "zstd":
        return zstd(DEFAULT_ZSTD_LEVEL);
      default:
        break;
    }
    if (s.startsWith("zstd:")) {
      int level;
      try {
        level = Integer.parseInt(s.substring(5));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "bad zstd level in '" + text + "': expected zstd:LEVEL with LEVEL a number", e);
      }
      return zstd(level);
    }
    throw new IllegalArgumentException(
        "unknown compression '" + text + "': expected auto, off, lz4, zstd or zstd:LEVEL");
  }

  /** The mode. */
  public Mode mode() {
    return mode;
  }

  /** The zstd level ({@link Mode#ZSTD} only; 0 otherwise). */
  public int level() {
    return level;
  }

  /** The program ({@link Mode#PROGRAM} only; null otherwise). */
  public String program() {
    return program;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Compression c
        && c.mode == mode
        && c.level == level
        && Objects.equals(c.program, program);
  }

  @Override
  public int hashCode() {
    return (mode.hashCode() * 31 + level) * 31 + Objects.hashCode(program);
  }

  /**
   * As {@link #parse} reads it: {@code auto}, {@code off}, {@code lz4} or {@code zstd:LEVEL}; a
   * program is {@code program:PROG}, which {@link #parse} does not read (a program is never named
   * by the same option as a codec).
   */
  @Override
  public String toString() {
    switch (mode) {
      case ZSTD:
        return "zstd:" + level;
      case PROGRAM:
        return "program:" + program;
      default:
        return mode.name().toLowerCase(Locale.ROOT);
    }
  }
}
