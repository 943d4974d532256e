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
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;

/** One view's metadata pointer in the store; same compare-and-set as tables. */
final class SluiceViewOperations extends BaseViewOperations {
  private final Store store;
  private final String catalog;
  private final TableIdentifier identifier;
  private final NamespacePath namespace;
  private final FileIO io;
  private final LocationPolicy locations;

  SluiceViewOperations(Store store, String catalog, TableIdentifier identifier, FileIO io, LocationPolicy locations) {
    this.store = requireNonNull(store, "store");
    this.catalog = requireNonNull(catalog, "catalog");
    this.identifier = requireNonNull(identifier, "identifier");
    this.namespace = new NamespacePath(List.of(identifier.namespace().levels()));
    this.io = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
  }

  @Override
  protected String viewName() {
    return catalog + "." + identifier;
  }

  @Override
  protected FileIO io() {
    return io;
  }

  @Override
  protected void doRefresh() {
    Optional<ContentRecord> record =
        store.getContent(catalog, namespace, identifier.name()).filter(c -> c.kind() == ContentKind.VIEW);
    if (record.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    refreshFromMetadataLocation(record.get().metadataLocation());
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    boolean create = base == null;
    locations.check("view " + identifier, metadata.location());
    if (create && store.loadNamespace(catalog, namespace).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", identifier.namespace());
    }
    String newLocation = writeNewMetadataIfRequired(metadata);
    try {
      if (create) {
        store.createContent(catalog, namespace, identifier.name(), ContentKind.VIEW, newLocation);
      } else {
        store.swapMetadata(
            catalog,
            List.of(new MetadataSwap(namespace, identifier.name(), ContentKind.VIEW, base.metadataFileLocation(), newLocation)));
      }
    } catch (AlreadyExists e) {
      discard(newLocation);
      throw new AlreadyExistsException("%s", e.getMessage());
    } catch (NotFound e) {
      discard(newLocation);
      throw new NoSuchNamespaceException("%s", e.getMessage());
    } catch (Conflict e) {
      discard(newLocation);
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed", identifier, base.metadataFileLocation());
    } catch (CommitOutcomeUnknown e) {
      throw new CommitStateUnknownException(e);
    }
    requestRefresh();
  }

  private void discard(String location) {
    try {
      io.deleteFile(location);
    } catch (RuntimeException ignored) {
      // an orphaned metadata file is harmless: nothing points at it
    }
  }
}
