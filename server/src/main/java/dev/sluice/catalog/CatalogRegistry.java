package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

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
 * Resolves a catalog name (the REST {@code prefix} or {@code warehouse}) to a
 * {@link SluiceCatalog} with the catalog's own FileIO: local files for FILE storage, S3FileIO
 * with the configured credential source for S3. FileIOs are kept per storage configuration.
 */
public final class CatalogRegistry {
  private final Store store;
  private final Map<String, CredentialSource> sources;
  private final FileIO local = new LocalFileIO();
  private final Map<String, FileIO> fileIOs = new ConcurrentHashMap<>();
  private final MetadataCache metadata = new MetadataCache(2_000, Duration.ofMinutes(10));

  public CatalogRegistry(Store store, Map<String, CredentialSource> sources) {
    this.store = requireNonNull(store, "store");
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
  }

  public SluiceCatalog resolve(String name) {
    CatalogSettings settings =
        store
            .getCatalog(name)
            .map(CatalogSettings::fromRecord)
            .orElseThrow(() -> new NotFoundException("Unable to find warehouse %s", name));
    return new SluiceCatalog(store, settings, fileIO(settings), metadata);
  }

  private FileIO fileIO(CatalogSettings settings) {
    if (settings.s3() == null) {
      return local;
    }
    return fileIOs.computeIfAbsent(settings.storageKey(), key -> {
      CredentialSource source = sources.get(settings.s3().credentialSource());
      if (source == null) {
        throw new ServiceUnavailableException(
            "Catalog %s names credential source '%s', which the server config does not define",
            settings.name(), settings.s3().credentialSource());
      }
      return CatalogS3Client.fileIO(settings.s3(), source);
    });
  }

  public Store store() {
    return store;
  }
}
