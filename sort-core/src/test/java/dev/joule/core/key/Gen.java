package dev.joule.core.key;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Random text rich in what GNU sort parses: numbers of every shape, months, versions, blanks. */
final class Gen {
  private static final String[] MONTHS = {
    "jan",
    "FEB",
    "Mar",
    "apr",
    "MAY",
    "jun",
    "Jul",
    "aug",
    "SEP",
    "oct",
    "Nov",
    "dec",
    "ja",
    "j",
    "janu",
    "xyz",
    "DECEMBER",
    "m a"
  };
  private static final String[] WORDS = {
    "inf",
    "-inf",
    "Infinity",
    "INF",
    "nan",
    "-nan",
    "NaN",
    "nan(123)",
    "-NAN(0x1f)",
    "nan(abc)",
    "nan(",
    "nan(07)",
    "+nan",
    "0x",
    "0x.",
    "0xg",
    "-0x",
    "e5",
    ".",
    "-",
    "+",
    "-.",
    "K",
    "k",
    "-K",
    "~",
    ".",
    "..",
    ".a",
    "a.b",
    "a~b",
    "1.2.3",
    "1.10",
    "1.9",
    "foo.tar.gz",
    "foo-1.2~rc1",
    ""
  };
  private static final String ALNUM = "0123456789abcdefxyzABCDEFXYZ";

  private Gen() {}

  static String digits(Random r, int max) {
    int n = r.nextInt(max + 1);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append((char) ('0' + (r.nextInt(4) == 0 ? 0 : r.nextInt(10))));
    }
    return s.toString();
  }

  static String blanks(Random r) {
    switch (r.nextInt(8)) {
      case 0:
        return " ";
      case 1:
        return "\t";
      case 2:
        return "  \t ";
      default:
        return "";
    }
  }

  /** A decimal number in GNU -n/-h/-g shape, sometimes malformed. */
  static String number(Random r) {
    StringBuilder s = new StringBuilder(blanks(r));
    int sign = r.nextInt(6);
    if (sign == 0) {
      s.append('-');
    } else if (sign == 1 && r.nextBoolean()) {
      s.append('+');
    }
    if (r.nextInt(4) == 0) {
      s.append("000".substring(r.nextInt(3)));
    }
    s.append(digits(r, r.nextInt(5) == 0 ? 30 : 6));
    if (r.nextInt(3) == 0) {
      s.append('.').append(digits(r, r.nextInt(5) == 0 ? 25 : 4));
    }
    if (r.nextInt(5) == 0) {
      s.append(r.nextBoolean() ? 'e' : 'E');
      int k = r.nextInt(3);
      s.append(k == 0 ? "-" : k == 1 ? "+" : "");
      s.append(r.nextInt(30) == 0 ? "49" + (31 + r.nextInt(22)) : digits(r, 3));
    }
    if (r.nextInt(4) == 0) {
      s.append("KkMGTPEZYRQxb ".charAt(r.nextInt(14)));
    }
    return s.toString();
  }

  static String hex(Random r) {
    StringBuilder s = new StringBuilder(blanks(r));
    if (r.nextInt(3) == 0) {
      s.append(r.nextBoolean() ? '-' : '+');
    }
    s.append(r.nextBoolean() ? "0x" : "0X");
    String hexDigits = "0123456789abcdefABCDEF";
    int n = r.nextInt(r.nextInt(6) == 0 ? 40 : 8);
    for (int i = 0; i < n; i++) {
      s.append(hexDigits.charAt(r.nextInt(hexDigits.length())));
    }
    if (r.nextInt(3) == 0) {
      s.append('.');
      for (int i = r.nextInt(6); i > 0; i--) {
        s.append(hexDigits.charAt(r.nextInt(hexDigits.length())));
      }
    }
    if (r.nextInt(2) == 0) {
      s.append(r.nextBoolean() ? 'p' : 'P');
      s.append(r.nextBoolean() ? "-" : "");
      int e = r.nextInt(10);
      s.append(e == 0 ? 16380 + r.nextInt(70) : e == 1 ? 16440 + r.nextInt(30) : r.nextInt(200));
    }
    return s.toString();
  }

  static String version(Random r) {
    StringBuilder s = new StringBuilder();
    int parts = r.nextInt(5);
    if (r.nextInt(6) == 0) {
      s.append('.');
    }
    for (int i = 0; i < parts; i++) {
      switch (r.nextInt(6)) {
        case 0:
          s.append(digits(r, 3));
          break;
        case 1:
          s.append('.');
          break;
        case 2:
          s.append('~');
          break;
        case 3:
          s.append("-_+".charAt(r.nextInt(3)));
          break;
        default:
          for (int k = r.nextInt(3); k >= 0; k--) {
            s.append(ALNUM.charAt(r.nextInt(ALNUM.length())));
          }
      }
    }
    if (r.nextInt(3) == 0) {
      s.append(new String[] {".tar.gz", ".txt", ".a~1", ".1", ".x.y"}[r.nextInt(5)]);
    }
    return s.toString();
  }

  static String month(Random r) {
    return blanks(r) + MONTHS[r.nextInt(MONTHS.length)] + (r.nextInt(3) == 0 ? "x" : "");
  }

  /** One token of any kind. */
  static String token(Random r) {
    switch (r.nextInt(8)) {
      case 0:
      case 1:
        return number(r);
      case 2:
        return hex(r);
      case 3:
        return version(r);
      case 4:
        return month(r);
      case 5:
        return WORDS[r.nextInt(WORDS.length)];
      case 6:
        {
          StringBuilder s = new StringBuilder();
          for (int i = r.nextInt(6); i > 0; i--) {
            s.append(ALNUM.charAt(r.nextInt(ALNUM.length())));
          }
          return s.toString();
        }
      default:
        return blanks(r) + WORDS[r.nextInt(WORDS.length)] + number(r);
    }
  }

  /** Bytes of a token, now and then with a byte >= 0x80, a control byte or NUL mixed in. */
  static byte[] key(Random r) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] t = token(r).getBytes(StandardCharsets.ISO_8859_1);
    out.write(t, 0, t.length);
    if (r.nextInt(8) == 0) {
      int[] odd = {0x80, 0x80, 0xFF, 0xE9, 0x01, 0x7F, 0x0B, 0x0D, 0x00};
      byte[] b = out.toByteArray();
      int at = b.length == 0 ? 0 : r.nextInt(b.length + 1);
      out.reset();
      out.write(b, 0, at);
      out.write(odd[r.nextInt(odd.length)]);
      out.write(b, at, b.length - at);
    }
    return out.toByteArray();
  }

  /** A line of fields: tokens joined by {@code sep} (or by runs of blanks when {@code sep < 0}). */
  static byte[] line(Random r, int sep, boolean allowNul) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int fields = 1 + r.nextInt(5);
    for (int f = 0; f < fields; f++) {
      if (f > 0) {
        if (sep >= 0) {
          out.write(sep);
        } else {
          byte[] b =
              (r.nextBoolean() ? " " : r.nextBoolean() ? "\t" : "  ")
                  .getBytes(StandardCharsets.ISO_8859_1);
          out.write(b, 0, b.length);
        }
      }
      byte[] k = r.nextInt(10) == 0 ? new byte[0] : key(r);
      for (byte b : k) {
        if (b == '\n' || (b == 0 && !allowNul)) {
          continue;
        }
        out.write(b);
      }
    }
    return out.toByteArray();
  }
}
