package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

/**
 * A Cloud Storage request the fake refused: 401 (no, unknown or expired token) or 403 (the
 * permission is outside the token's account IAM, its scopes or its access boundary). {@code object}
 * is null for a list; {@code account} is null when the token was unknown.
 */
public record Refusal(
    int status,
    String method,
    String bucket,
    String object,
    String permission,
    String account,
    String reason) {
  public Refusal {
    requireNonNull(method, "method");
    requireNonNull(bucket, "bucket");
    requireNonNull(permission, "permission");
    requireNonNull(reason, "reason");
  }
}
