package dev.sluice.client.comet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Object paths as Comet's location-scoped SPI writes them: {@code /}-separated segments without the
 * scheme or bucket, percent-encoded the way the Rust {@code object_store} crate encodes a path
 * segment (control characters, non-ASCII bytes, {@code %} and the characters AWS and GCS advise
 * against in keys). Comet decodes before it compares, so what matters is that a {@code %} is always
 * written {@code %25}; matching object_store exactly keeps the strings equal too.
 *
 * <p>A segment is invalid if it is empty, {@code .} or {@code ..}, or holds a control character;
 * Comet fails a read on such a location, so these are refused here first.
 */
final class ObjectPaths {
  /** ASCII bytes object_store percent-encodes in a segment, besides controls. */
  private static final String ESCAPED_ASCII = "/\\{^}%`]\">[~<#|*?";

  private ObjectPaths() {}

  /** The raw (unencoded) segments of an object key or key prefix; outer slashes are ignored. */
  static List<String> segmentsOfKey(String key) {
    String trimmed = trimSlashes(key);
    List<String> out = new ArrayList<>();
    if (trimmed.isEmpty()) {
      return out;
    }
    for (String segment : trimmed.split("/", -1)) {
      out.add(validSegment(segment, key));
    }
    return out;
  }

  /** Decodes a percent-encoded path (a leading or trailing slash is optional) into segments. */
  static List<String> decodePath(String encoded) {
    String trimmed = trimSlashes(encoded);
    List<String> out = new ArrayList<>();
    if (trimmed.isEmpty()) {
      return out;
    }
    for (String segment : trimmed.split("/", -1)) {
      out.add(validSegment(decodeSegment(segment, encoded), encoded));
    }
    return out;
  }

  /** The encoded path of {@code segments}, without a leading slash ("" for the bucket root). */
  static String encodePath(List<String> segments) {
    StringBuilder out = new StringBuilder();
    for (String segment : segments) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(encodeSegment(segment));
    }
    return out.toString();
  }

  static String encodeSegment(String segment) {
    validSegment(segment, segment);
    StringBuilder out = new StringBuilder(segment.length());
    for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x20 || c >= 0x7f || ESCAPED_ASCII.indexOf(c) >= 0) {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      } else {
        out.append((char) c);
      }
    }
    return out.toString();
  }

  private static String decodeSegment(String segment, String path) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    byte[] raw = segment.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < raw.length; i++) {
      if (raw[i] != '%') {
        bytes.write(raw[i]);
        continue;
      }
      int hi = i + 2 < raw.length ? Character.digit(raw[i + 1], 16) : -1;
      int lo = i + 2 < raw.length ? Character.digit(raw[i + 2], 16) : -1;
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException(
            "invalid percent-encoding in path '"
                + path
                + "': a % must be followed by two hex digits");
      }
      bytes.write(hi * 16 + lo);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("path '" + path + "' does not decode to valid UTF-8");
    }
  }

  private static String validSegment(String segment, String path) {
    if (segment.isEmpty()) {
      throw new IllegalArgumentException("path '" + path + "' has an empty segment");
    }
    if (segment.equals(".") || segment.equals("..")) {
      throw new IllegalArgumentException("path '" + path + "' has a '" + segment + "' segment");
    }
    for (int i = 0; i < segment.length(); i++) {
      if (Character.isISOControl(segment.charAt(i))) {
        throw new IllegalArgumentException(
            "path '" + printable(path) + "' has a control character in a segment");
      }
    }
    return segment;
  }

  private static String trimSlashes(String path) {
    int start = 0;
    int end = path.length();
    while (start < end && path.charAt(start) == '/') {
      start++;
    }
    while (end > start && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(start, end);
  }

  private static String printable(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : c);
    }
    return out.toString();
  }
}
