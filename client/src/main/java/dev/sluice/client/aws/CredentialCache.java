package dev.sluice.client.aws;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * One credential shared by every thread, refreshed by at most one STS call at a time (single
 * flight). A credential is refreshed once {@code expiration - now < minTtl + jitter}, the jitter
 * drawn once per credential; while a refresh fails and the current credential is still valid, the
 * current one is served and the next refresh waits {@link #RETRY_PAUSE}; with no valid credential
 * the caller waits for the flight and gets its error. A refresh runs on the caller that found the
 * credential due (no thread of its own); the other callers meanwhile keep the current one.
 */
final class CredentialCache {
  private static final Logger LOG = Logger.getLogger(CredentialCache.class.getName());

  /** A credential this close to expiry counts as expired: a request signed now may land later. */
  static final Duration VALIDITY_MARGIN = Duration.ofSeconds(15);

  /** After a failed refresh with a valid credential in hand, wait this long before the next. */
  static final Duration RETRY_PAUSE = Duration.ofSeconds(30);

  /** A credential and when to refresh it. */
  record Held(AwsSessionCredentials credentials, Instant refreshAt, Instant expiration) {
    boolean freshAt(Instant now) {
      return now.isBefore(refreshAt);
    }

    boolean validAt(Instant now) {
      return now.isBefore(expiration.minus(VALIDITY_MARGIN));
    }
  }

  private final String label;
  private final Supplier<AwsSessionCredentials> fetcher;
  private final Clock clock;
  private final Duration minTtl;
  private final Duration refreshJitter;
  private final LongUnaryOperator random;

  private final Object lock = new Object();
  private volatile Held current;
  private CompletableFuture<Held> inFlight; // guarded by lock
  private Instant nextRefreshAttempt = Instant.MIN; // guarded by lock

  /**
   * {@code label} names the credential in logs (the role ARN, never a secret); {@code random}
   * returns a value in {@code [0, bound]} for a bound in milliseconds.
   */
  CredentialCache(
      String label,
      Supplier<AwsSessionCredentials> fetcher,
      Clock clock,
      Duration minTtl,
      Duration refreshJitter,
      LongUnaryOperator random) {
    this.label = requireNonNull(label, "label");
    this.fetcher = requireNonNull(fetcher, "fetcher");
    this.clock = requireNonNull(clock, "clock");
    this.minTtl = requireNonNull(minTtl, "minTtl");
    this.refreshJitter = requireNonNull(refreshJitter, "refreshJitter");
    this.random = requireNonNull(random, "random");
  }

  AwsSessionCredentials get() {
    Instant now = clock.instant();
    Held held = current;
    if (held != null && held.freshAt(now)) {
      return held.credentials();
    }
    if (held != null && held.validAt(now)) {
      return refreshWhileValid(held, now);
    }
    return awaitFlight(now);
  }

  /** Stale but valid: one caller refreshes, everyone else keeps the current credential. */
  private AwsSessionCredentials refreshWhileValid(Held held, Instant now) {
    CompletableFuture<Held> mine;
    synchronized (lock) {
      Held latest = current;
      if (latest != held || inFlight != null || now.isBefore(nextRefreshAttempt)) {
        return latest.credentials();
      }
      mine = inFlight = new CompletableFuture<>();
    }
    try {
      return fly(mine).credentials();
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Web identity refresh for {0} failed; serving the current credential (expires {1}): {2}",
          new Object[] {label, held.expiration(), e.getMessage()});
      return held.credentials();
    }
  }

  /** No valid credential: lead a flight or wait for the one under way, sharing its outcome. */
  private AwsSessionCredentials awaitFlight(Instant now) {
    CompletableFuture<Held> flight;
    boolean leader = false;
    synchronized (lock) {
      Held latest = current;
      if (latest != null && latest.freshAt(now)) {
        return latest.credentials(); // a flight just landed
      }
      if (inFlight == null) {
        inFlight = new CompletableFuture<>();
        leader = true;
      }
      flight = inFlight;
    }
    if (leader) {
      return fly(flight).credentials();
    }
    try {
      return flight.join().credentials();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw SdkClientException.create("Web identity refresh for " + label + " failed", e);
    }
  }

  /** Runs the STS call on this thread and publishes the outcome to the flight's waiters. */
  private Held fly(CompletableFuture<Held> flight) {
    try {
      Held fetched = hold(fetcher.get());
      current = fetched; // before the flight ends, so newcomers see it
      flight.complete(fetched);
      return fetched;
    } catch (RuntimeException e) {
      synchronized (lock) {
        nextRefreshAttempt = clock.instant().plus(RETRY_PAUSE);
      }
      flight.completeExceptionally(e);
      throw e;
    } finally {
      synchronized (lock) {
        inFlight = null;
      }
    }
  }

  private Held hold(AwsSessionCredentials credentials) {
    Instant expiration =
        credentials
            .expirationTime()
            .orElseThrow(
                () ->
                    SdkClientException.create(
                        "STS returned a credential without expiration for " + label));
    Instant obtained = clock.instant();
    Duration jitter = Duration.ofMillis(random.applyAsLong(refreshJitter.toMillis()));
    Instant refreshAt = expiration.minus(minTtl).minus(jitter);
    // A credential shorter-lived than minTtl would otherwise be refreshed on every call.
    Instant halfway = obtained.plus(Duration.between(obtained, expiration).dividedBy(2));
    if (refreshAt.isBefore(halfway)) {
      refreshAt = halfway;
    }
    return new Held(credentials, refreshAt, expiration);
  }

  /** The current credential's refresh time, for tests. */
  Instant refreshAt() {
    Held held = current;
    return held == null ? null : held.refreshAt();
  }
}
