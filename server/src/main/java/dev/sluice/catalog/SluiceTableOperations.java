package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.io.ConfinedFileIO;
import dev.sluice.store.ContentKind;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * One table's metadata pointer in the store. Iceberg writes the new metadata file; this class
 * checks its locations first ({@link LocationRules}) and then moves the pointer with a
 * compare-and-set that also records the table's locations when they change.
 *
 * <p>{@link #io()} is the catalog's FileIO confined to the table's own locations: Iceberg uses it
 * to write metadata and to delete old metadata files after a commit ({@code
 * write.metadata.delete-after-commit.enabled}), paths a caller may have written.
 */
final class SluiceTableOperations extends BaseMetastoreTableOperations {
  private final TableIdentifier identifier;
  private final MetadataPointer pointer;
  private final FileIO catalogIo;
  private final LocationRules locations;
  private final MetadataCache metadata;
  private final MetadataCache.TableKey key;
  private final TableCreation creation;
  private volatile ConfinedFileIO io;

  /** Set while a commit writes its metadata file: {@link #io()} then answers it. */
  private volatile MetadataFileCapture writing;

  SluiceTableOperations(
      Store store,
      String catalog,
      TableIdentifier identifier,
      FileIO io,
      LocationRules locations,
      MetadataCache metadata,
      TableCreation creation) {
    this.identifier = requireNonNull(identifier, "identifier");
    this.pointer = new MetadataPointer(store, catalog, identifier, ContentKind.TABLE);
    this.catalogIo = requireNonNull(io, "io");
    this.locations = requireNonNull(locations, "locations");
    this.metadata = requireNonNull(metadata, "metadata");
    this.key = new MetadataCache.TableKey(catalog, identifier);
    this.creation = creation;
    this.io = confined(null);
  }

  @Override
  protected String tableName() {
    return pointer.qualifiedName();
  }

  /** Built on first use after a refresh: a plain load never needs it. */
  @Override
  public FileIO io() {
    MetadataFileCapture capture = writing;
    if (capture != null) {
      return capture;
    }
    ConfinedFileIO confined = io;
    if (confined == null) {
      TableMetadata current = current();
      confined =
          confined(
              current == null
                  ? null
                  : ContentLocations.of(current.location(), current.properties()));
      io = confined;
    }
    return confined;
  }

  /**
   * Retries of a failed metadata read inside a request (once, after 100 ms). Iceberg's own default,
   * 20 with a backoff to 5 s, held a load for about 85 s while the catalog's storage was down;
   * object stores are read-after-write consistent now, so a pointer never names a file that is not
   * there yet, and a storage outage is better answered 503 within seconds (each read is bounded by
   * its client's own timeouts, 10 s for S3).
   */
  static final int METADATA_READ_RETRIES = 1;

  /**
   * The metadata file this object's own commit has just installed, for the refresh that follows it
   * (the commit's answer is {@code current()}): read from the pointer, that refresh could fail
   * after the commit was applied, and a 503 for an applied commit makes the client send it again,
   * whose retry then rolled {@code main} back (issue 33: PostgreSQL frozen mid-commit, the store's
   * next connection refused right after).
   */
  private String committedLocation;

  @Override
  protected void doRefresh() {
    String committed = committedLocation;
    committedLocation = null;
    Optional<String> location = committed != null ? Optional.of(committed) : pointer.current();
    if (location.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
      disableRefresh();
      return;
    }
    // The pointer is the catalog's own: its file is read through the catalog's FileIO.
    refreshFromMetadataLocation(
        location.get(), null, METADATA_READ_RETRIES, this.metadata.loader(key, catalogIo));
    io = null;
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    boolean create = base == null;
    if (!create) {
      WriteFreeze.checkCommit("table " + identifier, base.properties(), metadata.changes());
    }
    ContentLocations previous =
        create ? null : ContentLocations.of(base.location(), base.properties());
    ContentLocations next = checkLocations(metadata, previous);
    io = confined(next.plus(previous));
    if (create) {
      pointer.requireNamespace();
      if (creation != null) {
        creation.checked(metadata); // before anything is written: a failure leaves nothing
      }
    }
    MetadataFileCapture capture = new MetadataFileCapture(io);
    String newLocation;
    writing = capture;
    try {
      newLocation = writeNewMetadataIfRequired(create, metadata);
    } finally {
      writing = null;
    }
    // A registered table keeps the caller's metadata file; only a file written here is ours to
    // delete.
    boolean ownsFile = !newLocation.equals(metadata.metadataFileLocation());
    try {
      pointer.commit(
          create ? null : base.metadataFileLocation(),
          newLocation,
          io,
          ownsFile,
          claimsIfChanged(next, previous));
    } catch (CommitStateUnknownException e) {
      if (create && creation != null) {
        creation.outcomeUnknown(newLocation, ownsFile, next);
      }
      throw e;
    }
    if (ownsFile) {
      this.metadata.remember(key, newLocation, metadata, capture.written(newLocation));
    }
    if (create && creation != null) {
      creation.committed(newLocation, ownsFile, next);
    }
    committedLocation = newLocation;
    requestRefresh();
  }

  /**
   * A metadata file written for a multi-table commit, and the claims to record with its swap (null:
   * unchanged).
   */
  record TransactionWrite(String location, List<LocationClaim> claims) {}

  /** Writes {@code metadata} as this table's next metadata file, for a multi-table commit. */
  TransactionWrite writeForTransaction(TableMetadata base, TableMetadata metadata) {
    WriteFreeze.checkCommit("table " + identifier, base.properties(), metadata.changes());
    ContentLocations previous = ContentLocations.of(base.location(), base.properties());
    ContentLocations next = checkLocations(metadata, previous);
    io = confined(next.plus(previous));
    return new TransactionWrite(
        writeNewMetadataIfRequired(false, metadata), claimsIfChanged(next, previous));
  }

  private ContentLocations checkLocations(TableMetadata metadata, ContentLocations previous) {
    String what = "table " + identifier;
    ContentLocations next =
        locations.checkContent(
            what, identifier, metadata.location(), metadata.properties(), previous);
    String file = metadata.metadataFileLocation();
    if (file != null) {
      locations.policy().check(what + " (metadata file)", file);
      if (!next.covers(file)) {
        throw new ForbiddenException(
            "Invalid metadata file '%s' for %s: not inside the table's own locations %s",
            file, what, next.all());
      }
    }
    return next;
  }

  private static List<LocationClaim> claimsIfChanged(
      ContentLocations next, ContentLocations previous) {
    return next.sameAs(previous) ? null : next.claims();
  }

  private ConfinedFileIO confined(ContentLocations own) {
    return new ConfinedFileIO(
        catalogIo, "table " + identifier, own == null ? List.of() : own.all());
  }
}
