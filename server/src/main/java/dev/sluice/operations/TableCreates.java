package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.catalog.TableCreation;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageCredential;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
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
   * Runs {@code create} on the catalog set up for creating {@code call}'s table, and turns its
   * response, with credentials under {@code delegation}, into the caller's answer with {@code
   * answer}: a failure there (serializing it) undoes the create too.
   */
  <T> T create(
      TableCall call,
      Delegation delegation,
      Function<SluiceCatalog, LoadTableResponse> create,
      Function<LoadTableResponse, T> answer) {
    AtomicReference<List<StorageCredential>> vended = new AtomicReference<>();
    TableCreation creation =
        call.catalog()
            .newCreation(
                call.table(),
                metadata -> vended.set(credentials.credentials(call, delegation, metadata)));
    try {
      LoadTableResponse created = create.apply(call.catalog().creating(creation));
      List<StorageCredential> ready = vended.get();
      // Not a create after all (a commit to an existing table): vended as any commit is.
      return answer.apply(
          ready == null
              ? credentials.attachAfterCommit(call, delegation, created)
              : credentials.withVended(call, delegation, created, ready));
    } catch (RuntimeException | Error e) {
      creation.undo(e);
      throw e;
    }
  }
}
