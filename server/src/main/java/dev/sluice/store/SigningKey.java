package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/** A symmetric token signing key; the material is base64 and never logged. */
public record SigningKey(String kid, String material, long createdAt) {
  public SigningKey {
    requireNonNull(kid, "kid");
    requireNonNull(material, "material");
  }

  @Override
  public String toString() {
    return "SigningKey[kid=" + kid + "]";
  }
}
