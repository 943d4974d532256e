package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.CommitOutcomeUnknown;
import dev.sluice.store.Conflict;
import dev.sluice.store.ContentKind;
import dev.sluice.store.LocationConflict;
import dev.sluice.store.MetadataSwap;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * {@code POST /transactions/commit}: validates every table's requirements against its current
 * metadata, writes every new metadata file, then moves all pointers in one store transaction.
 * Either every table changes or none does. A lost race is retried from fresh metadata while the
 * requirements still hold, as {@code CatalogHandlers} does for one table.
 */
public final class MultiTableCommit {
  private static final int MAX_ATTEMPTS = 6;

  /**
   * Exponential backoff with full jitter (20, 40, 80… ms, at most 1 s) so racing writers spread
   * out.
   */
  private static void backOff(int attempt) {
    long cap = Math.min(1000, 20L << (attempt - 1));
    try {
      Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommitFailedException("Interrupted while retrying a transaction");
    }
  }

  private final Store store;
  private final SluiceCatalog catalog;

  /**
   * A transaction on {@code catalog}, written through the catalog's own store: under an {@code
   * Idempotency-Key}, the request's claiming view, so the swap records the key.
   */
  public MultiTableCommit(SluiceCatalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog");
    this.store = catalog.store();
  }

  public void commit(CommitTransactionRequest request) {
    request.validate();
    Set<TableIdentifier> seen = new HashSet<>();
    for (UpdateTableRequest change : request.tableChanges()) {
      if (change.identifier() == null) {
        throw new BadRequestException("Invalid table change: missing identifier");
      }
      IdentifierRules.checkIdentifier(change.identifier());
      if (!seen.add(change.identifier())) {
        throw new BadRequestException(
            "Invalid transaction: table %s appears more than once", change.identifier());
      }
    }
    for (int attempt = 1; ; attempt++) {
      try {
        attempt(request);
        return;
      } catch (Conflict e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new CommitFailedException(
              "Cannot commit transaction: tables changed concurrently %d times", attempt);
        }
        backOff(attempt);
      }
    }
  }

  private void attempt(CommitTransactionRequest request) {
    List<MetadataSwap> swaps = new ArrayList<>();
    List<String> written = new ArrayList<>();
    try {
      for (UpdateTableRequest change : request.tableChanges()) {
        TableIdentifier id = change.identifier();
        SluiceTableOperations ops = catalog.tableOps(id);
        TableMetadata base = ops.refresh();
        if (base == null) {
          throw new NoSuchTableException("Table does not exist: %s", id);
        }
        change.requirements().forEach(requirement -> requirement.validate(base));
        TableMetadata.Builder builder = TableMetadata.buildFrom(base);
        change.updates().forEach(update -> update.applyTo(builder));
        TableMetadata updated = builder.build();
        if (updated.changes().isEmpty()) {
          continue;
        }
        SluiceTableOperations.TransactionWrite write = ops.writeForTransaction(base, updated);
        written.add(write.location());
        swaps.add(
            new MetadataSwap(
                new NamespacePath(List.of(id.namespace().levels())),
                id.name(),
                ContentKind.TABLE,
                base.metadataFileLocation(),
                write.location(),
                write.claims()));
      }
      if (!swaps.isEmpty()) {
        store.swapMetadata(catalog.name(), swaps);
      }
    } catch (CommitOutcomeUnknown e) {
      throw new CommitStateUnknownException(e);
    } catch (RuntimeException e) {
      written.forEach(location -> MetadataPointer.discard(catalog.io(), location, true));
      throw e instanceof LocationConflict conflict
          ? LocationRules.refusal("a table of the transaction", conflict)
          : e;
    }
  }
}
