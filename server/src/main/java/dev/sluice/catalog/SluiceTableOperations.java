package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AlreadyExists;
import dev.sluice.store.CommitOutcomeUnknown;
import dev.sluice.store.Conflict;
import dev.sluice.store.ContentKind;
import dev.sluice.store.ContentRecord;
import dev.sluice.store.MetadataSwap;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.NotFound;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * One table's metadata pointer in the store. Iceberg writes the new metadata file; this
 * class checks its locations and moves the pointer with a compare-and-set.
 */
final class SluiceTableOperations extends BaseMetastoreTableOperations {
  private final Store store;
  private final String catalog;
  private final TableIdentifier identifier;
  private final NamespacePath namespace;
  private final FileIO io;
  private final LocationPolicy locations;

  SluiceTableOperations(Store store, String catalog, TableIdentifier identifier, FileIO io, LocationPolicy locations) {
    this.store = requireNonNull(store, "store");
    this.catalog = requireNonNull(catalog, "catalog");
    this.identifier = requireNonNull(identifier, "identifier");
    this.namespace = new NamespacePath(List.of(identifier.namespace().levels()));
    this.io = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
  }

  @Override
  protected String tableName() {
    return catalog + "." + identifier;
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    Optional<ContentRecord> record =
        store.getContent(catalog, namespace, identifier.name()).filter(c -> c.kind() == ContentKind.TABLE);
    if (record.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    refreshFromMetadataLocation(record.get().metadataLocation());
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    boolean create = base == null;
    locations.checkTable("table " + identifier, metadata.location(), metadata.properties());
    if (create && store.loadNamespace(catalog, namespace).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", identifier.namespace());
    }
    String newLocation = writeNewMetadataIfRequired(create, metadata);
    boolean wroteFile = !newLocation.equals(metadata.metadataFileLocation());
    try {
      if (create) {
        store.createContent(catalog, namespace, identifier.name(), ContentKind.TABLE, newLocation);
      } else {
        store.swapMetadata(
            catalog,
            List.of(new MetadataSwap(namespace, identifier.name(), ContentKind.TABLE, base.metadataFileLocation(), newLocation)));
      }
    } catch (AlreadyExists e) {
      discard(wroteFile, newLocation);
      throw new AlreadyExistsException("%s", e.getMessage());
    } catch (NotFound e) {
      discard(wroteFile, newLocation);
      throw new NoSuchNamespaceException("%s", e.getMessage());
    } catch (Conflict e) {
      discard(wroteFile, newLocation);
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed", identifier, base.metadataFileLocation());
    } catch (CommitOutcomeUnknown e) {
      throw new CommitStateUnknownException(e);
    }
    requestRefresh();
  }

  /** Writes {@code metadata} as this table's next metadata file, for a multi-table commit. */
  String writeForTransaction(TableMetadata metadata) {
    locations.checkTable("table " + identifier, metadata.location(), metadata.properties());
    return writeNewMetadataIfRequired(false, metadata);
  }

  private void discard(boolean wroteFile, String location) {
    if (wroteFile) {
      try {
        io.deleteFile(location);
      } catch (RuntimeException ignored) {
        // an orphaned metadata file is harmless: nothing points at it
      }
    }
  }
}
