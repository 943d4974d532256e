package dev.sluice.http;

import static dev.sluice.http.IcebergRequests.table;
import static dev.sluice.http.Securables.tableRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.vending.Delegation;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;

/**
 * Where loadTable is wired: authorization, credentials for the caller's delegation, the ETag over
 * the whole response, {@code If-None-Match} (304 through {@link ConditionalLoad}) and the {@code
 * snapshots} mode; and {@code GET …/credentials}, which vends as a load would. The hot path of the
 * catalog, kept apart from the route table so its steps read in order.
 */
final class TableLoads {
  private static final String ETAG = "ETag";
  private static final String IF_NONE_MATCH = "If-None-Match";

  private final IcebergRequests requests;
  private final TableCredentials credentials;
  private final LoadTableBody body;
  private final ConditionalLoad conditional;

  TableLoads(
      IcebergRequests requests,
      TableCredentials credentials,
      LoadTableBody body,
      ConditionalLoad conditional) {
    this.requests = requireNonNull(requests, "requests");
    this.credentials = requireNonNull(credentials, "credentials");
    this.body = requireNonNull(body, "body");
    this.conditional = requireNonNull(conditional, "conditional");
  }

  /** {@code GET …/tables/{table}}. */
  Reply load(Exchange x) {
    // The hot path: the caller and the identifier are worked out once.
    SnapshotsMode mode = SnapshotsMode.fromQuery(x.query("snapshots"));
    SluiceCatalog catalog = requests.catalog(x);
    Caller caller = requests.caller(x);
    TableIdentifier table = table(x);
    requests.readable(
        caller, "loadTable", catalog, tableRef(table), table, Privilege.TABLE_READ_PROPERTIES);
    Delegation delegation = credentials.decide(x, caller, catalog, table);
    // Authorized, and the credential is the one a full answer would carry now (the vending cache
    // has decided), before the 304 decision; only the body's serialization is skipped.
    TableCredentials.Loaded loaded =
        credentials.attachToLoad(
            delegation, caller, catalog, table, CatalogHandlers.loadTable(catalog, table));
    String etag = LoadTableETag.of(loaded.response(), mode, delegation);
    if (conditional.notModified(x.header(IF_NONE_MATCH), etag, loaded.credentialsExpireAtMs())) {
      return Reply.notModified(etag);
    }
    return new Reply(200, body.toJson(loaded.response(), mode), true, Map.of(ETAG, etag));
  }

  /**
   * {@code GET …/credentials}: what a load by this caller would vend now (a revoked write grant
   * gives read-only).
   */
  Reply loadCredentials(Exchange x) {
    if (x.query("planId") != null) {
      throw new BadRequestException("planId is not supported: this catalog does not plan scans");
    }
    SluiceCatalog catalog = requests.onTable(x, "loadCredentials", Privilege.TABLE_READ_PROPERTIES);
    Caller caller = requests.caller(x);
    TableMetadata metadata = CatalogHandlers.loadTable(catalog, table(x)).tableMetadata();
    Delegation delegation = credentials.decideRefresh(caller, catalog, table(x));
    List<Credential> vended =
        credentials.credentials(delegation, caller, catalog, table(x), metadata).stream()
            .map(TableCredentials::credential)
            .toList();
    return Reply.ok(ImmutableLoadCredentialsResponse.builder().credentials(vended).build());
  }
}
