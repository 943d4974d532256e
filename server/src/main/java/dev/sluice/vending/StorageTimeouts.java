package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How long the storage clients wait, for every backend that can bound them: read from the server
 * config ({@code storage.providerTimeouts}, {@code storage.providerWait}, {@code
 * storage.catalogIoTimeouts}) and handed to each vendor, signer and catalog FileIO as it is opened
 * ({@link StorageBackends#openVendor}, {@link StorageBackends#openCatalogIO}). The backends are
 * built before the config is read, so they hold none of it themselves. {@link #DEFAULT} is the one
 * home of the values the config falls back to.
 */
public record StorageTimeouts(Provider provider, CatalogIo catalogIo) {
  public static final StorageTimeouts DEFAULT =
      new StorageTimeouts(Provider.DEFAULT, CatalogIo.DEFAULT);

  public StorageTimeouts {
    requireNonNull(provider, "provider");
    requireNonNull(catalogIo, "catalogIo");
  }

  /**
   * A vend's calls to its credential provider (AWS STS or an S3-compatible one, Entra's user
   * delegation key): a provider that is down makes a load fail with 503 naming the catalog within
   * {@code call}, instead of after the SDK's own retries (STS down held loads 8.6-9.8 s, issue 33).
   * A credential vended before and still valid for {@link VendingService#STALE_MIN_REMAINING} is
   * served meanwhile.
   *
   * @param attempt one attempt: connect, send, answer
   * @param call all attempts of one call, retries and their backoff included
   * @param loadWait the longest a load waits for any provider call, whatever its client library's
   *     own timeouts (google-auth's are 20 s per attempt): {@link VendingService}'s own bound. By
   *     default {@code call} and a second ({@link #defaultLoadWait}), so that a client that keeps
   *     to {@code call} reports its own error first.
   */
  public record Provider(Duration attempt, Duration call, Duration loadWait) {
    public static final Provider DEFAULT = of(Duration.ofSeconds(3), Duration.ofSeconds(6));

    public Provider {
      Checks.requireShorter(
          "provider", requireNonNull(attempt, "attempt"), requireNonNull(call, "call"));
      Checks.requirePositive("provider load wait", requireNonNull(loadWait, "loadWait"));
    }

    /** With the default load wait for {@code call}. */
    public static Provider of(Duration attempt, Duration call) {
      return new Provider(attempt, call, defaultLoadWait(call));
    }

    /** The load wait when none is set: {@code call} and a second. */
    public static Duration defaultLoadWait(Duration call) {
      return call.plusSeconds(1);
    }

    /**
     * How many attempts of {@link #attempt} fit in {@link #call}: at least one, at most {@code
     * max}. For an SDK that bounds each try but not the call (Azure's).
     */
    public int attemptsWithinCall(int max) {
      return Checks.attemptsWithin(attempt, call, max);
    }

    /** These timeouts with another {@code loadWait}. */
    public Provider withLoadWait(Duration loadWait) {
      return new Provider(attempt, call, loadWait);
    }
  }

  /**
   * The catalog's own storage calls (metadata files, purge): a stalled store fails a metadata read
   * in seconds, then the load gets 503, instead of holding the request through the SDK's default
   * retries (minutes on S3, GCS and Azure). Metadata files are small; data files are the engines'.
   *
   * @param attempt one attempt: connect, send, answer
   * @param call all attempts of one call, retries and their backoff included
   * @param maxAttempts attempts of one call at most (where the SDK counts attempts, not time)
   */
  public record CatalogIo(Duration attempt, Duration call, int maxAttempts) {
    public static final CatalogIo DEFAULT =
        new CatalogIo(Duration.ofSeconds(5), Duration.ofSeconds(10), 3);

    public CatalogIo {
      Checks.requireShorter(
          "catalog I/O", requireNonNull(attempt, "attempt"), requireNonNull(call, "call"));
      if (maxAttempts < 1) {
        throw new IllegalArgumentException(
            "catalog I/O max attempts must be at least 1, got " + maxAttempts);
      }
    }

    /**
     * How many attempts of {@link #attempt} fit in {@link #call}: at least one, at most {@link
     * #maxAttempts}. For an SDK that bounds each try but not the call (Azure's).
     */
    public int attemptsWithinCall() {
      return Checks.attemptsWithin(attempt, call, maxAttempts);
    }
  }

  /**
   * The values' checks, apart from this record: a nested record's {@code DEFAULT} is built while
   * this class may still be initializing.
   */
  private static final class Checks {
    private Checks() {}

    static int attemptsWithin(Duration attempt, Duration call, int max) {
      return (int) Math.max(1, Math.min(max, call.toMillis() / Math.max(1, attempt.toMillis())));
    }

    static void requireShorter(String what, Duration attempt, Duration call) {
      requirePositive(what + " attempt", attempt);
      if (call.compareTo(attempt) < 0) {
        throw new IllegalArgumentException(
            what + " call (" + call + ") must not be shorter than its attempt (" + attempt + ")");
      }
    }

    static void requirePositive(String what, Duration value) {
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, got " + value);
      }
    }
  }
}
