package dev.sluice.client.comet;

/**
 * The bridge cannot give Comet a credential or the locations for a bucket: the message names the
 * bucket, the path and the reason (no grant, no such table, Sluice unreachable), never a secret.
 */
public final class CredentialUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  private CredentialUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  static CredentialUnavailableException forPath(
      String bucket, String path, String reason, Throwable cause) {
    return new CredentialUnavailableException(
        "Sluice cannot vend an S3 credential for bucket '"
            + bucket
            + "', path '"
            + path
            + "' (s3://"
            + bucket
            + (path.startsWith("/") ? "" : "/")
            + path
            + "): "
            + reason,
        cause);
  }

  static CredentialUnavailableException forLocations(
      String bucket, String reason, Throwable cause) {
    return new CredentialUnavailableException(
        "Sluice cannot list the readable table locations in bucket '" + bucket + "': " + reason,
        cause);
  }
}
