package dev.sluice.client;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * AWS SDK v2 credentials for one table, vended by Sluice: for plain SDK clients, and behind {@code
 * SluiceS3ACredentialsProvider} for Hadoop S3A when a job reads one table. The credential is
 * refreshed ahead of its expiry (a margin plus random jitter, so many processes do not refresh
 * together); while a refresh fails the current credential is served as long as it is valid; only
 * one fetch runs at a time. Without a valid credential, a failed fetch throws, naming the table and
 * the reason; there is no fallback to any other credential source.
 */
public final class SluiceCredentialsProvider implements AwsCredentialsProvider {
  private static final Logger LOG = Logger.getLogger(SluiceCredentialsProvider.class.getName());

  public static final Duration DEFAULT_REFRESH_MARGIN = Duration.ofSeconds(120);
  public static final Duration DEFAULT_REFRESH_JITTER = Duration.ofSeconds(60);

  /** How long a credential without a reported expiry is served before it is fetched again. */
  static final long UNKNOWN_EXPIRY_MILLIS = 300_000;

  /** Fetches the table's credential. */
  interface Source {
    VendedCredential fetch() throws SluiceException;
  }

  /** The credential being served and when to refresh it (or retry a failed refresh). */
  private record Current(AwsCredentials credentials, long expiresAt, long refreshAt) {}

  private final String description;
  private final Source source;
  private final LongSupplier clock;
  private final long marginMillis;
  private final LongUnaryOperator jitter;
  private final ReentrantLock fetching = new ReentrantLock();
  private volatile Current current;

  SluiceCredentialsProvider(
      String description,
      Source source,
      LongSupplier clock,
      Duration margin,
      LongUnaryOperator jitter) {
    this.description = requireNonNull(description, "description");
    this.source = requireNonNull(source, "source");
    this.clock = requireNonNull(clock, "clock");
    this.marginMillis = requireNonNull(margin, "margin").toMillis();
    this.jitter = requireNonNull(jitter, "jitter");
  }

  /**
   * Credentials for {@code table}; when Sluice vends several (locations in several buckets), the
   * first one in {@code bucket} (null: the first one).
   */
  public static SluiceCredentialsProvider create(
      SluiceClient client, TableRef table, String bucket) {
    return create(client, table, bucket, DEFAULT_REFRESH_MARGIN, DEFAULT_REFRESH_JITTER);
  }

  public static SluiceCredentialsProvider create(
      SluiceClient client, TableRef table, String bucket, Duration margin, Duration jitter) {
    requireNonNull(client, "client");
    requireNonNull(table, "table");
    long maxJitter = requireNonNull(jitter, "jitter").toMillis();
    return new SluiceCredentialsProvider(
        "table " + table,
        () -> pick(client.loadCredentials(table), bucket, table),
        System::currentTimeMillis,
        margin,
        bound ->
            maxJitter <= 0
                ? 0
                : ThreadLocalRandom.current().nextLong(Math.min(maxJitter, bound) + 1));
  }

  @Override
  public AwsCredentials resolveCredentials() {
    Current c = current;
    long now = clock.getAsLong();
    if (c != null && now < c.refreshAt()) {
      return c.credentials();
    }
    if (c != null && now < c.expiresAt()) {
      // Due for refresh but still valid: one thread refreshes, the others keep the current one.
      if (fetching.tryLock()) {
        try {
          refreshIfDue(now);
        } finally {
          fetching.unlock();
        }
      }
      return current.credentials();
    }
    fetching.lock();
    try {
      c = current;
      now = clock.getAsLong();
      if (c != null && now < c.expiresAt()) {
        return c.credentials();
      }
      try {
        return install(source.fetch(), now).credentials();
      } catch (SluiceException e) {
        throw SdkClientException.create(
            "Sluice cannot vend credentials for " + description + ": " + e.getMessage(), e);
      }
    } finally {
      fetching.unlock();
    }
  }

  private void refreshIfDue(long now) {
    Current c = current;
    if (c == null || now < c.refreshAt()) {
      return; // another thread refreshed meanwhile
    }
    try {
      install(source.fetch(), now);
    } catch (SluiceException | RuntimeException e) {
      // Keep serving the valid credential; try again after a quarter of its remaining life.
      long retryAt = now + Math.max(1000, Math.min(30_000, (c.expiresAt() - now) / 4));
      current = new Current(c.credentials(), c.expiresAt(), Math.min(retryAt, c.expiresAt()));
      LOG.log(
          Level.WARNING,
          "Refreshing the credential for {0} failed; serving the current one until it expires at "
              + "{1}: {2}",
          new Object[] {description, Instant.ofEpochMilli(c.expiresAt()), e.getMessage()});
    }
  }

  private Current install(VendedCredential v, long fetchedAt) {
    long expiresAt = v.hasExpiry() ? v.expiresAtMillis() : fetchedAt + UNKNOWN_EXPIRY_MILLIS;
    long lifetime = Math.max(0, expiresAt - fetchedAt);
    // Refresh margin + jitter before expiry, but never in the first half of the lifetime.
    long lead = Math.min(marginMillis, lifetime / 2);
    long slack = Math.max(0, lifetime / 2 - lead);
    long refreshAt = expiresAt - lead - jitter.applyAsLong(slack);
    AwsCredentials credentials =
        v.sessionToken() == null
            ? AwsBasicCredentials.create(v.accessKeyId(), v.secretAccessKey())
            : AwsSessionCredentials.builder()
                .accessKeyId(v.accessKeyId())
                .secretAccessKey(v.secretAccessKey())
                .sessionToken(v.sessionToken())
                .expirationTime(v.hasExpiry() ? Instant.ofEpochMilli(v.expiresAtMillis()) : null)
                .build();
    Current next = new Current(credentials, expiresAt, refreshAt);
    current = next;
    LOG.log(
        Level.FINE,
        "Sluice vended a credential for {0}, expiring at {1}, refresh at {2}",
        new Object[] {
          description, Instant.ofEpochMilli(expiresAt), Instant.ofEpochMilli(refreshAt)
        });
    return next;
  }

  /** The first credential in {@code bucket} (any bucket when null). */
  static VendedCredential pick(List<VendedCredential> vended, String bucket, TableRef table)
      throws SluiceException {
    for (VendedCredential v : vended) {
      if (bucket == null || bucketOf(v.prefix()).equals(bucket)) {
        return v;
      }
    }
    throw new SluiceException(
        200,
        "none of the credentials Sluice vends for table " + table + " is for bucket " + bucket);
  }

  private static String bucketOf(String s3Uri) {
    int start = s3Uri.indexOf("://");
    String rest = start < 0 ? s3Uri : s3Uri.substring(start + 3);
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  @Override
  public String toString() {
    return "SluiceCredentialsProvider[" + description + "]";
  }
}
