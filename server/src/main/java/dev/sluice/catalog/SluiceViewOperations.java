package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.io.ConfinedFileIO;
import dev.sluice.store.ContentKind;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * One view's metadata pointer in the store: the same location rules and compare-and-set as tables
 * ({@link SluiceTableOperations}), and the same confined FileIO.
 */
final class SluiceViewOperations extends BaseViewOperations {
  private final TableIdentifier identifier;
  private final MetadataPointer pointer;
  private final FileIO catalogIo;
  private final LocationRules locations;
  private volatile ConfinedFileIO io;

  SluiceViewOperations(
      Store store, String catalog, TableIdentifier identifier, FileIO io, LocationRules locations) {
    this.identifier = requireNonNull(identifier, "identifier");
    this.pointer = new MetadataPointer(store, catalog, identifier, ContentKind.VIEW);
    this.catalogIo = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
    this.io = confined(null);
  }

  @Override
  protected String viewName() {
    return pointer.qualifiedName();
  }

  /** Built on first use after a refresh: a plain load never needs it. */
  @Override
  protected FileIO io() {
    ConfinedFileIO confined = io;
    if (confined == null) {
      ViewMetadata current = current();
      confined =
          confined(
              current == null
                  ? null
                  : ContentLocations.of(current.location(), current.properties()));
      io = confined;
    }
    return confined;
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
    refreshFromMetadataLocation(
        location.get(),
        null,
        SluiceTableOperations.METADATA_READ_RETRIES,
        l -> ViewMetadataParser.read(catalogIo.newInputFile(l)));
    io = null;
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    boolean create = base == null;
    String what = "view " + identifier;
    if (!create) {
      WriteFreeze.checkCommit(what, base.properties(), metadata.changes());
    }
    ContentLocations previous =
        create ? null : ContentLocations.of(base.location(), base.properties());
    ContentLocations next =
        locations.checkContent(
            what, identifier, metadata.location(), metadata.properties(), previous);
    // A registered view keeps the caller's metadata file: it must lie inside the view's own
    // locations, and it is never ours to delete.
    String registered = metadata.metadataFileLocation();
    if (registered != null) {
      locations.policy().check(what + " (metadata file)", registered);
      if (!next.covers(registered)) {
        throw new ForbiddenException(
            "Invalid metadata file '%s' for %s: not inside the view's own locations %s",
            registered, what, next.all());
      }
    }
    io = confined(next.plus(previous));
    if (create) {
      pointer.requireNamespace();
    }
    String newLocation = writeNewMetadataIfRequired(metadata);
    pointer.commit(
        create ? null : base.metadataFileLocation(),
        newLocation,
        io,
        registered == null,
        next.sameAs(previous) ? null : next.claims());
    requestRefresh();
  }

  private ConfinedFileIO confined(ContentLocations own) {
    return new ConfinedFileIO(catalogIo, "view " + identifier, own == null ? List.of() : own.all());
  }
}
