package dev.joule.core.key;

/**
 * Where a key sits in a line of text, as GNU sort's {@code -k POS1[,POS2]} with {@code -t} says:
 * start at character {@code startChar} of field {@code startField}, end after character {@code
 * endChar} of field {@code endField} (the whole field when {@code endChar} is 0, the end of the
 * line when there is no POS2), all 1-based as on the command line.
 *
 * <p>Fields are separated by {@link #separator()} when one is set (each occurrence ends a field, so
 * empty fields exist), else by GNU's default: a field is a run of blanks (space, tab, newline)
 * followed by a run of non-blanks, so the leading blanks belong to the field. {@code -b} on POS1
 * ({@link #skipStartBlanks()}) skips the blanks at the field's start before counting characters; on
 * POS2 ({@link #skipEndBlanks()}) it does so for the end field, and matters only with a nonzero
 * {@code endChar}. Character offsets may run past their field into the following ones; nothing runs
 * past the end of the line; a key that would end before it starts is empty. {@link TextFields}
 * computes the offsets.
 *
 * <p>Immutable and thread-safe.
 */
public final class TextPosition {
  /** {@link #separator()} when fields are separated by GNU's blank-to-non-blank transitions. */
  public static final int BLANK_SEPARATED = -1;

  private final int startField;
  private final int startChar;
  private final boolean skipStartBlanks;
  private final int endField;
  private final int endChar;
  private final boolean skipEndBlanks;
  private final int separator;

  private TextPosition(
      int startField,
      int startChar,
      boolean skipStartBlanks,
      int endField,
      int endChar,
      boolean skipEndBlanks,
      int separator) {
    if (startField < 1) {
      throw new IllegalArgumentException("field number is zero or negative: " + startField);
    }
    if (startChar < 1) {
      throw new IllegalArgumentException("character offset is zero or negative: " + startChar);
    }
    if (endField < 0 || (endField == 0 && (endChar != 0 || skipEndBlanks))) {
      throw new IllegalArgumentException("invalid end field " + endField + "." + endChar);
    }
    if (endChar < 0) {
      throw new IllegalArgumentException("negative end character offset: " + endChar);
    }
    if (separator < BLANK_SEPARATED || separator > 255) {
      throw new IllegalArgumentException("separator must be a byte value: " + separator);
    }
    this.startField = startField;
    this.startChar = startChar;
    this.skipStartBlanks = skipStartBlanks;
    this.endField = endField;
    this.endChar = endChar;
    this.skipEndBlanks = skipEndBlanks;
    this.separator = separator;
  }

  /**
   * {@code -k startField.startChar[b],endField.endChar[b]}: {@code endField} 0 means no POS2 (to
   * the end of the line; {@code endChar} must then be 0 and {@code skipEndBlanks} false), {@code
   * endChar} 0 means to the end of {@code endField}. Fields are blank-separated until {@link
   * #withSeparator(int)}.
   */
  public static TextPosition of(
      int startField,
      int startChar,
      boolean skipStartBlanks,
      int endField,
      int endChar,
      boolean skipEndBlanks) {
    return new TextPosition(
        startField, startChar, skipStartBlanks, endField, endChar, skipEndBlanks, BLANK_SEPARATED);
  }

  /** {@code -k F,F}: field {@code field} alone, blank-separated. */
  public static TextPosition field(int field) {
    return of(field, 1, false, field, 0, false);
  }

  /** {@code -k F}: from field {@code field} to the end of the line, blank-separated. */
  public static TextPosition fromField(int field) {
    return of(field, 1, false, 0, 0, false);
  }

  /**
   * The same position with fields separated by the byte {@code separator} (GNU {@code -t}), or by
   * blanks again with {@link #BLANK_SEPARATED}.
   */
  public TextPosition withSeparator(int separator) {
    return new TextPosition(
        startField, startChar, skipStartBlanks, endField, endChar, skipEndBlanks, separator);
  }

  /** The same position with {@code -b} on both POS1 and POS2 set as given. */
  public TextPosition withSkipBlanks(boolean start, boolean end) {
    return new TextPosition(
        startField, startChar, start, endField, endChar, end && endField != 0, separator);
  }

  /** POS1's field, 1-based. */
  public int startField() {
    return startField;
  }

  /** POS1's character in its field, 1-based. */
  public int startChar() {
    return startChar;
  }

  /** {@code b} on POS1. */
  public boolean skipStartBlanks() {
    return skipStartBlanks;
  }

  /** POS2's field, 1-based, or 0 when the key runs to the end of the line. */
  public int endField() {
    return endField;
  }

  /** POS2's last character in its field, 1-based, or 0 for the whole field. */
  public int endChar() {
    return endChar;
  }

  /** {@code b} on POS2. */
  public boolean skipEndBlanks() {
    return skipEndBlanks;
  }

  /** The field separator byte (0..255), or {@link #BLANK_SEPARATED}. */
  public int separator() {
    return separator;
  }

  /** True when the key starts at the start of the line (GNU {@code -k1} or {@code -k1.1}). */
  boolean startsAtLineStart() {
    return startField == 1 && startChar == 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextPosition p
        && p.startField == startField
        && p.startChar == startChar
        && p.skipStartBlanks == skipStartBlanks
        && p.endField == endField
        && p.endChar == endChar
        && p.skipEndBlanks == skipEndBlanks
        && p.separator == separator;
  }

  @Override
  public int hashCode() {
    int h = startField;
    h = 31 * h + startChar;
    h = 31 * h + (skipStartBlanks ? 1 : 0);
    h = 31 * h + endField;
    h = 31 * h + endChar;
    h = 31 * h + (skipEndBlanks ? 1 : 0);
    return 31 * h + separator;
  }

  /** The {@code -k} argument, with {@code -t} appended when set, e.g. {@code 2.3b,4 -t ':'}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder().append(startField);
    if (startChar != 1) {
      s.append('.').append(startChar);
    }
    if (skipStartBlanks) {
      s.append('b');
    }
    if (endField != 0) {
      s.append(',').append(endField);
      if (endChar != 0) {
        s.append('.').append(endChar);
      }
      if (skipEndBlanks) {
        s.append('b');
      }
    }
    if (separator != BLANK_SEPARATED) {
      s.append(" -t 0x").append(Integer.toHexString(separator));
    }
    return s.toString();
  }
}
