package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --debug}'s marks and warnings against what GNU sort 9.1 printed for the same lines and
 * options ({@code LC_ALL=C sort --debug}, recorded here so that the test runs without GNU sort; the
 * differential test in sort-cli compares random cases with the installed one).
 */
class GnuDebugTest {
  private static String annotate(GnuDebug d, String... lines) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String line : lines) {
      byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
      d.annotate(ByteBuffer.wrap(b), 0, b.length, out);
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  private static GnuDebug debug(String global, int sep, boolean stable, String... keys) {
    return GnuDebug.of(global, sep, List.of(keys), stable, false);
  }

  private static final String COLLATION = "text ordering performed using simple byte comparison";

  @Test
  void noOptionsMarkTheWholeLineOnceWithTabsShownAsGreaterThan() throws IOException {
    GnuDebug d = debug("", -1, false);
    assertEquals(List.of(COLLATION), d.warnings());
    assertEquals("b>2 x\n_____\n\n^ no match for key\n", annotate(d, "b\t2 x", ""));
  }

  @Test
  void numericKeysMarkOnlyTheNumber() throws IOException {
    GnuDebug d = debug("", -1, false, "2,2n");
    assertEquals(
        List.of(COLLATION, "note numbers use '.' as a decimal point in this locale"), d.warnings());
    assertEquals(
        "d\n ^ no match for key\n_\n  c 10K\n    __\n_______\n", annotate(d, "d", "  c 10K"));
    GnuDebug h = debug("h", -1, true);
    assertEquals(
        " -12.5e3x 7\n _____\n1.5K 2Mb 3Q 4R\n____\n0x1Ap3 nan(12) inf\n_\n",
        annotate(h, " -12.5e3x 7", "1.5K 2Mb 3Q 4R", "0x1Ap3 nan(12) inf"));
  }

  @Test
  void generalNumericKeysMarkWhatStrtoldReads() throws IOException {
    GnuDebug d = debug("g", -1, true, "1,1", "2,2", "3,3");
    String expected =
        """
        0x1Ap3 nan(12) inf
        ______
               _______
                       ___
        -.5 - . -0
        ___
            ^ no match for key
              ^ no match for key
        """;
    assertEquals(expected, annotate(d, "0x1Ap3 nan(12) inf", "-.5 - . -0"));
  }

  @Test
  void controlBytesTakeNoColumnAndHighBytesOne() throws IOException {
    GnuDebug d = debug("", -1, true, "2,2");
    assertEquals(
        "\u0001\u007f\u00c3\u00a9x>y 5\n   __\n", annotate(d, "\u0001\u007f\u00c3\u00a9x\ty 5"));
    GnuDebug first = debug("", -1, true, "1.1,1.1");
    assertEquals("\u0001x\n^ no match for key\n", annotate(first, "\u0001x"));
  }

  @Test
  void aLimitBeforeTheStartIsEmptyWhereTheKeyStarts() throws IOException {
    GnuDebug text = debug("", -1, false, "2.5,2.1");
    GnuDebug numeric = debug("", -1, false, "2.5,2.1n");
    assertEquals(
        "-.5 - . -0\n       ^ no match for key\n__________\n", annotate(text, "-.5 - . -0"));
    assertEquals(
        "-.5 - . -0\n        ^ no match for key\n__________\n", annotate(numeric, "-.5 - . -0"));
  }

  @Test
  void monthsAndBlanksFromTheLineStart() throws IOException {
    assertEquals("  jan feb\n  ___\n", annotate(debug("M", -1, true), "  jan feb"));
    assertEquals(
        "  jan feb\n  _______\n   \n   ^ no match for key\n",
        annotate(debug("", -1, true, "1b"), "  jan feb", "   "));
  }

  @Test
  void warningsInGnusOrder() {
    assertEquals(
        List.of(
            COLLATION,
            "key 2 is numeric and spans multiple fields",
            "field separator '-' is treated as a minus sign in numbers",
            "note numbers use '.' as a decimal point in this locale"),
        debug("", '-', false, "1,1n", "2n").warnings());
    assertEquals(
        List.of(
            COLLATION,
            "key 1 is numeric and spans multiple fields",
            "field separator '.' is treated as a decimal point in numbers"),
        debug("", '.', false, "1n,2").warnings());
    assertEquals(
        List.of(COLLATION, "numbers use '.' as a decimal point in this locale"),
        debug("", '.', false, "3h,3.4").warnings());
    assertEquals(
        List.of(
            COLLATION,
            "leading blanks are significant in key 1; consider also specifying 'b'",
            "options '-fn' are ignored"),
        debug("fn", -1, false, "2,2b").warnings());
    assertEquals(
        List.of(
            COLLATION,
            "note numbers use '.' as a decimal point in this locale",
            "option '-n' is ignored",
            "option '-r' only applies to last-resort comparison"),
        debug("nr", -1, false, "1,1g").warnings());
    assertEquals(
        List.of(
            COLLATION,
            "note numbers use '.' as a decimal point in this locale",
            "option '-r' is ignored"),
        debug("r", -1, true, "1,1n").warnings());
    assertEquals(
        List.of(COLLATION, "key 1 has zero width and will be ignored"),
        debug("", -1, false, "3,2").warnings());
    assertEquals(
        List.of(
            COLLATION,
            "leading blanks are significant in key 1; consider also specifying 'b'",
            "option '-d' is ignored"),
        debug("d", -1, true, "1,1i").warnings());
  }
}
