package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A vended credential: the location prefix it is for, Iceberg client properties that carry it (see
 * {@link ClientProperties}), and when it expires. The one credential type for every backend.
 */
public record StorageCredential(String prefix, Map<String, String> config, long expiresAtMs) {
  public StorageCredential {
    requireNonNull(prefix, "prefix");
    config = Map.copyOf(requireNonNull(config, "config"));
  }

  @Override
  public String toString() {
    return "StorageCredential[prefix=" + prefix + ", expiresAtMs=" + expiresAtMs + "]";
  }
}
