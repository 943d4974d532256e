package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

/**
 * A token request the endpoint refuses, in OAuth's terms: the HTTP status, the OAuth {@code error}
 * code and a description safe to return (it never holds a secret or a token). {@code
 * retryAfterSeconds} is positive for a throttled request (429), zero otherwise.
 */
public final class TokenRefused extends RuntimeException {
  private final int status;
  private final String error;
  private final long retryAfterSeconds;

  TokenRefused(int status, String error, String description, long retryAfterSeconds) {
    super(requireNonNull(description, "description"), null, false, false);
    this.status = status;
    this.error = requireNonNull(error, "error");
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public int status() {
    return status;
  }

  public String error() {
    return error;
  }

  public String description() {
    return getMessage();
  }

  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
