package dev.sluice.client;

import static java.util.Objects.requireNonNull;

/**
 * One S3 credential Sluice vended for a table, valid for object keys under {@code prefix} (an
 * {@code s3://bucket/key} URI). {@code expiresAtMillis} is the credential's real expiry as Sluice
 * reported it, 0 when Sluice did not say. {@link #toString()} shows no secret.
 */
public record VendedCredential(
    String prefix,
    String accessKeyId,
    String secretAccessKey,
    String sessionToken,
    long expiresAtMillis) {
  public VendedCredential {
    requireNonNull(prefix, "prefix");
    requireNonNull(accessKeyId, "accessKeyId");
    requireNonNull(secretAccessKey, "secretAccessKey");
  }

  /** Whether Sluice reported an expiry. */
  public boolean hasExpiry() {
    return expiresAtMillis > 0;
  }

  @Override
  public String toString() {
    return "VendedCredential[prefix="
        + prefix
        + ", accessKeyId="
        + accessKeyId
        + ", expiresAtMillis="
        + expiresAtMillis
        + "]";
  }
}
