package dev.sluice.operations;

import static dev.sluice.operations.Securables.tableRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.store.ContentKind;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.StorageCredential;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * loadTable, the hot path of the catalog, its steps in order: authorization, credentials for the
 * caller's delegation, the ETag over the whole response, and {@code If-None-Match} (a 304 through
 * {@link ConditionalLoad}); {@code GET …/credentials}, which vends as a load would; and the table's
 * existence check and metrics reports.
 */
public final class TableLoads {
  private static final Logger LOG = LoggerFactory.getLogger(TableLoads.class);

  /**
   * A loadTable: {@code accessDelegation} and {@code ifNoneMatch} are the client's {@code
   * X-Iceberg-Access-Delegation} and {@code If-None-Match} headers (null when absent).
   */
  public record LoadTable(
      TableCall call, SnapshotsMode mode, String accessDelegation, String ifNoneMatch) {
    public LoadTable {
      requireNonNull(call, "call");
      requireNonNull(mode, "mode");
    }
  }

  /**
   * A load's outcome: the response to send in {@code mode} with its ETag, or, when the client's
   * copy is current, only the ETag ({@code response} null: 304 Not Modified).
   */
  public record Loaded(
      LoadTableResponse response,
      String etag,
      SnapshotsMode mode,
      Optional<TableRestriction> restriction) {
    public Loaded {
      requireNonNull(etag, "etag");
      requireNonNull(mode, "mode");
      requireNonNull(restriction, "restriction");
    }

    public boolean notModified() {
      return response == null;
    }

    /**
     * The answer's JSON as this caller may see it: {@code body}, the response as written, with
     * hidden columns removed and the read restrictions added for a restricted caller.
     */
    public byte[] shown(byte[] body) {
      return restriction.map(r -> RestrictedLoad.rewrite(body, r)).orElse(body);
    }
  }

  private final Authorizer authz;
  private final CatalogAccess access;
  private final TableCredentials credentials;
  private final ConditionalLoad conditional;
  private final ReadRestrictions restrictions;

  public TableLoads(
      Authorizer authz,
      CatalogAccess access,
      TableCredentials credentials,
      ConditionalLoad conditional,
      ReadRestrictions restrictions) {
    this.authz = requireNonNull(authz, "authz");
    this.access = requireNonNull(access, "access");
    this.credentials = requireNonNull(credentials, "credentials");
    this.conditional = requireNonNull(conditional, "conditional");
    this.restrictions = requireNonNull(restrictions, "restrictions");
  }

  /** {@code GET …/tables/{table}}. */
  public Loaded load(LoadTable request) {
    TableCall call = request.call();
    access.requireReadable(
        call.caller(),
        "loadTable",
        call.catalog(),
        tableRef(call.table()),
        call.table(),
        Privilege.TABLE_READ_PROPERTIES);
    Optional<TableRestriction> restriction =
        restrictions.of(call.caller(), call.catalog().name(), call.table());
    if (restriction.isPresent()) {
      // No storage access, whatever was asked: the engine plans on the server.
      LoadTableResponse restricted =
          RestrictedLoad.of(CatalogHandlers.loadTable(call.catalog(), call.table()));
      String etag =
          LoadTableETag.of(restricted, request.mode(), Delegation.NONE, restriction.get());
      if (conditional.notModified(request.ifNoneMatch(), etag, TableCredentials.Loaded.NEVER)) {
        return new Loaded(null, etag, request.mode(), restriction);
      }
      return new Loaded(restricted, etag, request.mode(), restriction);
    }
    Delegation delegation = credentials.decide(call, request.accessDelegation());
    // Authorized, and the credential is the one a full answer would carry now (the vending cache
    // has decided), before the 304 decision; only the body's serialization is skipped.
    TableCredentials.Loaded loaded =
        credentials.attachToLoad(
            call, delegation, CatalogHandlers.loadTable(call.catalog(), call.table()));
    String etag = LoadTableETag.of(loaded.response(), request.mode(), delegation);
    if (conditional.notModified(request.ifNoneMatch(), etag, loaded.credentialsExpireAtMs())) {
      return new Loaded(null, etag, request.mode(), Optional.empty());
    }
    return new Loaded(loaded.response(), etag, request.mode(), Optional.empty());
  }

  /** {@code HEAD …/tables/{table}}: 404 for a missing table only to a caller who may know. */
  public void exists(TableCall call) {
    access.requireReadable(
        call.caller(),
        "tableExists",
        call.catalog(),
        tableRef(call.table()),
        call.table(),
        Privilege.TABLE_READ_PROPERTIES);
    CatalogHandlers.tableExists(call.catalog(), call.table());
  }

  /**
   * {@code POST …/metrics}: accepted (and logged at debug) from a caller who may read the table's
   * data, for a table that exists; authorized before {@code report} (the body) is read.
   */
  public void reportMetrics(TableCall call, Supplier<ReportMetricsRequest> report) {
    access.requireOnTable(
        call.caller(), "reportMetrics", call.catalog(), call.table(), Privilege.TABLE_READ_DATA);
    ReportMetricsRequest request = report.get();
    if (!call.catalog().tableExists(call.table())) {
      // A staged create's append reports its commit before the create commits (Spark's CREATE
      // TABLE AS SELECT): discarded for a caller who may create the table, where a 404 would only
      // make the engine log a warning with a stack trace.
      if (!authz
          .effective(
              call.caller(), call.catalog().name(), Securables.namespace(call.table().namespace()))
          .contains(Privilege.TABLE_CREATE)) {
        throw new NoSuchTableException("Table does not exist: %s", call.table());
      }
      LOG.debug("metrics report for {}, not (yet) a table: discarded", call.table());
      return;
    }
    LOG.debug("metrics report for {}: {}", call.table(), request.reportType());
  }

  /**
   * {@code GET …/credentials}: what a load by this caller would vend now (a revoked write grant
   * gives read-only).
   */
  public LoadCredentialsResponse credentials(TableCall call) {
    // Where the catalog vends, name the privilege that would help (reading data), not the table's
    // properties: a caller without TABLE_READ_DATA is refused credentials either way.
    access.requireOnTable(
        call.caller(),
        TableCredentials.REFRESH_ACTION,
        call.catalog(),
        call.table(),
        TableCredentials.vends(call.catalog())
            ? Privilege.TABLE_READ_DATA
            : Privilege.TABLE_READ_PROPERTIES);
    if (restrictions.of(call.caller(), call.catalog().name(), call.table()).isPresent()) {
      String why = "under a read restriction: credentials come with a scan plan (planId)";
      authz.record(
          call.caller(),
          TableCredentials.REFRESH_ACTION,
          call.catalog().name(),
          tableRef(call.table()).toString(),
          false,
          why);
      throw new ForbiddenException(
          "No table-wide credentials for principal '%s' on %s: it is %s",
          call.caller().principal(), call.table(), why);
    }
    TableMetadata metadata =
        CatalogHandlers.loadTable(call.catalog(), call.table()).tableMetadata();
    Delegation delegation = credentials.decideRefresh(call);
    return answer(
        credentials.credentials(call, delegation, metadata), TableCredentials.refreshConfig(call));
  }

  /**
   * {@code GET …/credentials/{grant}}, a staged table's refresh endpoint. First the grant: for this
   * endpoint, caller, catalog and table, and unexpired (a 403 otherwise). Once a table holds the
   * name (the create has committed), it answers as the table's own endpoint ({@link #credentials}).
   * Until then, the caller must still hold TABLE_CREATE on the namespace and TABLE_READ_DATA on the
   * name (TABLE_WRITE_DATA for read-write), and the grant's locations must still pass every check a
   * create makes (403 otherwise): it vends for exactly those.
   */
  public LoadCredentialsResponse stagedCredentials(TableCall call, String grant) {
    StagedTableGrant staged = credentials.verifyStagedRefresh(call, grant);
    SluiceCatalog catalog = call.catalog();
    Optional<ContentKind> kind = catalog.kindAt(call.table());
    if (kind.isPresent()) {
      if (kind.get() != ContentKind.TABLE) {
        throw new ForbiddenException("A view holds the name of staged table %s", call.table());
      }
      return credentials(call);
    }
    authz.require(
        call.caller(),
        TableCredentials.REFRESH_ACTION,
        catalog.name(),
        Securables.namespace(call.table().namespace()),
        Privilege.TABLE_CREATE);
    Delegation delegation = credentials.decideRefresh(call);
    catalog.requireStagedLocationsFree(
        call.table(), staged.location(), staged.locationProperties());
    return answer(
        credentials.credentials(call, delegation, staged.location(), staged.locationProperties()),
        TableCredentials.stagedRefreshConfig(call, grant));
  }

  /** The credentials endpoint's answer: each credential with where to refresh it. */
  private static LoadCredentialsResponse answer(
      List<StorageCredential> vended, Map<String, String> refresh) {
    List<Credential> credentials =
        vended.stream().map(c -> TableCredentials.credential(c, refresh)).toList();
    return ImmutableLoadCredentialsResponse.builder().credentials(credentials).build();
  }
}
