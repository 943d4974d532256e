package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One request as the {@link R2Gateway} received it: method, the raw (still percent-encoded) path
 * and query, headers by lower-case name, and the body as sent (still aws-chunked when it was).
 */
record R2Request(
    String method,
    String rawPath,
    String rawQuery,
    Map<String, List<String>> headers,
    byte[] body) {

  R2Request {
    requireNonNull(method, "method");
    requireNonNull(rawPath, "rawPath");
    rawQuery = rawQuery == null ? "" : rawQuery;
    TreeMap<String, List<String>> lower = new TreeMap<>();
    headers.forEach(
        (name, values) ->
            lower
                .computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>())
                .addAll(values));
    headers = Collections.unmodifiableMap(lower);
    requireNonNull(body, "body");
  }

  /** The first value of header {@code name} (any case), if present. */
  Optional<String> header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** The query parameters, names and values percent-decoded, in the order sent. */
  Map<String, List<String>> query() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
    return out;
  }

  /** Percent-decoding of a path or query component ('+' stays '+': S3 encodes a space as %20). */
  static String decode(String raw) {
    return URLDecoder.decode(raw.replace("+", "%2B"), UTF_8);
  }
}
