package dev.sluice.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader (RFC 8259), so the client jar needs nothing beyond the JDK on crowded
 * engine classpaths. Objects become {@code Map<String, Object>} (insertion order, unmodifiable),
 * arrays {@code List<Object>}, strings {@code String}, numbers {@code Long} when integral and in
 * range else {@code Double}, and {@code true/false/null} {@code Boolean}/{@code null}. Parse errors
 * name the offset, never the document (it may hold credentials).
 */
final class Json {
  private static final int MAX_DEPTH = 64;

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Parses one JSON value; trailing non-whitespace is an error. */
  static Object parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("no JSON document (null)");
    }
    Json p = new Json(text);
    p.skipWhitespace();
    Object value = p.value(0);
    p.skipWhitespace();
    if (p.pos != text.length()) {
      throw p.error("unexpected content after the JSON value");
    }
    return value;
  }

  /** Parses a document that must be an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("expected a JSON object, found " + typeOf(value));
    }
    return (Map<String, Object>) value;
  }

  static String typeOf(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "an array";
    }
    if (value instanceof String) {
      return "a string";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return "a number";
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH);
    }
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character");
    }
  }

  private Map<String, Object> object(int depth) {
    pos++; // '{'
    Map<String, Object> map = new LinkedHashMap<>();
    skipWhitespace();
    if (peek('}')) {
      pos++;
      return Collections.unmodifiableMap(map);
    }
    while (true) {
      skipWhitespace();
      if (!peek('"')) {
        throw error("expected a member name");
      }
      String key = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      map.put(key, value(depth + 1));
      skipWhitespace();
      if (peek(',')) {
        pos++;
      } else if (peek('}')) {
        pos++;
        return Collections.unmodifiableMap(map);
      } else {
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<Object> array(int depth) {
    pos++; // '['
    List<Object> list = new ArrayList<>();
    skipWhitespace();
    if (peek(']')) {
      pos++;
      return Collections.unmodifiableList(list);
    }
    while (true) {
      skipWhitespace();
      list.add(value(depth + 1));
      skipWhitespace();
      if (peek(',')) {
        pos++;
      } else if (peek(']')) {
        pos++;
        return Collections.unmodifiableList(list);
      } else {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String string() {
    pos++; // opening quote
    StringBuilder out = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c == '\\') {
        if (pos >= text.length()) {
          break;
        }
        char e = text.charAt(pos++);
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> out.append(unicodeEscape());
          default -> throw error("invalid escape");
        }
      } else if (c < 0x20) {
        throw error("control character in a string");
      } else {
        out.append(c);
      }
    }
    throw error("unterminated string");
  }

  private char unicodeEscape() {
    if (pos + 4 > text.length()) {
      throw error("truncated \\u escape");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(text.charAt(pos++), 16);
      if (d < 0) {
        throw error("invalid \\u escape");
      }
      v = v * 16 + d;
    }
    return (char) v;
  }

  private Object number() {
    int start = pos;
    if (peek('-')) {
      pos++;
    }
    if (peek('0')) {
      pos++;
    } else if (!digits()) {
      throw error("invalid number");
    }
    boolean integral = true;
    if (peek('.')) {
      pos++;
      integral = false;
      if (!digits()) {
        throw error("invalid number");
      }
    }
    if (peek('e') || peek('E')) {
      pos++;
      integral = false;
      if (peek('+') || peek('-')) {
        pos++;
      }
      if (!digits()) {
        throw error("invalid number");
      }
    }
    String literal = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(literal);
      } catch (NumberFormatException tooBig) {
        // fall through to a double
      }
    }
    return Double.parseDouble(literal);
  }

  private boolean digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos > start;
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("invalid literal");
    }
    pos += word.length();
    return value;
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("invalid JSON at offset " + pos + ": " + what);
  }
}
