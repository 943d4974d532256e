package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.UUID;

/**
 * A principal; {@code secretHash} is a slow, salted hash, never the secret itself. {@code id} is
 * never reused: a principal created again under a deleted one's name gets a new one.
 */
public record PrincipalRecord(
    String name,
    String clientId,
    String secretHash,
    Map<String, String> properties,
    long createdAt,
    long credentialVersion,
    String id) {
  /**
   * How the ids of principals that existed before ids did begin (schema V9): their name follows.
   */
  public static final String LEGACY_ID_PREFIX = "legacy-";

  public PrincipalRecord {
    requireNonNull(name, "name");
    requireNonNull(clientId, "clientId");
    requireNonNull(secretHash, "secretHash");
    properties = Map.copyOf(requireNonNull(properties, "properties"));
    requireNonNull(id, "id");
  }

  /** A new principal, with a new id. */
  public PrincipalRecord(
      String name,
      String clientId,
      String secretHash,
      Map<String, String> properties,
      long createdAt) {
    this(name, clientId, secretHash, properties, createdAt, 1, newId());
  }

  /** A fresh id: random, so no principal ever gets one another had. */
  public static String newId() {
    return "p-" + UUID.randomUUID();
  }

  @Override
  public String toString() {
    return "PrincipalRecord[name=" + name + ", clientId=" + clientId + "]";
  }
}
