package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/**
 * A stored {@code Idempotency-Key}: who used it for what, and the answer once recorded ({@code
 * status} null while the first attempt is applied but its answer not yet recorded). The body never
 * holds a vended credential. {@code principal} is the name the key was used under, {@code
 * principalIdentity} who that was (a principal's id is never reused; an external identity never
 * equals a principal): retries are matched by the identity.
 */
public record IdempotencyRecord(
    String key,
    String principal,
    String principalIdentity,
    String catalog,
    String operation,
    String requestHash,
    String attempt,
    Integer status,
    String body,
    long createdAt,
    long expiresAt) {
  public IdempotencyRecord {
    requireNonNull(key, "key");
    requireNonNull(principal, "principal");
    requireNonNull(principalIdentity, "principalIdentity");
    requireNonNull(catalog, "catalog");
    requireNonNull(operation, "operation");
    requireNonNull(requestHash, "requestHash");
    requireNonNull(attempt, "attempt");
    if (status != null && (status < 200 || status > 599)) {
      throw new IllegalArgumentException("Invalid stored status for " + key + ": " + status);
    }
  }

  public boolean answered() {
    return status != null;
  }

  public boolean expiredAt(long nowMs) {
    return expiresAt <= nowMs;
  }
}
