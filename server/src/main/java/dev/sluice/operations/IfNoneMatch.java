package dev.sluice.operations;

/**
 * RFC 9110's {@code If-None-Match} (section 13.1.2): {@code *}, or a comma-separated list of entity
 * tags, each {@code "…"} or weak {@code W/"…"}. It is evaluated with the weak comparison: a tag
 * matches whether or not either side is marked weak. A malformed list matches nothing, so the
 * request is answered in full.
 */
final class IfNoneMatch {
  private IfNoneMatch() {}

  /** Whether {@code header} (null when absent) names {@code etag}, a quoted tag. */
  static boolean matches(String header, String etag) {
    if (header == null) {
      return false;
    }
    if (header.strip().equals("*")) {
      return true; // the table exists: a current representation is there
    }
    String opaque = etag.startsWith("W/") ? etag.substring(2) : etag;
    int i = 0;
    int n = header.length();
    while (i < n) {
      char c = header.charAt(i);
      if (c == ' ' || c == '\t' || c == ',') {
        i++;
        continue;
      }
      if (header.startsWith("W/", i)) {
        i += 2; // weak comparison: the weakness indicator does not count
      }
      int close = i < n && header.charAt(i) == '"' ? header.indexOf('"', i + 1) : -1;
      if (close < 0) {
        return false;
      }
      if (close + 1 - i == opaque.length() && header.startsWith(opaque, i)) {
        return true;
      }
      i = close + 1;
    }
    return false;
  }
}
