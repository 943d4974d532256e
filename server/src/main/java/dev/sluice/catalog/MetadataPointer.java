package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AlreadyExists;
import dev.sluice.store.CommitOutcomeUnknown;
import dev.sluice.store.Conflict;
import dev.sluice.store.ContentKind;
import dev.sluice.store.ContentRecord;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.LocationConflict;
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
import org.apache.iceberg.io.FileIO;

/**
 * The store-side half of a table's or view's operations: reading the current metadata location and
 * moving it, with store outcomes translated to Iceberg's exceptions.
 */
final class MetadataPointer {
  private final Store store;
  private final String catalog;
  private final TableIdentifier identifier;
  private final NamespacePath namespace;
  private final ContentKind kind;

  MetadataPointer(Store store, String catalog, TableIdentifier identifier, ContentKind kind) {
    this.store = requireNonNull(store, "store");
    this.catalog = requireNonNull(catalog, "catalog");
    this.identifier = requireNonNull(identifier, "identifier");
    this.namespace = new NamespacePath(List.of(identifier.namespace().levels()));
    this.kind = requireNonNull(kind, "kind");
  }

  String qualifiedName() {
    return catalog + "." + identifier;
  }

  /** The current metadata location, if a {@code kind} of this name exists. */
  Optional<String> current() {
    return store
        .getContent(catalog, namespace, identifier.name())
        .filter(c -> c.kind() == kind)
        .map(ContentRecord::metadataLocation);
  }

  void requireNamespace() {
    if (store.loadNamespace(catalog, namespace).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", identifier.namespace());
    }
  }

  /**
   * Creates the entry ({@code expected == null}) or compare-and-sets it from {@code expected} to
   * {@code next}, recording {@code claims} as its locations when not null (always on a create). On
   * a definite failure the new file is deleted when {@code ownsNext}.
   */
  void commit(
      String expected, String next, FileIO io, boolean ownsNext, List<LocationClaim> claims) {
    try {
      if (expected == null) {
        store.createContent(
            catalog, namespace, identifier.name(), kind, next, claims == null ? List.of() : claims);
      } else {
        store.swapMetadata(
            catalog,
            List.of(new MetadataSwap(namespace, identifier.name(), kind, expected, next, claims)));
      }
    } catch (LocationConflict e) {
      discard(io, next, ownsNext);
      throw LocationRules.refusal(
          kind.name().toLowerCase(java.util.Locale.ROOT) + " " + identifier, e);
    } catch (AlreadyExists e) {
      discard(io, next, ownsNext);
      throw new AlreadyExistsException("%s", e.getMessage());
    } catch (NotFound e) {
      discard(io, next, ownsNext);
      throw new NoSuchNamespaceException("%s", e.getMessage());
    } catch (Conflict e) {
      discard(io, next, ownsNext);
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed", identifier, expected);
    } catch (CommitOutcomeUnknown e) {
      // The new file stays: the pointer may already name it.
      throw new CommitStateUnknownException(e);
    }
  }

  static void discard(FileIO io, String location, boolean owned) {
    if (!owned) {
      return;
    }
    try {
      io.deleteFile(location);
    } catch (RuntimeException ignored) {
      // an orphaned metadata file is harmless: nothing points at it
    }
  }
}
