package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.Store;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/** Resolves a catalog name (the REST {@code prefix} or {@code warehouse}) to a {@link SluiceCatalog}. */
public final class CatalogRegistry {
  private final Store store;
  private final FileIO fileIO;

  public CatalogRegistry(Store store, FileIO fileIO) {
    this.store = requireNonNull(store, "store");
    this.fileIO = requireNonNull(fileIO, "fileIO");
  }

  public SluiceCatalog resolve(String name) {
    return store
        .getCatalog(name)
        .map(record -> new SluiceCatalog(store, CatalogSettings.fromRecord(record), fileIO))
        .orElseThrow(() -> new NotFoundException("Unable to find warehouse %s", name));
  }

  public Store store() {
    return store;
  }
}
