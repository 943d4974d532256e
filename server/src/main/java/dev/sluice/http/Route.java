package dev.sluice.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One route: a method and a path template whose {@code {name}} segments bind parameters, and the
 * largest body it takes ({@code maxBodyBytes}; 0: the server's {@code maxRequestBytes}). A {@code
 * probe} (health, readiness, metrics) is not counted against the request limits: it answers without
 * waiting on anything, and an orchestrator must reach it when every slot is taken.
 */
record Route(
    String method,
    String template,
    List<String> segments,
    boolean authenticated,
    RouteHandler handler,
    int maxBodyBytes,
    boolean probe) {

  static Route of(String method, String template, boolean authenticated, RouteHandler handler) {
    return of(method, template, authenticated, handler, 0);
  }

  static Route of(
      String method,
      String template,
      boolean authenticated,
      RouteHandler handler,
      int maxBodyBytes) {
    return new Route(
        method,
        template,
        List.of(template.substring(1).split("/")),
        authenticated,
        handler,
        maxBodyBytes,
        false);
  }

  /** This route as a probe ({@link Route}). */
  Route asProbe() {
    return new Route(method, template, segments, authenticated, handler, maxBodyBytes, true);
  }

  /** True when the raw segments fit this template (literals equal, parameters non-empty). */
  boolean matches(List<String> rawSegments) {
    if (rawSegments.size() != segments.size()) {
      return false;
    }
    for (int i = 0; i < segments.size(); i++) {
      String pattern = segments.get(i);
      String actual = rawSegments.get(i);
      if (isParameter(pattern) ? actual.isEmpty() : !pattern.equals(actual)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Binds raw (still percent-encoded) segments that {@link #matches} accepted. Every request tries
   * routes in turn, so the map is made only for the one that matches.
   */
  Map<String, String> bind(List<String> rawSegments) {
    Map<String, String> params = new HashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String pattern = segments.get(i);
      if (isParameter(pattern)) {
        params.put(pattern.substring(1, pattern.length() - 1), rawSegments.get(i));
      }
    }
    return params;
  }

  private static boolean isParameter(String segment) {
    return segment.startsWith("{");
  }
}
