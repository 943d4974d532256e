package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.ProviderTimeouts;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code storage}: the catalog's own storage identities ({@code credentialSources}, each typed and
 * checked by its storage backend, see {@link ConfigBinder}), and how vended credentials are cached
 * and waited for.
 */
public record StorageSection(
    Map<String, CredentialSource> credentialSources,
    VendingCache vendingCache,
    Integer vendingMinDurationSeconds,
    Duration providerWait) {

  public static final StorageSection DEFAULT = new StorageSection(null, null, null, null);

  public StorageSection {
    credentialSources = orDefault(credentialSources, Map.of());
    credentialSources.forEach(
        (name, source) -> {
          if (source == null) {
            throw new ConfigException("storage.credentialSources." + name + " must be a mapping");
          }
        });
    credentialSources = Map.copyOf(new TreeMap<>(credentialSources));
    vendingCache = orDefault(vendingCache, VendingCache.DEFAULT);
    // STS's own minimum; lower only on a test bed whose STS allows it (Ceph RGW).
    vendingMinDurationSeconds = orDefault(vendingMinDurationSeconds, 900);
    between("storage.vendingMinDurationSeconds", vendingMinDurationSeconds, 1, 900);
    // The longest a load waits for a credential provider: see ProviderTimeouts.
    providerWait = orDefault(providerWait, ProviderTimeouts.WAIT);
    between("storage.providerWait", providerWait, Duration.ofSeconds(1), Duration.ofMinutes(2));
  }

  /** {@code storage.vendingCache}: vended credentials kept per catalog, principal and table. */
  public record VendingCache(Integer ttlCapSeconds, Long maxEntries) {
    public static final VendingCache DEFAULT = new VendingCache(null, null);

    public VendingCache {
      ttlCapSeconds = orDefault(ttlCapSeconds, 1800);
      between("storage.vendingCache.ttlCapSeconds", ttlCapSeconds, 1, 43_200);
      maxEntries = orDefault(maxEntries, 10_000L);
      if (maxEntries < 1) {
        throw new ConfigException(
            "storage.vendingCache.maxEntries must be at least 1, got " + maxEntries);
      }
    }

    /** The longest a vended credential is served from the cache. */
    public Duration ttlCap() {
      return Duration.ofSeconds(ttlCapSeconds);
    }
  }
}
