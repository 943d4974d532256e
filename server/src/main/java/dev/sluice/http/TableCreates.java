package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.catalog.TableCreation;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageCredential;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Requests that create a table (create, the commit of a staged create, register), all or nothing
 * for the caller: either the table exists and the caller gets its answer, or it does not exist. The
 * answer's credentials are vended before the pointer commits, for the locations just checked (as a
 * staged create vends before anything exists); a failure after the commit (reading the table back,
 * building the answer) drops the table again if it is still the one this request made.
 */
final class TableCreates {
  private final TableCredentials credentials;

  TableCreates(TableCredentials credentials) {
    this.credentials = requireNonNull(credentials, "credentials");
  }

  /**
   * Runs {@code create} on {@code catalog} set up for creating {@code table}, and turns its answer,
   * with credentials under {@code delegation}, into the reply with {@code reply}.
   */
  Reply create(
      SluiceCatalog catalog,
      TableIdentifier table,
      Delegation delegation,
      Caller caller,
      Function<SluiceCatalog, LoadTableResponse> create,
      Function<LoadTableResponse, Reply> reply) {
    AtomicReference<List<StorageCredential>> vended = new AtomicReference<>();
    TableCreation creation =
        catalog.newCreation(
            table,
            metadata ->
                vended.set(credentials.credentials(delegation, caller, catalog, table, metadata)));
    try {
      LoadTableResponse created = create.apply(catalog.creating(creation));
      List<StorageCredential> ready = vended.get();
      // Not a create after all (a commit to an existing table): vended as any commit is.
      LoadTableResponse answer =
          ready == null
              ? credentials.attachAfterCommit(delegation, caller, catalog, table, created)
              : credentials.withCredentials(delegation, catalog, table, created, ready, false);
      return reply.apply(answer);
    } catch (RuntimeException | Error e) {
      creation.undo(e);
      throw e;
    }
  }
}
