package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.io.ConfinedFileIO;
import dev.sluice.store.ContentKind;
import dev.sluice.store.Store;
import java.util.function.Consumer;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One create of a table (a create, the commit of a staged create, a register) made all or nothing
 * for the caller. What can fail is done before the pointer exists: {@code beforeWrite} (vending the
 * answer's credentials) runs once the new metadata's locations are checked and before its file is
 * written. What fails after the pointer committed (reading it back, building the answer) is undone
 * by {@link #undo}: the pointer is dropped only while it still names the file this create wrote, so
 * a table committed to or re-created meanwhile is never touched.
 *
 * <p>One request's state: not shared between requests.
 */
public final class TableCreation {
  private static final Logger LOG = LoggerFactory.getLogger(TableCreation.class);

  private final Store store;
  private final String catalog;
  private final TableIdentifier identifier;
  private final FileIO catalogIo;
  private final Consumer<TableMetadata> beforeWrite;
  private String pointer;
  private boolean ownsFile;
  private boolean outcomeUnknown;
  private ContentLocations own;

  TableCreation(
      Store store,
      String catalog,
      TableIdentifier identifier,
      FileIO catalogIo,
      Consumer<TableMetadata> beforeWrite) {
    this.store = requireNonNull(store, "store");
    this.catalog = requireNonNull(catalog, "catalog");
    this.identifier = requireNonNull(identifier, "identifier");
    this.catalogIo = requireNonNull(catalogIo, "catalogIo");
    this.beforeWrite = requireNonNull(beforeWrite, "beforeWrite");
  }

  TableIdentifier identifier() {
    return identifier;
  }

  /** The create's metadata, locations checked, nothing written yet; throwing stops the create. */
  void checked(TableMetadata metadata) {
    beforeWrite.accept(metadata);
  }

  /** The pointer now names {@code metadataLocation}: undo has something to drop. */
  void committed(String metadataLocation, boolean ownsFile, ContentLocations own) {
    this.pointer = requireNonNull(metadataLocation, "metadataLocation");
    this.ownsFile = ownsFile;
    this.outcomeUnknown = false;
    this.own = requireNonNull(own, "own");
  }

  /**
   * The store may or may not have committed the pointer to {@code metadataLocation}. Only a file
   * this create wrote (a unique name) identifies the pointer as ours; a registered file does not: a
   * concurrent register of the same file may be the one that won.
   */
  void outcomeUnknown(String metadataLocation, boolean ownsFile, ContentLocations own) {
    if (ownsFile) {
      committed(metadataLocation, true, own);
      this.outcomeUnknown = true;
    }
  }

  /**
   * Undoes the create after {@code cause}, best effort: drops the table if its pointer still names
   * this create's file, then deletes that file if this create wrote it, inside the table's own
   * locations only. Never throws; a failure is added to {@code cause} as suppressed and logged.
   */
  public void undo(Throwable cause) {
    if (pointer == null) {
      return; // nothing was committed: nothing to undo
    }
    String at = pointer;
    pointer = null;
    try {
      boolean dropped =
          store.dropContentIfAt(
              catalog,
              SluiceCatalog.path(identifier.namespace()),
              identifier.name(),
              ContentKind.TABLE,
              at);
      LOG.warn(
          "Create of {}.{} failed after its pointer {} ({}): {}",
          catalog,
          identifier,
          outcomeUnknown ? "may have committed" : "committed",
          dropped ? "table dropped again" : "left: it moved on or is gone",
          cause.toString());
      if (dropped && ownsFile) {
        new ConfinedFileIO(catalogIo, "table " + identifier, own.all()).deleteFile(at);
      }
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
      LOG.error(
          "Create of {}.{} failed after its pointer committed, and undoing it failed: {}",
          catalog,
          identifier,
          e.toString());
    }
  }
}
