package dev.sluice.catalog;

import dev.sluice.location.LocationPolicy;
import static java.util.Objects.requireNonNull;

import dev.sluice.store.ContentKind;
import dev.sluice.store.Store;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;

/** One view's metadata pointer in the store; the same compare-and-set as tables. */
final class SluiceViewOperations extends BaseViewOperations {
  private final TableIdentifier identifier;
  private final MetadataPointer pointer;
  private final FileIO io;
  private final LocationPolicy locations;

  SluiceViewOperations(Store store, String catalog, TableIdentifier identifier, FileIO io, LocationPolicy locations) {
    this.identifier = requireNonNull(identifier, "identifier");
    this.pointer = new MetadataPointer(store, catalog, identifier, ContentKind.VIEW);
    this.io = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
  }

  @Override
  protected String viewName() {
    return pointer.qualifiedName();
  }

  @Override
  protected FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    Optional<String> location = pointer.current();
    if (location.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    refreshFromMetadataLocation(location.get());
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    boolean create = base == null;
    locations.check("view " + identifier, metadata.location());
    if (create) {
      pointer.requireNamespace();
    }
    String newLocation = writeNewMetadataIfRequired(metadata);
    pointer.commit(create ? null : base.metadataFileLocation(), newLocation, io, true);
    requestRefresh();
  }
}
