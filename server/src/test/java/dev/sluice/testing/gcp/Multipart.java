package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A MIME multipart body (multipart/related uploads, multipart/mixed batches) split into parts on
 * bytes, so binary media survives.
 */
final class Multipart {
  /** One part: its headers (case-insensitive names) and its body bytes. */
  record Part(Map<String, String> headers, byte[] body) {}

  private Multipart() {}

  /** The boundary parameter of a multipart Content-Type, or a 400. */
  static String boundary(String contentType) {
    if (contentType != null) {
      for (String parameter : contentType.split(";")) {
        String trimmed = parameter.trim();
        if (trimmed.regionMatches(true, 0, "boundary=", 0, 9)) {
          String value = trimmed.substring(9);
          return value.startsWith("\"") && value.endsWith("\"") && value.length() > 1
              ? value.substring(1, value.length() - 1)
              : value;
        }
      }
    }
    throw GcsError.badRequest("Content-Type " + contentType + " has no multipart boundary");
  }

  static List<Part> parse(byte[] body, String boundary) {
    byte[] delimiter = ("--" + boundary).getBytes(ISO_8859_1);
    List<Part> parts = new ArrayList<>();
    int at = indexOf(body, delimiter, 0);
    if (at < 0) {
      throw GcsError.badRequest("multipart body without its boundary");
    }
    while (true) {
      int afterDelimiter = at + delimiter.length;
      if (startsWith(body, afterDelimiter, "--")) {
        return parts;
      }
      int partStart = skipLineBreak(body, afterDelimiter);
      int next = indexOf(body, delimiter, partStart);
      if (next < 0) {
        throw GcsError.badRequest("multipart body without its closing boundary");
      }
      // The line break before a delimiter belongs to the delimiter.
      int partEnd = next;
      if (partEnd >= 2 && body[partEnd - 2] == '\r' && body[partEnd - 1] == '\n') {
        partEnd -= 2;
      } else if (partEnd >= 1 && body[partEnd - 1] == '\n') {
        partEnd -= 1;
      }
      parts.add(part(Arrays.copyOfRange(body, partStart, partEnd)));
      at = next;
    }
  }

  /** Splits header lines from the body at the first empty line. */
  static Part part(byte[] raw) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int at = 0;
    while (true) {
      int end = lineEnd(raw, at);
      String line = new String(raw, at, end - at, ISO_8859_1);
      at = skipLineBreak(raw, end);
      if (line.isEmpty() || end >= raw.length) {
        if (!line.isEmpty()) {
          addHeader(headers, line);
        }
        return new Part(headers, Arrays.copyOfRange(raw, Math.min(at, raw.length), raw.length));
      }
      addHeader(headers, line);
    }
  }

  static int lineEnd(byte[] raw, int from) {
    int at = from;
    while (at < raw.length && raw[at] != '\r' && raw[at] != '\n') {
      at++;
    }
    return at;
  }

  static int skipLineBreak(byte[] raw, int at) {
    if (at < raw.length && raw[at] == '\r') {
      at++;
    }
    if (at < raw.length && raw[at] == '\n') {
      at++;
    }
    return at;
  }

  private static void addHeader(Map<String, String> headers, String line) {
    int colon = line.indexOf(':');
    if (colon > 0) {
      headers.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
    }
  }

  private static boolean startsWith(byte[] body, int at, String text) {
    byte[] bytes = text.getBytes(ISO_8859_1);
    if (at + bytes.length > body.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (body[at + i] != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] body, byte[] needle, int from) {
    outer:
    for (int i = from; i <= body.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (body[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
