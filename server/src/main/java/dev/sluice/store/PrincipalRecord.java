package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/** A principal; {@code secretHash} is a slow, salted hash, never the secret itself. */
public record PrincipalRecord(
    String name,
    String clientId,
    String secretHash,
    Map<String, String> properties,
    long createdAt,
    long credentialVersion) {
  public PrincipalRecord {
    requireNonNull(name, "name");
    requireNonNull(clientId, "clientId");
    requireNonNull(secretHash, "secretHash");
    properties = Map.copyOf(requireNonNull(properties, "properties"));
  }

  public PrincipalRecord(
      String name,
      String clientId,
      String secretHash,
      Map<String, String> properties,
      long createdAt) {
    this(name, clientId, secretHash, properties, createdAt, 1);
  }

  @Override
  public String toString() {
    return "PrincipalRecord[name=" + name + ", clientId=" + clientId + "]";
  }
}
