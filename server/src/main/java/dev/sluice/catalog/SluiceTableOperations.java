package dev.sluice.catalog;

import dev.sluice.location.LocationPolicy;
import static java.util.Objects.requireNonNull;

import dev.sluice.store.ContentKind;
import dev.sluice.store.Store;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * One table's metadata pointer in the store. Iceberg writes the new metadata file; this
 * class checks its locations first and then moves the pointer with a compare-and-set.
 */
final class SluiceTableOperations extends BaseMetastoreTableOperations {
  private final TableIdentifier identifier;
  private final MetadataPointer pointer;
  private final FileIO io;
  private final LocationPolicy locations;
  private final MetadataCache metadata;

  SluiceTableOperations(
      Store store, String catalog, TableIdentifier identifier, FileIO io, LocationPolicy locations, MetadataCache metadata) {
    this.identifier = requireNonNull(identifier, "identifier");
    this.pointer = new MetadataPointer(store, catalog, identifier, ContentKind.TABLE);
    this.io = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
    this.metadata = requireNonNull(metadata, "metadata");
  }

  @Override
  protected String tableName() {
    return pointer.qualifiedName();
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    Optional<String> location = pointer.current();
    if (location.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    refreshFromMetadataLocation(location.get(), null, 20, this.metadata.loader(io));
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    boolean create = base == null;
    checkLocations(metadata);
    if (create) {
      pointer.requireNamespace();
    }
    String newLocation = writeNewMetadataIfRequired(create, metadata);
    // A registered table keeps the caller's metadata file; only a file written here is ours to delete.
    boolean ownsFile = !newLocation.equals(metadata.metadataFileLocation());
    pointer.commit(create ? null : base.metadataFileLocation(), newLocation, io, ownsFile);
    requestRefresh();
  }

  /** Writes {@code metadata} as this table's next metadata file, for a multi-table commit. */
  String writeForTransaction(TableMetadata metadata) {
    checkLocations(metadata);
    return writeNewMetadataIfRequired(false, metadata);
  }

  private void checkLocations(TableMetadata metadata) {
    locations.checkTable("table " + identifier, metadata.location(), metadata.properties());
    if (metadata.metadataFileLocation() != null) {
      locations.check("table " + identifier + " (metadata file)", metadata.metadataFileLocation());
    }
  }
}
