package dev.sluice.vending;

import java.time.Duration;

/**
 * How long the catalog's own storage calls (metadata files, purge) wait, for every backend that can
 * bound them: a stalled store fails a metadata read in seconds, then the load gets 503, instead of
 * holding the request through the SDK's default retries (minutes on S3, GCS and Azure). Metadata
 * files are small; data files are the engines'.
 */
public final class CatalogIoTimeouts {
  /** One attempt: connect, send, answer. */
  public static final Duration ATTEMPT = Duration.ofSeconds(5);

  /** All attempts of one call, retries and their backoff included. */
  public static final Duration CALL = Duration.ofSeconds(10);

  /** Attempts of one call at most (where the SDK counts attempts, not time). */
  public static final int MAX_ATTEMPTS = 3;

  private CatalogIoTimeouts() {}
}
