package dev.joule.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for the tests that check what joule writes as JSON against other outputs:
 * objects become {@code Map<String, Object>} (in document order), arrays {@code List<Object>},
 * numbers {@code Double}, and strings, booleans and null themselves. Strict enough for joule's own
 * output (RFC 8259 without surrogate pairs in escapes); not a general-purpose parser.
 */
final class MiniJson {
  private final String s;
  private int at;

  private MiniJson(String s) {
    this.s = s;
  }

  /** The value {@code text} holds. */
  static Object parse(String text) {
    MiniJson p = new MiniJson(text);
    Object v = p.value();
    p.blanks();
    if (p.at != text.length()) {
      throw p.error("text after the value");
    }
    return v;
  }

  /** {@code value}'s member {@code name}, an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value, String name) {
    return (Map<String, Object>) ((Map<String, Object>) value).get(name);
  }

  /** {@code value}'s member {@code name}, an array. */
  @SuppressWarnings("unchecked")
  static List<Object> array(Object value, String name) {
    return (List<Object>) ((Map<String, Object>) value).get(name);
  }

  /** {@code value}'s member {@code name}, a number. */
  @SuppressWarnings("unchecked")
  static double number(Object value, String name) {
    return (Double) ((Map<String, Object>) value).get(name);
  }

  /** {@code value}'s member {@code name}, a string. */
  @SuppressWarnings("unchecked")
  static String string(Object value, String name) {
    return (String) ((Map<String, Object>) value).get(name);
  }

  private Object value() {
    blanks();
    if (at >= s.length()) {
      throw error("a value expected");
    }
    char c = s.charAt(at);
    switch (c) {
      case '{':
        return members();
      case '[':
        return elements();
      case '"':
        return string();
      case 't':
        return literal("true", true);
      case 'f':
        return literal("false", false);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> members() {
    Map<String, Object> m = new LinkedHashMap<>();
    at++; // {
    blanks();
    if (peek('}')) {
      return m;
    }
    do {
      blanks();
      String name = string();
      blanks();
      expect(':');
      m.put(name, value());
      blanks();
    } while (peek(','));
    expect('}');
    return m;
  }

  private List<Object> elements() {
    List<Object> l = new ArrayList<>();
    at++; // [
    blanks();
    if (peek(']')) {
      return l;
    }
    do {
      l.add(value());
      blanks();
    } while (peek(','));
    expect(']');
    return l;
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (at >= s.length()) {
        throw error("an unterminated string");
      }
      char c = s.charAt(at++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(at++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
          at += 4;
        }
        default -> b.append(e); // " \ /
      }
    }
  }

  private Double number() {
    int start = at;
    while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) {
      at++;
    }
    if (start == at) {
      throw error("a value expected");
    }
    return Double.valueOf(s.substring(start, at));
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, at)) {
      throw error("'" + word + "' expected");
    }
    at += word.length();
    return v;
  }

  private void blanks() {
    while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) {
      at++;
    }
  }

  private boolean peek(char c) {
    if (at < s.length() && s.charAt(at) == c) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("'" + c + "' expected");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + at + " of the JSON text");
  }
}
