package dev.joule.testing;

import java.security.SecureRandom;
import java.util.Locale;

/**
 * The seed of a randomized test suite: fixed by default, so that a failure seen on CI reproduces on
 * the same commit from the seed its message names; a property makes it random for a run that
 * explores. Every suite prints the seed it uses when it takes it.
 *
 * <ul>
 *   <li>no property: the suite's own fixed default;
 *   <li>{@code -Djoule.test.seed=random}: a fresh seed per suite (printed; a failure names it);
 *   <li>{@code -Djoule.test.seed=N} (decimal, or hexadecimal with {@code 0x}): N in every suite, to
 *       replay a failure.
 * </ul>
 *
 * A suite with a property of its own (the GNU differential test's {@code joule.gnudiff.seed}) reads
 * that first, then {@link #PROPERTY}. Stateless; thread-safe.
 */
public final class TestSeed {
  /** The property every suite reads. */
  public static final String PROPERTY = "joule.test.seed";

  /** The value of {@link #PROPERTY} (or a suite's own property) that draws a fresh seed. */
  public static final String RANDOM = "random";

  private TestSeed() {}

  /** The seed of {@code suite}: {@link #PROPERTY}'s, or {@code fixed}; printed. */
  public static long of(Class<?> suite, long fixed) {
    return of(suite.getSimpleName(), null, fixed);
  }

  /**
   * The seed of the suite named {@code suite}: its own {@code property}'s (if not null and set),
   * else {@link #PROPERTY}'s, else {@code fixed}; printed with how to replay it.
   */
  public static long of(String suite, String property, long fixed) {
    String name = property != null && System.getProperty(property) != null ? property : PROPERTY;
    String value = System.getProperty(name);
    long seed;
    String how;
    if (value == null || value.isBlank()) {
      seed = fixed;
      how = "fixed; -D" + PROPERTY + "=" + RANDOM + " draws one";
    } else if (value.strip().equalsIgnoreCase(RANDOM)) {
      seed = new SecureRandom().nextLong();
      how = "drawn; replay with -D" + name + "=" + seed;
    } else {
      seed = parse(name, value.strip());
      how = "from -D" + name;
    }
    System.out.printf(Locale.ROOT, "%s: seed %d (0x%x, %s)%n", suite, seed, seed, how);
    return seed;
  }

  private static long parse(String property, String v) {
    try {
      return v.startsWith("0x") || v.startsWith("0X")
          ? Long.parseUnsignedLong(v.substring(2), 16)
          : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + property + "=" + v + ": not a seed (a number, 0x-hex, or " + RANDOM + ")", e);
    }
  }
}
