package dev.joule.cli;

import dev.joule.core.key.KeyField;
import dev.joule.core.key.KeyLocation;
import dev.joule.core.key.KeyType;
import dev.joule.core.key.SortKey;
import dev.joule.core.record.FixedLengthFormat;
import dev.joule.core.record.KeySpec;
import dev.joule.core.record.RecordFormat;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Fixed-size binary records instead of text lines (a picocli mixin of {@code joule sort}): {@code
 * --gensort}, or {@code --record-size} with a byte-range key ({@code --key-offset}, {@code
 * --key-size}) or typed keys ({@code --binary-key OFFSET:SIZE[:TYPE][:desc]}, repeatable). Fixed
 * records sort stably (equal keys keep input order); {@code -r} reverses the key and {@code -u}
 * keeps the first of equal keys.
 */
public final class FixedRecordOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The command line that set these options: {@link DirectSort}'s, else picocli's model. */
  CommandContext context;

  @Option(
      names = "--gensort",
      description =
          "Sort the Sort Benchmark's gensort records: 100 bytes each, by their first 10 bytes"
              + " (same as --record-size 100 --key-size 10).")
  boolean gensort;

  @Option(
      names = "--record-size",
      paramLabel = "BYTES",
      description =
          "Sort fixed-size binary records of BYTES bytes (1..65535) instead of text lines.")
  Integer recordSize;

  @Option(
      names = "--key-offset",
      paramLabel = "BYTES",
      description = "With --record-size: offset of the byte key in the record. Default: 0.")
  Integer keyOffset;

  @Option(
      names = "--key-size",
      paramLabel = "BYTES",
      description =
          "With --record-size: length of the key, compared as unsigned bytes (memcmp)."
              + " Default: 10, or the whole record if it is shorter.")
  Integer keySize;

  @Option(
      names = "--binary-key",
      paramLabel = "OFF:SIZE[:TYPE][:desc]",
      description = {
        "With --record-size: a typed key field at byte OFF, SIZE bytes long; repeatable, later"
            + " fields break ties of earlier ones. TYPE: bytes (default; unsigned, memcmp), int or"
            + " uint (two's complement or unsigned, SIZE 1, 2, 4 or 8, big-endian), intle or"
            + " uintle (little-endian), float (IEEE, SIZE 4 or 8, big-endian, -NaN < -inf < ... <"
            + " -0 < +0 < ... < +inf < NaN), floatle. ':desc' sorts the field descending.",
      })
  List<String> binaryKeys = new ArrayList<>();

  /** Whether fixed records were asked for. */
  boolean fixed() {
    return gensort || recordSize != null;
  }

  /** Whether a fixed-record option was given without --record-size or --gensort. */
  String strayOption() {
    if (fixed()) {
      return null;
    }
    if (keyOffset != null) {
      return "--key-offset";
    }
    if (keySize != null) {
      return "--key-size";
    }
    return binaryKeys.isEmpty() ? null : "--binary-key";
  }

  /** The records' format (its byte key is the sort's unless {@link #key} gives typed fields). */
  FixedLengthFormat format() {
    if (gensort) {
      if (recordSize != null || keyOffset != null || keySize != null || !binaryKeys.isEmpty()) {
        throw usage("--gensort fixes the record layout: drop --record-size and the key options");
      }
      return RecordFormat.gensort();
    }
    int size = recordSize;
    if (size < 1 || size > RecordFormat.MAX_RECORD_SIZE) {
      throw invalid(
          "--record-size", size + ": a record size must be 1.." + RecordFormat.MAX_RECORD_SIZE);
    }
    if (!binaryKeys.isEmpty() && (keyOffset != null || keySize != null)) {
      throw usage("give either --binary-key or --key-offset/--key-size, not both");
    }
    int off = keyOffset == null ? 0 : keyOffset;
    int len = keySize == null ? Math.min(10, size - Math.min(off, size)) : keySize;
    if (off < 0 || len < 1 || (long) off + len > size) {
      throw usage(
          "the key (--key-offset "
              + off
              + ", --key-size "
              + len
              + ") does not fit in a record of "
              + size
              + " bytes");
    }
    return RecordFormat.fixed(size, KeySpec.bytes(off, len));
  }

  /**
   * The sort key: the typed fields, or the format's byte key reversed with {@code -r}; null for the
   * format's own ascending byte key.
   */
  SortKey key(FixedLengthFormat format, boolean reverse) {
    List<KeyField> fields = new ArrayList<>();
    for (String spec : binaryKeys) {
      fields.add(field(spec, format.recordSize()).withDescending(descending(spec) != reverse));
    }
    if (fields.isEmpty()) {
      if (!reverse) {
        return null;
      }
      KeySpec k = format.key();
      fields.add(
          KeyField.of(KeyLocation.bytes(k.offset(), k.length()), KeyType.bytes()).reversed());
    }
    return SortKey.of(fields);
  }

  private static boolean descending(String spec) {
    return spec.toLowerCase(Locale.ROOT).endsWith(":desc");
  }

  private KeyField field(String spec, int recordSize) {
    String[] parts = spec.split(":", -1);
    int n = parts.length;
    if (n > 1 && parts[n - 1].equalsIgnoreCase("desc")) {
      n--;
    }
    if (n < 2 || n > 3) {
      throw badKey(spec, "expected OFF:SIZE[:TYPE][:desc]");
    }
    int off;
    int size;
    try {
      off = Integer.parseInt(parts[0]);
      size = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw badKey(spec, "OFF and SIZE must be whole numbers");
    }
    if (off < 0 || size < 1 || (long) off + size > recordSize) {
      throw badKey(spec, "the field does not fit in a record of " + recordSize + " bytes");
    }
    String type = n == 3 ? parts[2].toLowerCase(Locale.ROOT) : "bytes";
    try {
      switch (type) {
        case "bytes":
          return KeyField.of(KeyLocation.bytes(off, size), KeyType.bytes());
        case "int":
        case "uint":
        case "intle":
        case "uintle":
          return KeyField.binary(
              off,
              KeyType.integer(
                  size,
                  type.startsWith("int"),
                  type.endsWith("le") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN));
        case "float":
        case "floatle":
          ByteOrder order = type.endsWith("le") ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
          if (size == 4) {
            return KeyField.binary(off, KeyType.float32(order));
          }
          if (size == 8) {
            return KeyField.binary(off, KeyType.float64(order));
          }
          throw badKey(spec, "a float is 4 or 8 bytes");
        default:
          throw badKey(spec, "unknown TYPE '" + parts[2] + "'");
      }
    } catch (IllegalArgumentException e) {
      throw badKey(spec, e.getMessage());
    }
  }

  private RuntimeException badKey(String spec, String why) {
    return invalid("--binary-key", "'" + spec + "': " + why);
  }

  private RuntimeException invalid(String option, String why) {
    return usage("invalid value for " + option + ": " + why);
  }

  private RuntimeException usage(String message) {
    return (context != null ? context : CommandContext.of(mixee)).usage(message, null);
  }
}
