package dev.sluice.testing.gcp;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * The fake's view of HTTP: a request ({@link Call}) and an answer ({@link Reply}) as plain values,
 * so a batch sub-request is served by the same code as a request on the wire.
 */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();

  private Http() {}

  /** One request; header names are case-insensitive, the path and query still percent-encoded. */
  record Call(
      String method,
      String rawPath,
      String rawQuery,
      Map<String, List<String>> headers,
      byte[] body) {
    Call {
      requireNonNull(method, "method");
      requireNonNull(rawPath, "rawPath");
      TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
      headers = copy;
      requireNonNull(body, "body");
    }

    String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The query, decoded once as a form ('+' is a space); the first of repeated names wins. */
    Map<String, String> query() {
      return decodeForm(rawQuery);
    }

    /** The body as an application/x-www-form-urlencoded form. */
    Map<String, String> form() {
      return decodeForm(new String(body, UTF_8));
    }

    /** The bearer token of the Authorization header, if there is one. */
    Optional<String> bearer() {
      String authorization = header("Authorization");
      if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return Optional.empty();
      }
      return Optional.of(authorization.substring(7).trim());
    }
  }

  /** One answer. */
  static final class Reply {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    final byte[] body;

    Reply(int status, byte[] body) {
      this.status = status;
      this.body = requireNonNull(body, "body");
    }

    static Reply json(int status, Object value) {
      try {
        byte[] body =
            value instanceof String text ? text.getBytes(UTF_8) : JSON.writeValueAsBytes(value);
        return new Reply(status, body).header("Content-Type", "application/json; charset=UTF-8");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    static Reply empty(int status) {
      return new Reply(status, new byte[0]);
    }

    Reply header(String name, String value) {
      headers.put(name, value);
      return this;
    }
  }

  /**
   * The request on the wire; a gzip Content-Encoding is undone (google-http-client gzips the bodies
   * of single-request uploads and Google accepts them).
   */
  static Call read(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    if (encoding != null && encoding.trim().equalsIgnoreCase("gzip")) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
        body = in.readAllBytes();
      }
    }
    return new Call(
        exchange.getRequestMethod(),
        exchange.getRequestURI().getRawPath(),
        exchange.getRequestURI().getRawQuery(),
        exchange.getRequestHeaders(),
        body);
  }

  static void write(HttpExchange exchange, Reply reply) throws IOException {
    reply.headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    boolean noBody = reply.body.length == 0 || exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(reply.status, noBody ? -1 : reply.body.length);
    if (!noBody) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(reply.body);
      }
    }
  }

  /** Decodes %XX escapes exactly once (UTF-8); unlike a form, '+' stays '+'. */
  static String percentDecode(String raw) {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        if (i + 2 >= raw.length()) {
          throw new IllegalArgumentException("a truncated %-escape in " + raw);
        }
        bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.writeBytes(String.valueOf(c).getBytes(UTF_8));
      }
    }
    return bytes.toString(UTF_8);
  }

  /** Percent-encodes a path segment (everything but unreserved characters). */
  static String encodeSegment(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  static Map<String, String> decodeForm(String raw) {
    Map<String, String> values = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return values;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), UTF_8);
      values.putIfAbsent(name, value);
    }
    return values;
  }
}
