package dev.sluice.client.comet;

import static java.util.Objects.requireNonNull;

import dev.sluice.client.SluiceClient;
import dev.sluice.client.SluiceClientConfig;
import dev.sluice.client.SluiceException;
import dev.sluice.client.TableRef;
import dev.sluice.client.VendedCredential;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.comet.cloud.s3.CometS3CredentialContext;
import org.apache.comet.cloud.s3.CometS3Credentials;
import org.apache.comet.cloud.s3.CometS3LocationScopedCredentialProvider;

/**
 * Apache DataFusion Comet's native S3 readers, credentialed by Sluice. Comet asks for the locations
 * a bucket's credentials differ by ({@link #getPolicyLocations}: the locations of the tables the
 * principal may read there) and then for the credential of one location ({@link
 * #getCredentialsForPath}: the credential Sluice vends for the table owning it, with its real
 * expiry). Configure it with {@code spark.hadoop.fs.s3a.comet.credential.provider.class} (raw
 * Parquet; settings {@code fs.s3a.sluice.uri}, {@code .warehouse}, {@code .credential}) or {@code
 * spark.sql.catalog.<c>.s3.comet.credential.provider.class} (Iceberg; the catalog's own {@code
 * uri}, {@code warehouse} and {@code credential} are used).
 *
 * <p>Thread-safe: Comet calls from many native threads at once. Answers are cached (locations
 * briefly, credentials until shortly before they expire) with one Sluice call in flight per bucket
 * or table. When Sluice cannot vend, the call throws a message naming the bucket, path and reason;
 * there is no fallback to a broader credential or to the default AWS chain.
 *
 * <p>Refresh. Comet 1.2 asks again by itself: its native bridge reuses a credential only until 5
 * minutes before the expiry reported here, then asks on every request (Parquet: each object_store
 * request; Iceberg: each time iceberg-rust's signer finds its credential within 2 minutes of
 * expiry), so a scan lives past any one credential as long as this bridge hands out a fresh one in
 * time. It does: a credential is served until {@value #DEFAULT_REFRESH_MARGIN_MILLIS} ms before its
 * expiry (the margin is {@link #REFRESH_MARGIN_SECONDS_KEY}, at most half of the remaining life),
 * so every request Comet signs has a credential that outlives object_store's retries of the signed
 * request (up to 3 minutes) and that Comet may keep for a while. Never less than {@value
 * #MIN_REMAINING_MILLIS} ms before expiry: iceberg-rust's signer refuses a credential that expires
 * within 10 s of signing. A credential Sluice vends with less life than that left is handed out but
 * not cached.
 */
public final class SluiceCometCredentialProvider
    implements CometS3LocationScopedCredentialProvider {
  private static final Logger LOG = Logger.getLogger(SluiceCometCredentialProvider.class.getName());

  /** Seconds a bucket's readable locations are served from cache ({@code fs.s3a.sluice.} too). */
  public static final String LOCATIONS_CACHE_SECONDS_KEY = "sluice.locations-cache-seconds";

  /**
   * Seconds before expiry a cached credential stops being served ({@code fs.s3a.sluice.} too): at
   * most half the credential's remaining life, at least {@value #MIN_REMAINING_MILLIS} ms.
   */
  public static final String REFRESH_MARGIN_SECONDS_KEY = "sluice.refresh-margin-seconds";

  /** What helps when no readable table covers a path: the privilege reading needs. */
  static final String NO_TABLE_HINT =
      "reading it needs TABLE_READ_DATA on the table whose location holds it";

  /** What helps a principal Sluice refuses to list the readable locations for. */
  static final String LISTING_HINT =
      "reading through Sluice needs TABLE_READ_DATA on the table in this catalog";

  static final long DEFAULT_LOCATIONS_CACHE_MILLIS = 10_000;

  /** Comet's own reuse ends 5 minutes before expiry; a minute more lets it keep what we hand it. */
  static final long DEFAULT_REFRESH_MARGIN_MILLIS = 360_000;

  /**
   * The least life a cached credential is served with: iceberg-rust's signer (reqsign) fails a
   * request whose freshly provided credential expires within 10 s of signing.
   */
  static final long MIN_REMAINING_MILLIS = 15_000;

  /** How long a credential without a reported expiry is served from cache. */
  static final long UNKNOWN_EXPIRY_CACHE_MILLIS = 60_000;

  private final Function<SluiceClientConfig, SluiceClient> clients;
  private final LongSupplier clock;
  private final SingleFlightCache<String, ReadableLocations> locations;
  private final SingleFlightCache<TableRef, List<VendedCredential>> credentials;
  private volatile SluiceClient client;
  private volatile long locationsCacheMillis = DEFAULT_LOCATIONS_CACHE_MILLIS;
  private volatile long refreshMarginMillis = DEFAULT_REFRESH_MARGIN_MILLIS;

  /** The constructor Comet calls reflectively. */
  public SluiceCometCredentialProvider() {
    this(SluiceClient::new, System::currentTimeMillis);
  }

  SluiceCometCredentialProvider(
      Function<SluiceClientConfig, SluiceClient> clients, LongSupplier clock) {
    this.clients = requireNonNull(clients, "clients");
    this.clock = requireNonNull(clock, "clock");
    this.locations = new SingleFlightCache<>(clock);
    this.credentials = new SingleFlightCache<>(clock);
  }

  /**
   * Reads the Sluice settings; no network. The map may hold secrets (Comet forwards every {@code
   * fs.s3a.*} key or the whole catalog property bag): it is never logged.
   */
  @Override
  public void initialize(Map<String, String> properties) {
    SluiceClientConfig config = SluiceClientConfig.fromProperties(properties);
    locationsCacheMillis =
        seconds(properties, LOCATIONS_CACHE_SECONDS_KEY, DEFAULT_LOCATIONS_CACHE_MILLIS);
    refreshMarginMillis =
        seconds(properties, REFRESH_MARGIN_SECONDS_KEY, DEFAULT_REFRESH_MARGIN_MILLIS);
    client = clients.apply(config);
    String source =
        isSet(properties.get(SluiceClientConfig.URI_KEY))
            ? "the catalog properties"
            : SluiceClientConfig.HADOOP_PREFIX + "* keys";
    LOG.log(
        Level.FINE, "Sluice Comet bridge initialized from {0}: {1}", new Object[] {source, config});
  }

  /**
   * The locations in {@code bucket} of the tables the principal may read, percent-encoded, without
   * scheme or bucket.
   */
  @Override
  public List<String> getPolicyLocations(String bucket) throws CredentialUnavailableException {
    requireNonNull(bucket, "bucket");
    try {
      return readable(bucket).policyLocations();
    } catch (SluiceException e) {
      throw CredentialUnavailableException.forLocations(bucket, listingRefused(e), e);
    }
  }

  /**
   * The credential Sluice vends for the table owning {@code context}'s path (the table with the
   * longest readable location covering it), with its real expiry.
   */
  @Override
  public CometS3Credentials getCredentialsForPath(CometS3CredentialContext context)
      throws CredentialUnavailableException {
    String bucket = context.getBucket();
    String path = context.getPath();
    List<String> segments;
    try {
      segments = ObjectPaths.decodePath(path);
    } catch (IllegalArgumentException e) {
      throw CredentialUnavailableException.forPath(bucket, path, e.getMessage(), null);
    }
    ReadableLocations readable;
    try {
      readable = readable(bucket);
    } catch (SluiceException e) {
      throw CredentialUnavailableException.forPath(
          bucket, path, "cannot list readable table locations: " + listingRefused(e), e);
    }
    Optional<ReadableLocations.Owned> owner = readable.owner(segments);
    if (owner.isEmpty()) {
      // Comet re-asks for the locations after a failure: let it see a fresh answer.
      locations.invalidate(bucket);
      throw CredentialUnavailableException.forPath(
          bucket,
          path,
          "no table the principal may read has a location covering it ("
              + readable.size()
              + " readable location(s) in the bucket): "
              + NO_TABLE_HINT,
          null);
    }
    TableRef table = owner.get().table();
    LOG.log(
        Level.FINE,
        "Comet asks for s3://{0}{1} ({2}): table {3}",
        new Object[] {bucket, path.startsWith("/") ? path : "/" + path, context.getMode(), table});
    List<VendedCredential> vended;
    try {
      vended = credentials.get(table, this::fetchCredentials);
    } catch (SluiceException e) {
      if (e.isRefusal()) {
        locations.invalidate(bucket);
      }
      throw CredentialUnavailableException.forPath(
          bucket, path, "table " + table + ": " + e.getMessage(), e);
    } catch (Exception e) {
      throw CredentialUnavailableException.forPath(bucket, path, "table " + table + ": " + e, e);
    }
    VendedCredential chosen =
        covering(vended, bucket, segments)
            .orElseThrow(
                () ->
                    CredentialUnavailableException.forPath(
                        bucket,
                        path,
                        "none of the credentials Sluice vends for table "
                            + table
                            + " covers the path",
                        null));
    return new CometS3Credentials(
        chosen.accessKeyId(),
        chosen.secretAccessKey(),
        chosen.sessionToken(),
        chosen.expiresAtMillis());
  }

  @Override
  public void close() {
    locations.clear();
    credentials.clear();
  }

  private ReadableLocations readable(String bucket) throws SluiceException {
    try {
      return locations.get(
          bucket,
          b ->
              new SingleFlightCache.Fresh<>(
                  ReadableLocations.of(b, client().readableTableLocations(b)),
                  clock.getAsLong() + locationsCacheMillis));
    } catch (SluiceException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new SluiceException(0, e.toString(), e);
    }
  }

  private SingleFlightCache.Fresh<List<VendedCredential>> fetchCredentials(TableRef table)
      throws SluiceException {
    long now = clock.getAsLong();
    List<VendedCredential> vended = client().loadCredentials(table);
    long freshUntil = Long.MAX_VALUE;
    for (VendedCredential c : vended) {
      freshUntil = Math.min(freshUntil, freshUntil(now, c.expiresAtMillis()));
    }
    long expiresAt =
        vended.stream()
            .filter(VendedCredential::hasExpiry)
            .mapToLong(VendedCredential::expiresAtMillis)
            .min()
            .orElse(0);
    LOG.log(
        Level.FINE,
        "Sluice vended {0} credential(s) for table {1}, expiring at {2}, served until {3}",
        new Object[] {
          vended.size(), table, Instant.ofEpochMilli(expiresAt), Instant.ofEpochMilli(freshUntil)
        });
    return new SingleFlightCache.Fresh<>(vended, freshUntil);
  }

  /**
   * Served until the refresh margin before expiry; the margin is at most half the remaining life
   * (so a short credential is still cached; Sluice itself re-vends at half-life) and at least
   * {@link #MIN_REMAINING_MILLIS}, so a credential with less left is not cached. Briefly when the
   * expiry is unknown.
   */
  long freshUntil(long now, long expiresAt) {
    if (expiresAt <= 0) {
      return now + UNKNOWN_EXPIRY_CACHE_MILLIS;
    }
    long remaining = expiresAt - now;
    long margin = Math.max(MIN_REMAINING_MILLIS, Math.min(refreshMarginMillis, remaining / 2));
    return Math.max(now, expiresAt - margin);
  }

  /** The vended credential with the longest prefix covering the path. */
  private static Optional<VendedCredential> covering(
      List<VendedCredential> vended, String bucket, List<String> segments) {
    VendedCredential best = null;
    int bestLength = -1;
    for (VendedCredential c : vended) {
      S3Location prefix;
      try {
        prefix = S3Location.parse(c.prefix());
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (prefix.covers(bucket, segments) && prefix.segments().size() > bestLength) {
        best = c;
        bestLength = prefix.segments().size();
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Sluice's reason for not listing a bucket's readable locations; for a 403 (no standing in the
   * catalog at all) with the privilege that would help, which Sluice's answer does not name.
   */
  static String listingRefused(SluiceException e) {
    return e.status() == 403 ? e.getMessage() + ": " + LISTING_HINT : e.getMessage();
  }

  private SluiceClient client() {
    SluiceClient c = client;
    if (c == null) {
      throw new IllegalStateException(
          "SluiceCometCredentialProvider was not initialized: Comet calls initialize(Map) first");
    }
    return c;
  }

  private static boolean isSet(String value) {
    return value != null && !value.isBlank();
  }

  private static long seconds(Map<String, String> properties, String key, long defaultMillis) {
    String value = properties.get(key);
    if (!isSet(value)) {
      value = properties.get("fs.s3a." + key);
    }
    if (value == null || value.isBlank()) {
      return defaultMillis;
    }
    try {
      long seconds = Long.parseLong(value.trim());
      if (seconds < 0) {
        throw new NumberFormatException();
      }
      return seconds * 1000;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number of seconds >= 0");
    }
  }
}
