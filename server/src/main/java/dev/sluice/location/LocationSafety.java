package dev.sluice.location;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether a location can be expressed safely in a credential's scope, for every backend (the
 * CVE-2026-42812 class: a location that escapes validation). A location is unsafe when it holds a
 * control character, a query ({@code ?}) or fragment, a backslash, a {@code .} or {@code ..}
 * segment (also percent-encoded), or lies outside the catalog's allowedLocations. No credential is
 * ever vended for an unsafe location. Each backend adds its own rules on top (for S3, the IAM
 * policy characters: {@code SessionPolicyBuilder.unsafe}).
 */
public final class LocationSafety {
  /**
   * Longer locations are refused: a metadata file's key (location + {@code /metadata/} + about 60
   * characters) must stay under S3's 1024-byte key limit, and keys must fit the store's index.
   */
  public static final int MAX_LOCATION_BYTES = 900;

  private LocationSafety() {}

  /** Empty when safe to vend for; otherwise why not (the location itself is not echoed). */
  public static Optional<String> unsafe(String location, LocationPolicy policy) {
    Optional<String> escape = escapes(location);
    if (escape.isPresent()) {
      return escape;
    }
    if (!policy.allows(location)) {
      return Optional.of("outside the catalog's allowed locations");
    }
    return Optional.empty();
  }

  /**
   * Empty unless the location tries to escape its path: a control character, a query or fragment, a
   * backslash, a {@code .} or {@code ..} segment, or a percent-encoded relative segment, separator,
   * backslash or control character. Such a location is refused outright wherever a table names it;
   * characters only a backend's policy language cannot express ({@code *}, {@code $} for S3) are
   * legal and only stop vending.
   */
  public static Optional<String> escapes(String location) {
    if (location == null || location.isEmpty()) {
      return Optional.of("empty location");
    }
    if (location.getBytes(StandardCharsets.UTF_8).length > MAX_LOCATION_BYTES) {
      return Optional.of("longer than " + MAX_LOCATION_BYTES + " bytes");
    }
    for (int i = 0; i < location.length(); i++) {
      char c = location.charAt(i);
      if (Character.isISOControl(c)) {
        return Optional.of("control character");
      }
      switch (c) {
        case '?' -> {
          return Optional.of("IAM wildcard or query");
        }
        case '#' -> {
          return Optional.of("fragment");
        }
        case '\\' -> {
          return Optional.of("backslash");
        }
        default -> {}
      }
    }
    // Percent-encoding must not hide a segment separator or a relative segment.
    String decoded = location;
    for (int round = 0; round < 3 && decoded.indexOf('%') >= 0; round++) {
      try {
        decoded = URLDecoder.decode(decoded.replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return Optional.of("malformed percent-encoding");
      }
    }
    if (!decoded.equals(location)) {
      if (decoded.chars().anyMatch(ch -> ch == '\\' || Character.isISOControl(ch))) {
        return Optional.of("encoded backslash or control character");
      }
      String path = decoded.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*", "");
      for (String segment : path.split("/")) {
        if (segment.equals(".") || segment.equals("..")) {
          return Optional.of("encoded relative segment");
        }
      }
      String rawPath = location.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/]*", "");
      if (path.split("/", -1).length != rawPath.split("/", -1).length) {
        return Optional.of("encoded path separator");
      }
    }
    try {
      StorageLocation.parse(location);
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage().replaceAll(":.*", ""));
    }
    return Optional.empty();
  }
}
