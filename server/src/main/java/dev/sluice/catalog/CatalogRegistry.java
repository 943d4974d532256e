package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.io.ConfinedFileIO;
import dev.sluice.io.LocalFileIO;
import dev.sluice.store.Store;
import dev.sluice.vending.s3.CatalogS3Client;
import dev.sluice.vending.s3.CredentialSource;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.io.FileIO;

/**
 * Resolves a catalog name (the REST {@code prefix} or {@code warehouse}) to a {@link SluiceCatalog}
 * with the catalog's own FileIO: local files inside its allowedLocations for FILE storage, S3FileIO
 * with the configured credential source for S3. FileIOs are kept per storage configuration.
 *
 * <p>Every request resolves its catalog, so resolved catalogs are cached for at most one second
 * (the bound the authorization caches use too) and dropped at once when this replica changes a
 * catalog; another replica's change is seen within that second.
 */
public final class CatalogRegistry {
  private final Store store;
  private final Map<String, CredentialSource> sources;
  private final Map<String, FileIO> fileIOs = new ConcurrentHashMap<>();
  private final MetadataCache metadata = new MetadataCache(2_000, Duration.ofMinutes(10));
  // Only catalogs that exist are cached: one created on another replica is usable at once.
  private final Cache<String, SluiceCatalog> resolved =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).maximumSize(10_000).build();

  public CatalogRegistry(Store store, Map<String, CredentialSource> sources) {
    this.store = requireNonNull(store, "store");
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
  }

  public SluiceCatalog resolve(String name) {
    SluiceCatalog catalog = resolved.get(name, this::load);
    if (catalog == null) {
      throw new NotFoundException("Unable to find warehouse %s", name);
    }
    return catalog;
  }

  /** Forgets resolved catalogs: call after creating, changing or deleting one. */
  public void invalidate() {
    resolved.invalidateAll();
  }

  private SluiceCatalog load(String name) {
    return store
        .getCatalog(name)
        .map(CatalogSettings::fromRecord)
        .map(settings -> new SluiceCatalog(store, settings, fileIO(settings), metadata))
        .orElse(null);
  }

  private FileIO fileIO(CatalogSettings settings) {
    if (settings.s3() == null) {
      // Confined to the catalog's allowedLocations, whatever path a table's metadata names.
      return fileIOs.computeIfAbsent(
          settings.storageKey(), key -> new LocalFileIO(settings.locationPolicy().allowed()));
    }
    return fileIOs.computeIfAbsent(
        settings.storageKey(),
        key -> {
          CredentialSource source = sources.get(settings.s3().credentialSource());
          if (source == null) {
            throw new ServiceUnavailableException(
                "Catalog %s names credential source '%s', which the server config does not define",
                settings.name(), settings.s3().credentialSource());
          }
          return new ConfinedFileIO(
              CatalogS3Client.fileIO(settings.s3(), source),
              "catalog " + settings.name(),
              settings.locationPolicy().allowed());
        });
  }

  public Store store() {
    return store;
  }
}
