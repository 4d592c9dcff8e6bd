package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.testing.GnuSort;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sorts seeded random lines in Java (normalized key, then {@code compareTail}, then GNU's
 * last-resort whole-line comparison) and with this machine's GNU sort ({@code LC_ALL=C}, no {@code
 * -s}), for random {@code -t}, {@code -k} positions and ordering options, and compares the outputs
 * byte for byte. Skipped, with the reason printed, where GNU sort is absent.
 */
class GnuSortDifferentialTest {
  private static final int CASES = Integer.getInteger("joule.test.gnuCases", 2500);
  private static final String KINDS = "nghMV";
  private static KeyType.GnuRelease release;

  @BeforeAll
  static void gnuSort() throws Exception {
    String why = GnuSort.unavailable();
    if (why != null) {
      System.out.println("GnuSortDifferentialTest skipped: " + why);
    }
    Assumptions.assumeTrue(why == null, why);
    release = GnuSort.release();
    System.out.println(GnuSort.version() + ", quirks of " + release);
  }

  /** Ordering letters for one key or the global options: at most one kind, plus modifiers. */
  private static String options(Random r) {
    StringBuilder s = new StringBuilder();
    int kind = r.nextInt(KINDS.length() + 3);
    boolean textual = kind >= KINDS.length();
    if (!textual) {
      s.append(KINDS.charAt(kind));
    }
    if (r.nextInt(4) == 0) {
      s.append('f');
    }
    if ((textual || KINDS.charAt(kind) == 'V') && r.nextInt(3) == 0) {
      s.append(r.nextBoolean() ? 'd' : 'i');
    }
    if (r.nextInt(4) == 0) {
      s.append('b');
    }
    if (r.nextInt(4) == 0) {
      s.append('r');
    }
    return s.toString();
  }

  private static String position(Random r, boolean start) {
    StringBuilder s = new StringBuilder().append(start ? 1 + r.nextInt(4) : 1 + r.nextInt(5));
    if (r.nextInt(3) == 0) {
      s.append('.').append(start ? 1 + r.nextInt(5) : r.nextInt(5));
    }
    if (r.nextInt(5) == 0) {
      s.append('b');
    }
    return s.toString();
  }

  @Test
  void matchesGnuSort() {
    for (int c = 0; c < CASES; c++) {
      Seeds.run("GNU sort differential", 5000 + c, GnuSortDifferentialTest::oneCase);
    }
  }

  private static void oneCase(long seed) throws Exception {
    Random r = new Random(seed);
    int sep = r.nextBoolean() ? TextPosition.BLANK_SEPARATED : ":,. \t-".charAt(r.nextInt(6));
    String global = r.nextInt(3) == 0 ? "" : options(r);
    List<String> keys = new ArrayList<>();
    for (int k = r.nextInt(4); k > 0; k--) {
      String key = position(r, true);
      if (r.nextInt(3) > 0) {
        key += "," + position(r, false);
      }
      if (r.nextBoolean()) {
        key += options(r).replace("b", "");
      }
      keys.add(key);
    }
    List<String> args = new ArrayList<>();
    if (!global.isEmpty()) {
      args.add("-" + global);
    }
    if (sep != TextPosition.BLANK_SEPARATED) {
      args.add("-t");
      args.add(String.valueOf((char) sep));
    }
    for (String k : keys) {
      args.add("-k");
      args.add(k);
    }
    List<byte[]> lines = new ArrayList<>();
    int n = 20 + r.nextInt(200);
    for (int i = 0; i < n; i++) {
      lines.add(
          r.nextInt(8) == 0 && !lines.isEmpty()
              ? lines.get(r.nextInt(lines.size())).clone()
              : Gen.line(r, sep, r.nextInt(20) == 0));
    }
    if (release == KeyType.GnuRelease.COREUTILS_9_1 && String.join("", args).contains("g")) {
      // coreutils 9.1 breaks ties between equal NaNs with uninitialized padding bytes of the
      // long double (its memset is a dead store), which no reimplementation can reproduce.
      lines.replaceAll(GnuSortDifferentialTest::withoutNans);
    }
    byte[] gnu = GnuSort.run(args, GnuSort.joinLines(lines));
    byte[] java = GnuSort.joinLines(sortLikeGnu(lines, global, sep, keys));
    if (!Arrays.equals(gnu, java)) {
      assertEquals(
          new String(gnu, StandardCharsets.ISO_8859_1),
          new String(java, StandardCharsets.ISO_8859_1),
          "sort " + String.join(" ", args));
    }
  }

  private static byte[] withoutNans(byte[] line) {
    byte[] out = line.clone();
    for (int i = 0; i + 2 < out.length; i++) {
      if ((out[i] | 0x20) == 'n' && (out[i + 1] | 0x20) == 'a' && (out[i + 2] | 0x20) == 'n') {
        out[i + 1] = 'o';
      }
    }
    return out;
  }

  /** What the engine will do: normalized key, tail, then the (possibly reversed) whole line. */
  static List<byte[]> sortLikeGnu(List<byte[]> lines, String global, int sep, List<String> keys) {
    KeyNormalizer norm = KeyNormalizer.compile(GnuSortKeys.parse(global, sep, release, keys));
    boolean reverseLast = global.contains("r");
    List<Integer> order = new ArrayList<>();
    List<byte[]> normalized = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      order.add(i);
      normalized.add(KeyTesting.normalize(norm, lines.get(i)));
    }
    order.sort(
        (x, y) -> {
          byte[] a = lines.get(x);
          byte[] b = lines.get(y);
          int d = Arrays.compareUnsigned(normalized.get(x), normalized.get(y));
          if (d == 0) {
            d = norm.compareTail(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length);
          }
          if (d == 0) {
            d = Arrays.compareUnsigned(a, b);
            d = reverseLast ? -d : d;
          }
          return d;
        });
    List<byte[]> out = new ArrayList<>();
    for (int i : order) {
      out.add(lines.get(i));
    }
    return out;
  }
}
