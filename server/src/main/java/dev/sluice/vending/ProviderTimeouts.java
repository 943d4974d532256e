package dev.sluice.vending;

import java.time.Duration;

/**
 * How long a vend waits for a credential provider (AWS STS or an S3-compatible one, Entra's user
 * delegation key), in one place for every backend: a provider that is down makes a load fail with
 * 503 naming the catalog within {@link #CALL}, instead of after the SDK's own retries (STS down
 * held loads 8.6-9.8 s, issue 33). A credential vended before and still valid for {@link
 * VendingService#STALE_MIN_REMAINING} is served meanwhile.
 */
public final class ProviderTimeouts {
  /** One attempt: connect, send, answer. */
  public static final Duration ATTEMPT = Duration.ofSeconds(3);

  /** All attempts of one call, retries and their backoff included. */
  public static final Duration CALL = Duration.ofSeconds(6);

  /**
   * The longest a load waits for any provider call, whatever its client library's own timeouts
   * (google-auth's are 20 s per attempt): {@link #CALL} and a second, so that a client that keeps
   * to {@link #CALL} reports its own error first.
   */
  public static final Duration WAIT = CALL.plusSeconds(1);

  private ProviderTimeouts() {}
}
