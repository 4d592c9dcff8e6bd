package dev.joule.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LineFields} finds each key where {@link TextFields} (checked against GNU sort's --debug
 * marks in {@link TextFieldsTest}) does: random lines of blanks, separators and empty fields, many
 * positions per line asked in random order, so that boundaries are reused and found on demand.
 */
class LineFieldsTest {
  // ';' and '-' are one above ':' and ',': the bytes a word-wide search could mistake for them
  private static final byte[] ALPHABET = {
    'a', 'b', ' ', ' ', '\t', ':', ':', ';', ',', '-', (byte) 0xE9
  };

  @Test
  void everyPositionIsWhereTextFieldsPutsIt() {
    LineFields fields = new LineFields();
    for (int i = 0; i < 3000; i++) {
      Seeds.run(
          "line fields",
          i,
          seed -> {
            Random r = new Random(seed);
            int sep = r.nextInt(3) == 0 ? TextPosition.BLANK_SEPARATED : ":, ".charAt(r.nextInt(3));
            byte[] line = new byte[r.nextInt(4) == 0 ? 0 : r.nextInt(60)];
            for (int k = 0; k < line.length; k++) {
              line[k] = ALPHABET[r.nextInt(ALPHABET.length)];
            }
            // the line sits inside a larger buffer, as in a read block
            int offset = r.nextInt(5);
            int capacity = offset + line.length + r.nextInt(5);
            ByteBuffer b =
                r.nextBoolean()
                    ? ByteBuffer.allocateDirect(capacity)
                    : ByteBuffer.allocate(capacity);
            b.order(r.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            b.put(offset, line);
            for (int k = offset + line.length; k < b.capacity(); k++) {
              b.put(k, (byte) ':');
            }
            List<TextPosition> positions = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
              positions.add(position(r, sep));
            }
            Collections.shuffle(positions, r);
            fields.reset(b, offset, line.length, sep);
            for (TextPosition p : positions) {
              assertEquals(
                  TextFields.locate(b, offset, line.length, p),
                  fields.locate(p),
                  () ->
                      p
                          + " in '"
                          + new String(line, java.nio.charset.StandardCharsets.ISO_8859_1)
                          + "'");
            }
          });
    }
  }

  /** Fields far past a short line's end are empty without a boundary each. */
  @Test
  void aFarFieldOfAShortLineIsItsEnd() {
    LineFields fields = new LineFields();
    ByteBuffer b = ByteBuffer.wrap(new byte[] {'a', ':', 'b'});
    fields.reset(b, 0, 3, ':');
    TextPosition far = TextPosition.of(1_000_000, 1, false, 1_000_000, 0, false).withSeparator(':');
    assertEquals((3L << 32) | 3, fields.locate(far));
    assertEquals((2L << 32) | 3, fields.locate(TextPosition.field(2).withSeparator(':')));
  }

  private static TextPosition position(Random r, int sep) {
    int startField = 1 + r.nextInt(6);
    int startChar = 1 + (r.nextInt(3) == 0 ? r.nextInt(6) : 0);
    boolean b1 = r.nextInt(3) == 0;
    int endField = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(7);
    int endChar = endField == 0 || r.nextBoolean() ? 0 : r.nextInt(6);
    boolean b2 = endField != 0 && r.nextInt(3) == 0;
    return TextPosition.of(startField, startChar, b1, endField, endChar, b2).withSeparator(sep);
  }
}
