package dev.sluice.api;

import java.util.List;

/**
 * {@code GET /signing-keys}: the token signing keys, newest (the one that signs new tokens, {@code
 * active}) first; ids and ages only, never the material.
 */
public record SigningKeys(List<SigningKey> keys) {
  public SigningKeys {
    keys = Fields.copy(keys);
  }

  /** One key: its id, when it was made (epoch ms), and whether it signs new tokens. */
  public record SigningKey(String kid, long createdAt, boolean active) {}
}
