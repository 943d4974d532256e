package dev.sluice.http;

import java.util.List;

/** One route: a method and a path template whose {@code {name}} segments bind parameters. */
record Route(
    String method,
    String template,
    List<String> segments,
    boolean authenticated,
    RouteHandler handler) {

  static Route of(String method, String template, boolean authenticated, RouteHandler handler) {
    return new Route(
        method, template, List.of(template.substring(1).split("/")), authenticated, handler);
  }

  /** Binds raw (still percent-encoded) segments, or returns null if the path does not match. */
  java.util.Map<String, String> match(List<String> rawSegments) {
    if (rawSegments.size() != segments.size()) {
      return null;
    }
    java.util.Map<String, String> params = new java.util.HashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String pattern = segments.get(i);
      String actual = rawSegments.get(i);
      if (pattern.startsWith("{")) {
        if (actual.isEmpty()) {
          return null;
        }
        params.put(pattern.substring(1, pattern.length() - 1), actual);
      } else if (!pattern.equals(actual)) {
        return null;
      }
    }
    return params;
  }
}
