package dev.sluice.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SHA-256 of what makes a request the request it is (operation, method, path parameters, query,
 * body): a retry under an {@code Idempotency-Key} must carry the same, or it is another request.
 */
final class RequestFingerprint {
  private RequestFingerprint() {}

  static String of(Exchange x, String operation) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    part(digest, operation);
    part(digest, x.method());
    sorted(digest, x.rawPathParams());
    sorted(digest, x.queryParams());
    digest.update(x.body());
    return HexFormat.of().formatHex(digest.digest());
  }

  private static void sorted(MessageDigest digest, Map<String, String> values) {
    new TreeMap<>(values)
        .forEach(
            (name, value) -> {
              part(digest, name);
              part(digest, value);
            });
    part(digest, "");
  }

  /** Length-prefixed, so that no two different sequences of parts hash alike. */
  private static void part(MessageDigest digest, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    digest.update((byte) (bytes.length >>> 24));
    digest.update((byte) (bytes.length >>> 16));
    digest.update((byte) (bytes.length >>> 8));
    digest.update((byte) bytes.length);
    digest.update(bytes);
  }
}
