package dev.joule.core.gensort;

/**
 * What gensort generates: a {@link RecordLayout} plus the optional key skew of gensort 1.5's {@code
 * -s} (docs/formats.md, Skew). Skew is defined by the reference for {@link RecordLayout#BINARY} and
 * {@link RecordLayout#ASCII} only, so it is rejected for {@link RecordLayout#LEGACY}.
 *
 * @param layout the record layout
 * @param skew whether keys are skewed onto about 129 prefixes
 */
public record GensortMode(RecordLayout layout, boolean skew) {
  /** The gensort 1.5 default: binary, not skewed. */
  public static final GensortMode BINARY = new GensortMode(RecordLayout.BINARY, false);

  /** {@code gensort -a}. */
  public static final GensortMode ASCII = new GensortMode(RecordLayout.ASCII, false);

  /** Validates the combination. */
  public GensortMode {
    if (layout == null) {
      throw new IllegalArgumentException("layout is null");
    }
    if (skew && layout == RecordLayout.LEGACY) {
      throw new IllegalArgumentException("skewed keys are not defined for the legacy layout");
    }
  }
}
