package dev.joule.io.report;

import java.util.Locale;

/**
 * A minimal JSON emitter for {@link SortReport}: objects, arrays, strings, numbers and booleans,
 * pretty-printed with two-space indents. Small enough that a JSON library dependency would not pay.
 *
 * <p>Not thread-safe; one writer per document.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder();
  private int depth;
  private boolean first = true;

  JsonWriter beginObject() {
    value("{");
    depth++;
    first = true;
    return this;
  }

  JsonWriter beginObject(String name) {
    name(name);
    out.append('{');
    depth++;
    first = true;
    return this;
  }

  JsonWriter endObject() {
    return close('}');
  }

  JsonWriter beginArray(String name) {
    name(name);
    out.append('[');
    depth++;
    first = true;
    return this;
  }

  JsonWriter endArray() {
    return close(']');
  }

  JsonWriter field(String name, String v) {
    name(name);
    string(v);
    return this;
  }

  JsonWriter field(String name, long v) {
    name(name);
    out.append(v);
    return this;
  }

  JsonWriter field(String name, double v) {
    name(name);
    out.append(Double.isFinite(v) ? String.format(java.util.Locale.ROOT, "%.6f", v) : "null");
    return this;
  }

  JsonWriter field(String name, boolean v) {
    name(name);
    out.append(v);
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private JsonWriter close(char c) {
    depth--;
    newline();
    out.append(c);
    first = false;
    return this;
  }

  private void value(String raw) {
    if (depth > 0) {
      separator();
    }
    out.append(raw);
  }

  private void name(String name) {
    separator();
    string(name);
    out.append(": ");
  }

  private void separator() {
    if (!first) {
      out.append(',');
    }
    first = false;
    newline();
  }

  private void newline() {
    if (depth > 0 || out.length() > 0) {
      out.append('\n').append("  ".repeat(Math.max(0, depth)));
    }
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
