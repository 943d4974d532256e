package dev.sluice.config;

import static dev.sluice.config.Bounds.atLeast;
import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageTimeouts;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code storage}: the catalog's own storage identities ({@code credentialSources}, each typed and
 * checked by its storage backend, see {@link ConfigBinder}), how vended credentials are cached and
 * waited for, and how long the storage clients wait ({@link #timeouts()}).
 */
public record StorageSection(
    Map<String, CredentialSource> credentialSources,
    VendingCache vendingCache,
    Integer vendingMinDurationSeconds,
    Duration providerWait,
    ProviderTimeouts providerTimeouts,
    CatalogIoTimeouts catalogIoTimeouts,
    Duration stagedGrantLifetime) {

  public static final StorageSection DEFAULT =
      new StorageSection(null, null, null, null, null, null, null);

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
    providerTimeouts = orDefault(providerTimeouts, ProviderTimeouts.DEFAULT);
    catalogIoTimeouts = orDefault(catalogIoTimeouts, CatalogIoTimeouts.DEFAULT);
    // The longest a load waits for a credential provider: unless set, its call timeout and 1 s.
    providerWait =
        orDefault(providerWait, StorageTimeouts.Provider.defaultLoadWait(providerTimeouts.call()));
    between("storage.providerWait", providerWait, Duration.ofSeconds(1), Duration.ofMinutes(2));
    // How long a staged table (a CTAS before its commit) may refresh or sign: as long as the
    // longest write job, since each use is authorized again (see docs/S3-VENDING.md).
    stagedGrantLifetime = orDefault(stagedGrantLifetime, Duration.ofHours(12));
    between(
        "storage.stagedGrantLifetime",
        stagedGrantLifetime,
        Duration.ofMinutes(1),
        Duration.ofDays(7));
  }

  /** The storage clients' bounds, as the vendors, signers and catalog FileIOs are opened with. */
  public StorageTimeouts timeouts() {
    return new StorageTimeouts(
        new StorageTimeouts.Provider(
            providerTimeouts.attempt(), providerTimeouts.call(), providerWait),
        new StorageTimeouts.CatalogIo(
            catalogIoTimeouts.attempt(),
            catalogIoTimeouts.call(),
            catalogIoTimeouts.maxAttempts()));
  }

  /**
   * {@code storage.providerTimeouts}: how long a vend's call to its credential provider (STS,
   * Entra's user delegation key) waits, per attempt and in all (see {@link
   * StorageTimeouts.Provider}).
   */
  public record ProviderTimeouts(Duration attempt, Duration call) {
    // Before DEFAULT, which the constructor checks with it.
    private static final Duration SHORTEST = Duration.ofMillis(100);
    public static final ProviderTimeouts DEFAULT = new ProviderTimeouts(null, null);

    public ProviderTimeouts {
      StorageTimeouts.Provider defaults = StorageTimeouts.Provider.DEFAULT;
      attempt = orDefault(attempt, defaults.attempt());
      call = orDefault(call, defaults.call());
      between("storage.providerTimeouts.attempt", attempt, SHORTEST, Duration.ofMinutes(1));
      between("storage.providerTimeouts.call", call, SHORTEST, Duration.ofMinutes(1));
      atLeast("storage.providerTimeouts.call", call, "storage.providerTimeouts.attempt", attempt);
    }
  }

  /**
   * {@code storage.catalogIoTimeouts}: how long the catalog's own storage calls (metadata files,
   * purge) wait, per attempt and in all, and how many attempts one makes at most (see {@link
   * StorageTimeouts.CatalogIo}).
   */
  public record CatalogIoTimeouts(Duration attempt, Duration call, Integer maxAttempts) {
    // Before DEFAULT, which the constructor checks with it.
    private static final Duration SHORTEST = Duration.ofMillis(100);
    public static final CatalogIoTimeouts DEFAULT = new CatalogIoTimeouts(null, null, null);

    public CatalogIoTimeouts {
      StorageTimeouts.CatalogIo defaults = StorageTimeouts.CatalogIo.DEFAULT;
      attempt = orDefault(attempt, defaults.attempt());
      call = orDefault(call, defaults.call());
      between("storage.catalogIoTimeouts.attempt", attempt, SHORTEST, Duration.ofMinutes(5));
      between("storage.catalogIoTimeouts.call", call, SHORTEST, Duration.ofMinutes(5));
      atLeast("storage.catalogIoTimeouts.call", call, "storage.catalogIoTimeouts.attempt", attempt);
      maxAttempts = orDefault(maxAttempts, defaults.maxAttempts());
      between("storage.catalogIoTimeouts.maxAttempts", maxAttempts, 1, 10);
    }
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
