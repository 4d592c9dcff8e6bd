package dev.joule.io.testing;

import dev.joule.core.key.GnuSortKeys;
import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.key.TextPosition;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.LineFormat;
import dev.joule.core.record.RecordFormat;
import dev.joule.io.config.LastResort;
import dev.joule.io.config.SortConfig;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeded inputs of every record format with the key a sort of them uses and the output an
 * independent reference sort gives: the workloads of the fault and corruption tests. The reference
 * is a stable {@link List#sort} with a comparator written from each key's definition (GNU's {@code
 * -n} through a regular expression and {@link BigDecimal}), never through the engine's key encoder.
 *
 * <p>The variable-length kinds mix empty records, duplicates and one record in {@link #LONG_EVERY}
 * of 4 to 9 KiB, longer than the tests' 4 KiB temp blocks, so that run files hold entries that span
 * blocks.
 */
public final class SortInputs {
  private SortInputs() {}

  /** A record format, the key over it, and how its records are generated. */
  public enum Kind {
    /** 16-byte records, 10-byte key at 0. */
    FIXED_16(Family.FIXED),
    /** 32-byte records, 12-byte key at 4. */
    FIXED_32(Family.FIXED),
    /** gensort's 100-byte records. */
    GENSORT(Family.FIXED),
    /** Lines ordered by their bytes; {@code \n} or {@code \0}; the last one may lack it. */
    LINES(Family.LINES),
    /** Text lines with GNU's {@code -k2,2n} and its last resort (the whole line, ascending). */
    LINES_K2N(Family.LINES),
    /** Length-prefixed rows ordered by their bytes. */
    ROWS(Family.ROWS),
    /** Length-prefixed rows by a signed big-endian int32 at 0, descending, then their bytes. */
    ROWS_INT_DESC(Family.ROWS);

    public final Family family;

    Kind(Family family) {
      this.family = family;
    }

    /**
     * Sets the format, key and last resort of this kind on {@code b} (lines end with {@code
     * delimiter}); returns {@code b}. A child JVM configures its sort from the kind's name this
     * way.
     */
    public SortConfig.Builder configure(SortConfig.Builder b, byte delimiter) {
      switch (this) {
        case LINES -> b.format(RecordFormat.lines(delimiter)).lastResort(LastResort.NONE);
        case LINES_K2N ->
            b.format(RecordFormat.lines(delimiter)).key(K2N).lastResort(LastResort.ASCENDING);
        case ROWS -> b.format(RecordFormat.lengthPrefixed()).lastResort(LastResort.NONE);
        case ROWS_INT_DESC ->
            b.format(RecordFormat.lengthPrefixed()).key(INT_DESC).lastResort(LastResort.NONE);
        default -> b.format(fixedFormat()).lastResort(LastResort.NONE);
      }
      return b;
    }

    /** The fixed format of a {@link Family#FIXED} kind. */
    public FixedLengthFormat fixedFormat() {
      return switch (this) {
        case FIXED_16 -> RecordFormat.fixed(16, KeySpec.bytes(0, 10));
        case FIXED_32 -> RecordFormat.fixed(32, KeySpec.bytes(4, 12));
        case GENSORT -> RecordFormat.gensort();
        default -> throw new IllegalStateException(this + " is not fixed");
      };
    }
  }

  /** GNU's {@code -k2,2n}. */
  static final SortKey K2N =
      GnuSortKeys.parse(
          "", TextPosition.BLANK_SEPARATED, KeyType.GnuRelease.CURRENT, List.of("2,2n"));

  /** A signed big-endian int32 at 0, descending, then the whole record's bytes. */
  static final SortKey INT_DESC =
      SortKey.of(
          KeyField.binary(0, KeyType.integer(4, true, ByteOrder.BIG_ENDIAN)).reversed(),
          KeyField.of(KeyLocation.wholeRecord(), KeyType.bytes()));

  /** The record formats the kinds belong to. */
  public enum Family {
    FIXED,
    LINES,
    ROWS
  }

  /** An input, the format and key to sort it by, and its expected output. */
  public static final class Input {
    private final Kind kind;
    private final RecordFormat format;
    private final byte delimiter;
    private final byte[] data;
    private final byte[] expected;
    private final long records;
    private final String description;

    Input(
        Kind kind,
        RecordFormat format,
        byte[] data,
        byte[] expected,
        long records,
        String description) {
      this.kind = kind;
      this.format = format;
      this.delimiter = format instanceof LineFormat f ? f.delimiter() : (byte) '\n';
      this.data = data;
      this.expected = expected;
      this.records = records;
      this.description = description;
    }

    public Kind kind() {
      return kind;
    }

    public RecordFormat format() {
      return format;
    }

    /** The input file's bytes (not a copy). */
    public byte[] data() {
      return data;
    }

    /** The reference sort's output (not a copy). */
    public byte[] expected() {
      return expected;
    }

    /** Records in the input. */
    public long records() {
      return records;
    }

    /** Sets the format, key and last resort of this input on {@code b}; returns {@code b}. */
    public SortConfig.Builder configure(SortConfig.Builder b) {
      return kind.configure(b, delimiter);
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * Shapes of the data beside the kind.
   *
   * @param hugeEvery every this many records one of 80 to 200 KB, longer than a 64 KiB temp block
   *     (0: none)
   */
  public record Options(boolean longRecords, boolean misleadSample, int hugeEvery) {
    /** Long records (some span temp blocks), a representative sample. */
    public static final Options DEFAULT = new Options(true, false, 0);

    public Options(boolean longRecords, boolean misleadSample) {
      this(longRecords, misleadSample, 0);
    }

    boolean huge(int i) {
      return hugeEvery > 0 && i % hugeEvery == hugeEvery / 3;
    }
  }

  private static int hugeLength(Random r) {
    return 80_000 + r.nextInt(120_000);
  }

  /**
   * About {@code n} records of {@code kind} from {@code seed} (exactly {@code n} unless {@code
   * misleadSample}, which sizes the input by bytes). For fixed kinds, {@code distinctKeys > 0}
   * limits the keys to a skewed few.
   */
  public static Input of(Kind kind, long seed, long n, int distinctKeys, Options options) {
    Random r = new Random(seed);
    return switch (kind.family) {
      case FIXED -> fixed(kind, seed, n, distinctKeys);
      case LINES -> lines(kind, r, (int) n, options);
      case ROWS -> rows(kind, r, (int) n, options);
    };
  }

  private static Input fixed(Kind kind, long seed, long n, int distinctKeys) {
    FixedLengthFormat f = kind.fixedFormat();
    byte[] data = PipelineTestSupport.records(seed, n, f, distinctKeys);
    return new Input(
        kind,
        f,
        data,
        PipelineTestSupport.reference(data, f),
        n,
        kind + " " + n + " x " + f.recordSize() + " B");
  }

  // ---- lines ----

  /**
   * One record in this many is long. Evenly spread, so that any sample of the input sees its share
   * of them: the plan sizes arenas from the sampled average, and a record larger than an empty
   * arena is an error (under the tests' tiny run limits, arenas of a few dozen KiB).
   */
  static final int LONG_EVERY = 25;

  /** A long record: 4 to 9 KiB, so it spans 4 KiB temp blocks, and 8 KiB ones at times. */
  private static int longLength(Random r) {
    return 4096 + r.nextInt(5 << 10);
  }

  private static Input lines(Kind kind, Random r, int n, Options o) {
    boolean text = kind == Kind.LINES_K2N;
    byte delimiter = !text && r.nextInt(4) == 0 ? 0 : (byte) '\n';
    boolean lastDelimited = r.nextBoolean();
    List<byte[]> recs =
        o.misleadSample()
            ? misleadingLines(r, n, text, delimiter)
            : lineRecords(r, n, text, delimiter, o);
    if (!lastDelimited && !recs.isEmpty() && recs.get(recs.size() - 1).length == 0) {
      // An empty last line without its delimiter is no line at all: the file ends with the one
      // before it.
      recs.set(recs.size() - 1, line(r, text, delimiter, 1 + r.nextInt(20)));
    }
    Comparator<byte[]> order = Arrays::compareUnsigned;
    if (text) {
      IdentityHashMap<byte[], BigDecimal> numbers = new IdentityHashMap<>();
      recs.forEach(b -> numbers.put(b, secondFieldNumber(b)));
      order =
          Comparator.comparing((byte[] b) -> numbers.get(b)).thenComparing(Arrays::compareUnsigned);
    }
    LineFormat f = RecordFormat.lines(delimiter);
    byte[] data = join(recs, delimiter, lastDelimited);
    List<byte[]> sorted = new ArrayList<>(recs);
    sorted.sort(order);
    return new Input(
        kind,
        f,
        data,
        join(sorted, delimiter, true),
        recs.size(),
        kind
            + " "
            + f
            + " "
            + recs.size()
            + " lines, "
            + data.length
            + " B, last line "
            + (lastDelimited || recs.isEmpty() ? "delimited" : "without delimiter")
            + (o.misleadSample() ? ", long lines where the sample looks" : ""));
  }

  private static List<byte[]> lineRecords(
      Random r, int n, boolean text, byte delimiter, Options o) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(100);
      byte[] rec;
      if (o.huge(i)) {
        rec = line(r, text, delimiter, hugeLength(r));
      } else if (o.longRecords() && i % LONG_EVERY == LONG_EVERY / 2) {
        rec = line(r, text, delimiter, longLength(r));
      } else if (kind < 6) {
        rec = new byte[0];
      } else if (kind < 16 && !out.isEmpty()) {
        rec = out.get(r.nextInt(out.size())).clone();
      } else {
        rec = line(r, text, delimiter, r.nextInt(60));
      }
      out.add(rec);
    }
    return out;
  }

  /**
   * Lines whose sample misleads the plan: the sampler reads 64 KiB at four evenly spaced places,
   * and each of those starts a stretch of 2000-byte lines while the rest are short, so the input
   * holds many times the records the sample suggests and the one-pass arena overflows. {@code n}
   * sets the number of short lines per quarter.
   */
  private static List<byte[]> misleadingLines(Random r, int n, boolean text, byte delimiter) {
    List<byte[]> out = new ArrayList<>();
    for (int quarter = 0; quarter < 4; quarter++) {
      int longBytes = 0;
      while (longBytes < 72 << 10) {
        byte[] b = line(r, text, delimiter, 2000);
        out.add(b);
        longBytes += b.length + 1;
      }
      for (int i = 0; i < n; i++) {
        out.add(line(r, text, delimiter, r.nextInt(8)));
      }
    }
    return out;
  }

  private static final String[] WORDS = {"a", "apple", "b", "Zebra", "ü", "x1", "a:b"};

  /**
   * A line of about {@code length} bytes: for text, blank-separated fields (a word, a number for
   * {@code -k2,2n} that may be negative, fractional, missing or not a number, then filler); else
   * any bytes but the delimiter.
   */
  private static byte[] line(Random r, boolean text, byte delimiter, int length) {
    if (!text) {
      byte[] b = bytes(r, length);
      for (int i = 0; i < length; i++) {
        if (b[i] == delimiter) {
          b[i] = (byte) ~delimiter;
        }
      }
      return b;
    }
    StringBuilder s = new StringBuilder();
    if (r.nextInt(10) == 0) {
      s.append(' ');
    }
    s.append(WORDS[r.nextInt(WORDS.length)]);
    int shape = r.nextInt(20);
    if (shape > 0) {
      s.append(r.nextInt(5) == 0 ? "  " : r.nextInt(8) == 0 ? "\t" : " ");
      switch (shape) {
        case 1 -> s.append('x').append(r.nextInt(9));
        case 2 -> s.append('-');
        case 3 -> s.append("-0");
        default -> {
          if (r.nextInt(4) == 0) {
            s.append('-');
          }
          s.append(r.nextInt(r.nextBoolean() ? 10 : 100_000));
          if (r.nextInt(3) == 0) {
            s.append('.').append(r.nextInt(100));
          }
        }
      }
      if (length > 100 || r.nextBoolean()) {
        s.append(' ');
        while (s.length() < length) {
          s.append((char) ('a' + r.nextInt(26)));
        }
      }
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static final Pattern NUMBER = Pattern.compile("^[ \t]*(-?)([0-9]*)(?:\\.([0-9]*))?");

  /**
   * GNU {@code -k2,2n} from its definition: field 2 is the blanks after field 1's non-blanks and
   * the non-blanks after them; {@code -n} skips leading blanks and reads an optionally negative
   * decimal number, 0 when there is none.
   */
  static BigDecimal secondFieldNumber(byte[] line) {
    String s = new String(line, StandardCharsets.ISO_8859_1);
    int i = 0;
    while (i < s.length() && blank(s.charAt(i))) {
      i++;
    }
    while (i < s.length() && !blank(s.charAt(i))) {
      i++;
    }
    int start = i;
    while (i < s.length() && blank(s.charAt(i))) {
      i++;
    }
    while (i < s.length() && !blank(s.charAt(i))) {
      i++;
    }
    Matcher m = NUMBER.matcher(s.substring(start, i));
    if (!m.find()) {
      return BigDecimal.ZERO;
    }
    String digits = m.group(2) + (m.group(3) == null ? "" : "." + m.group(3));
    if (digits.isEmpty() || digits.equals(".")) {
      return BigDecimal.ZERO;
    }
    BigDecimal v = new BigDecimal(digits.startsWith(".") ? "0" + digits : digits);
    return m.group(1).isEmpty() ? v : v.negate();
  }

  private static boolean blank(char c) {
    return c == ' ' || c == '\t';
  }

  /** The lines, each followed by {@code delimiter} (the last one only if {@code lastDelimited}). */
  public static byte[] join(List<byte[]> recs, byte delimiter, boolean lastDelimited) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (int i = 0; i < recs.size(); i++) {
      o.writeBytes(recs.get(i));
      if (i + 1 < recs.size() || lastDelimited) {
        o.write(delimiter);
      }
    }
    return o.toByteArray();
  }

  // ---- length-prefixed rows ----

  private static Input rows(Kind kind, Random r, int n, Options o) {
    boolean keyed = kind == Kind.ROWS_INT_DESC;
    int min = keyed ? 4 : 0; // a keyed row must hold its int
    List<byte[]> recs = new ArrayList<>();
    if (o.misleadSample()) {
      // Only the file's first 64 KiB are sampled for rows: large rows there, small ones after.
      int big = 0;
      while (big < 72 << 10) {
        byte[] b = bytes(r, 2000);
        recs.add(b);
        big += b.length + 4;
      }
      for (int i = 0; i < 4 * n; i++) {
        recs.add(bytes(r, min + r.nextInt(8)));
      }
    } else {
      for (int i = 0; i < n; i++) {
        int k = r.nextInt(100);
        byte[] rec;
        if (o.huge(i)) {
          rec = bytes(r, min + hugeLength(r));
        } else if (o.longRecords() && i % LONG_EVERY == LONG_EVERY / 2) {
          rec = bytes(r, longLength(r));
        } else if (k < 6) {
          rec = bytes(r, min);
        } else if (k < 16 && !recs.isEmpty()) {
          rec = recs.get(r.nextInt(recs.size())).clone();
        } else {
          rec = bytes(r, min + r.nextInt(60));
        }
        recs.add(rec);
      }
    }
    Comparator<byte[]> order = Arrays::compareUnsigned;
    if (keyed) {
      for (byte[] b : recs) {
        if (r.nextInt(4) == 0) { // extremes and few distinct values: ties reach the last resort
          int[] special = {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0, 1};
          ByteBuffer.wrap(b).putInt(0, special[r.nextInt(special.length)]);
        }
      }
      order =
          ((Comparator<byte[]>)
                  (a, b) ->
                      Integer.compare(ByteBuffer.wrap(b).getInt(0), ByteBuffer.wrap(a).getInt(0)))
              .thenComparing(Arrays::compareUnsigned);
    }
    byte[] data = frame(recs);
    List<byte[]> sorted = new ArrayList<>(recs);
    sorted.sort(order);
    return new Input(
        kind,
        RecordFormat.lengthPrefixed(),
        data,
        frame(sorted),
        recs.size(),
        kind
            + " "
            + recs.size()
            + " rows, "
            + data.length
            + " B"
            + (o.misleadSample() ? ", large rows where the sample looks" : ""));
  }

  /** The rows, each behind its 4-byte big-endian length. */
  public static byte[] frame(List<byte[]> recs) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (byte[] r : recs) {
      o.writeBytes(ByteBuffer.allocate(4).putInt(r.length).array());
      o.writeBytes(r);
    }
    return o.toByteArray();
  }

  private static byte[] bytes(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }
}
