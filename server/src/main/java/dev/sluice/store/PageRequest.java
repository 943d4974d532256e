package dev.sluice.store;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Keyset pagination: the token is the last key of the previous page, base64url-encoded, so
 * pages stay stable under concurrent inserts and cost the same at any depth.
 */
public record PageRequest(String after, int size) {
  public static final int MAX_SIZE = 1000;

  public static PageRequest of(String pageToken, Integer pageSize) {
    if (pageSize != null && (pageSize < 1 || pageSize > MAX_SIZE)) {
      throw new IllegalArgumentException(
          "Invalid pageSize: " + pageSize + " (must be between 1 and " + MAX_SIZE + ")");
    }
    String after = null;
    if (pageToken != null && !pageToken.isEmpty()) {
      try {
        after = new String(Base64.getUrlDecoder().decode(pageToken), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Invalid pageToken: " + pageToken);
      }
    }
    // Without a pageSize a client asked for everything: page internally but return all.
    return new PageRequest(after, pageSize == null ? Integer.MAX_VALUE : pageSize);
  }

  public static PageRequest all() {
    return new PageRequest(null, Integer.MAX_VALUE);
  }

  public static String tokenFor(String lastKey) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
  }
}
