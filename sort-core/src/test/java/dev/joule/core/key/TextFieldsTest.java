package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.joule.testing.GnuSort;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** GNU sort's key location (begfield/limfield): edge cases, then against GNU's --debug marks. */
class TextFieldsTest {
  /** The key of {@code line} for {@code -k spec} (with {@code -t sep} unless negative). */
  private static String key(String line, String spec, int sep) {
    TextPosition p =
        GnuSortKeys.parse("", sep, List.of(spec)).fields().get(0).location().position();
    byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
    long r = TextFields.locate(ByteBuffer.wrap(b), 0, b.length, p);
    return line.substring(TextFields.startOf(r), TextFields.endOf(r));
  }

  @Test
  void blankSeparatedFieldsKeepTheirLeadingBlanks() {
    assertEquals("  bb", key("a  bb c", "2,2", -1));
    assertEquals("bb", key("a  bb c", "2b,2", -1));
    assertEquals("  bb c", key("a  bb c", "2", -1));
    assertEquals(" a", key(" a b", "1,1", -1));
  }

  @Test
  void fieldsBeyondTheEndAreEmpty() {
    assertEquals("", key("a b", "3,3", -1));
    assertEquals("", key("a b", "5", -1));
    assertEquals("", key("a:b", "3,4", ':'));
    assertEquals("", key("", "1,1", -1));
  }

  @Test
  void characterOffsetsRunPastTheirFieldButNotTheLine() {
    assertEquals(" c d", key("ab c d", "1.3", -1));
    assertEquals("", key("ab", "1.9", -1));
    assertEquals("ab c", key("ab c d", "1,1.4", -1));
    assertEquals("ab c d", key("ab c d", "1,1.40", -1));
    assertEquals("b:c", key("ab:c:d", "1.2,2.1", ':'));
  }

  @Test
  void endBeforeStartIsEmpty() {
    assertEquals("", key("abc def", "2,1", -1));
    assertEquals("", key("abcdef", "1.5,1.2", -1));
  }

  @Test
  void endCharZeroMeansTheWholeField() {
    assertEquals("b", key("a:b:c", "2,2.0", ':'));
    assertEquals(" b", key("a b c", "2,2.0", -1));
  }

  @Test
  void blanksOnTheEndPositionCountFromTheFirstNonBlank() {
    assertEquals("   xy", key("a   xyz", "2,2.2b", -1));
    assertEquals("   ", key("a   xyz", "2,2.3", -1)); // the field's own blanks count without b
    assertEquals("xy", key("a   xyz", "2b,2.2b", -1));
  }

  @Test
  void emptyFieldsWithASeparator() {
    assertEquals("", key("a::c", "2,2", ':'));
    assertEquals("c", key("a::c", "3,3", ':'));
    assertEquals(":c", key("a::c", "2", ':'));
    assertEquals("", key("a:", "2,2", ':'));
    assertEquals("", key(":", "2,2", ':'));
    assertEquals("a", key("a:", "1,1", ':'));
  }

  @Test
  void bSkipsBlanksEvenWithASeparator() {
    assertEquals("x", key("a:  x", "2b,2", ':'));
    assertEquals("  x", key("a:  x", "2,2", ':'));
    assertEquals(" \t ", key(" \t ", "1,1", ':'));
    assertEquals("", key(" \t ", "1b,1", ':'));
  }

  @Test
  void newlineIsBlank() {
    assertEquals("\n b", key("a\n b c", "2,2", -1));
  }

  /** Offsets GNU's {@code --debug} marks for random lines and positions, printable ASCII only. */
  @Test
  void matchesGnuDebugMarks() {
    String why = GnuSort.unavailable();
    if (why != null) {
      System.out.println("TextFieldsTest.matchesGnuDebugMarks skipped: " + why);
      org.junit.jupiter.api.Assumptions.assumeTrue(false, why);
    }
    for (int c = 0; c < 150; c++) {
      Seeds.run("--debug marks", 9000 + c, TextFieldsTest::debugCase);
    }
  }

  private static void debugCase(long seed) throws Exception {
    Random r = new Random(seed);
    int sep = r.nextBoolean() ? -1 : ":, ab".charAt(r.nextInt(5));
    List<String> specs = new ArrayList<>();
    for (int k = 1 + r.nextInt(3); k > 0; k--) {
      String s = (1 + r.nextInt(4)) + (r.nextBoolean() ? "." + (1 + r.nextInt(6)) : "");
      s += r.nextInt(3) == 0 ? "b" : "";
      if (r.nextInt(4) > 0) {
        s += "," + (1 + r.nextInt(5)) + (r.nextBoolean() ? "." + r.nextInt(6) : "");
        s += r.nextInt(3) == 0 ? "b" : "";
      }
      specs.add(s);
    }
    List<byte[]> lines = new ArrayList<>();
    Map<String, String> byShown = new HashMap<>();
    String alphabet = "ab:, \t\t  x";
    for (int i = 0; i < 40; i++) {
      StringBuilder l = new StringBuilder();
      for (int n = r.nextInt(14); n > 0; n--) {
        l.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      String line = l.toString();
      lines.add(line.getBytes(StandardCharsets.ISO_8859_1));
      byShown.put(line.replace('\t', '>'), line);
    }
    List<String> args = new ArrayList<>(List.of("--debug", "-s"));
    if (sep >= 0) {
      args.add("-t");
      args.add(String.valueOf((char) sep));
    }
    for (String s : specs) {
      args.add("-k");
      args.add(s);
    }
    String out =
        new String(GnuSort.run(args, GnuSort.joinLines(lines)), StandardCharsets.ISO_8859_1);
    List<String> rows = out.lines().collect(java.util.stream.Collectors.toList());
    List<TextPosition> positions = new ArrayList<>();
    for (String s : specs) {
      positions.add(GnuSortKeys.parse("", sep, List.of(s)).fields().get(0).location().position());
    }
    int i = 0;
    while (i < rows.size()) {
      String line = byShown.get(rows.get(i));
      if (line == null) {
        throw new AssertionError("unexpected --debug row " + rows.get(i) + " for " + args);
      }
      byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
      for (TextPosition p : positions) {
        String mark = rows.get(++i);
        int offset = mark.indexOf(mark.trim());
        int width = mark.contains("^ no match") ? 0 : mark.trim().length();
        long loc = TextFields.locate(ByteBuffer.wrap(b), 0, b.length, p);
        int start = TextFields.startOf(loc);
        int end = TextFields.endOf(loc);
        String what = "sort " + String.join(" ", args) + " on \"" + line + "\" key " + p;
        if (width > 0 || start < b.length) {
          assertEquals(offset, start, what + " start");
        }
        assertEquals(width, end - start, what + " width");
      }
      i++;
    }
  }
}
