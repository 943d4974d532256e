package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.LocationSafety;
import dev.sluice.vending.s3.CredentialSource;
import dev.sluice.vending.s3.S3StorageProfile;
import dev.sluice.vending.s3.StsCredentialVendor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Vends a table's credential: checks that every location the table uses is safe and inside
 * allowedLocations (otherwise nothing is vended, with a warning), then asks the backend's vendor
 * through a cache. Cache key: (storage profile, location set, access mode, who asks); an entry
 * lives min(remaining lifetime / 2, a cap); concurrent misses for one key make one provider call;
 * failures are not cached; the size is bounded.
 */
public final class VendingService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VendingService.class);

  record Key(
      String profileKey,
      List<String> locations,
      AccessMode mode,
      SortedMap<String, String> attribution) {}

  private final Map<String, CredentialSource> sources;
  private final Duration ttlCap;
  private final Cache<Key, StorageCredential> cache;
  private final Map<String, StsCredentialVendor> vendors = new ConcurrentHashMap<>();
  private final VendorFactory vendorFactory;
  private final Counter hits;
  private final Counter misses;
  private final Counter providerCalls;
  private final Counter errors;
  private final Timer providerLatency;

  /** Makes the vendor of one storage profile; the server's is {@code StsCredentialVendor::new}. */
  @FunctionalInterface
  public interface VendorFactory {
    StsCredentialVendor create(
        S3StorageProfile profile, CredentialSource source, Consumer<Duration> stsLatency);
  }

  public VendingService(
      Map<String, CredentialSource> sources,
      Duration ttlCap,
      long maxEntries,
      MeterRegistry metrics) {
    this(sources, ttlCap, maxEntries, metrics, StsCredentialVendor::new);
  }

  public VendingService(
      Map<String, CredentialSource> sources,
      Duration ttlCap,
      long maxEntries,
      MeterRegistry metrics,
      VendorFactory vendorFactory) {
    this.vendorFactory = requireNonNull(vendorFactory, "vendorFactory");
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
    this.ttlCap = requireNonNull(ttlCap, "ttlCap");
    this.cache = Caffeine.newBuilder().maximumSize(maxEntries).expireAfter(new HalfLife()).build();
    this.hits = metrics.counter("sluice.vending.cache.hits");
    this.misses = metrics.counter("sluice.vending.cache.misses");
    this.providerCalls = metrics.counter("sluice.vending.sts.calls");
    this.errors = metrics.counter("sluice.vending.errors");
    this.providerLatency = metrics.timer("sluice.vending.sts.latency");
  }

  /** Configured credential source names, for validating catalog definitions. */
  public java.util.Set<String> sourceNames() {
    return sources.keySet();
  }

  public Optional<CredentialSource> source(String name) {
    return Optional.ofNullable(sources.get(name));
  }

  /**
   * A credential for a table's locations, or empty when nothing may be vended (an unsafe location,
   * or STS marked unavailable), which is logged as a warning. Provider failures throw {@link
   * VendingException}: a vending load never silently answers without one.
   */
  public Optional<StorageCredential> vend(
      String profileKey,
      S3StorageProfile profile,
      LocationPolicy policy,
      String tableLocation,
      Map<String, String> tableProperties,
      AccessMode mode,
      SortedMap<String, String> attribution) {
    List<String> locations = LocationPolicy.locationsOf(tableLocation, tableProperties);
    for (String location : locations) {
      Optional<String> unsafe = LocationSafety.unsafe(location, policy);
      if (unsafe.isPresent()) {
        LOG.warn(
            "Not vending credentials for {} in catalog {}: a location is unsafe ({})",
            attribution.get("table"),
            profile.catalog(),
            unsafe.get());
        return Optional.empty();
      }
    }
    if (profile.stsUnavailable()) {
      LOG.warn(
          "Not vending credentials for {}: catalog {} is configured with stsUnavailable",
          attribution.get("table"),
          profile.catalog());
      return Optional.empty();
    }
    List<String> sorted = locations.stream().sorted().toList();
    Key key = new Key(profileKey, sorted, mode, attribution);
    StorageCredential cached = cache.getIfPresent(key);
    if (cached != null) {
      hits.increment();
      return Optional.of(cached);
    }
    misses.increment();
    try {
      return Optional.of(
          cache.get(
              key,
              k -> {
                providerCalls.increment();
                return vendor(profileKey, profile)
                    .vend(
                        new VendingRequest(
                            tableLocation,
                            sorted,
                            mode,
                            attribution.get("principal"),
                            attribution));
              }));
    } catch (VendingException e) {
      errors.increment();
      LOG.warn("{}", e.getMessage());
      throw e;
    }
  }

  private StsCredentialVendor vendor(String profileKey, S3StorageProfile profile) {
    return vendors.computeIfAbsent(
        profileKey,
        k -> {
          CredentialSource source = sources.get(profile.credentialSource());
          if (source == null) {
            throw new VendingException(
                "Cannot vend credentials for catalog "
                    + profile.catalog()
                    + ": credential source '"
                    + profile.credentialSource()
                    + "' is not defined in the server config",
                0,
                null);
          }
          return vendorFactory.create(profile, source, providerLatency::record);
        });
  }

  /** An entry lives half its credential's remaining lifetime, at most the cap. */
  private final class HalfLife implements Expiry<Key, StorageCredential> {
    @Override
    public long expireAfterCreate(Key key, StorageCredential value, long currentTime) {
      long remainingMs = value.expiresAtMs() - System.currentTimeMillis();
      long ms = Math.max(0, Math.min(remainingMs / 2, ttlCap.toMillis()));
      return Duration.ofMillis(ms).toNanos();
    }

    @Override
    public long expireAfterUpdate(
        Key key, StorageCredential value, long currentTime, long currentDuration) {
      return expireAfterCreate(key, value, currentTime);
    }

    @Override
    public long expireAfterRead(
        Key key, StorageCredential value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }

  @Override
  public void close() {
    vendors.values().forEach(StsCredentialVendor::close);
  }
}
