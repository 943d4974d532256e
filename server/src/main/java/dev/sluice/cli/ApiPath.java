package dev.sluice.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Builds management API paths from names, percent-encoding each one as a single path segment. */
final class ApiPath {
  private ApiPath() {}

  /** {@code of("catalogs", "a b")} is {@code /catalogs/a%20b}. */
  static String of(String... segments) {
    StringBuilder path = new StringBuilder();
    for (String segment : segments) {
      path.append('/').append(encode(segment));
    }
    return path.toString();
  }

  static String encode(String segment) {
    // URLEncoder does form encoding; a path wants %20 for a space and a literal '+' escaped.
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
