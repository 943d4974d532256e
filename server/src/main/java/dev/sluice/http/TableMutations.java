package dev.sluice.http;

import static dev.sluice.http.IcebergRequests.table;
import static dev.sluice.http.Securables.namespace;
import static dev.sluice.http.Securables.tableRef;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CommitPrivileges;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.MultiTableCommit;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.Store;
import dev.sluice.vending.Delegation;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Where the table mutations are wired: create (staged or not), register, commit (incl. the commit
 * of a staged create), drop (with purge), rename and the multi-table transaction. Each is
 * authorized for every privilege it needs before anything is written; those that create a table go
 * through {@link TableCreates} (all or nothing), and those that change grants end the authorization
 * cache. {@code Idempotency-Key} is wrapped around them by {@link IdempotentEndpoints}.
 */
final class TableMutations {
  private final IcebergRequests requests;
  private final Authorizer authz;
  private final Store store;
  private final TableCredentials credentials;
  private final TableCreates creates;
  private final LoadTableBody body;

  TableMutations(
      IcebergRequests requests,
      Authorizer authz,
      Store store,
      TableCredentials credentials,
      TableCreates creates,
      LoadTableBody body) {
    this.requests = requireNonNull(requests, "requests");
    this.authz = requireNonNull(authz, "authz");
    this.store = requireNonNull(store, "store");
    this.credentials = requireNonNull(credentials, "credentials");
    this.creates = requireNonNull(creates, "creates");
    this.body = requireNonNull(body, "body");
  }

  /** {@code POST …/tables}, staged or not. */
  Reply create(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateTableRequest request =
        x.icebergBody(CreateTableRequest.class, TableMutations::defaultSpecId);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    Caller caller = requests.caller(x);
    TableIdentifier id = TableIdentifier.of(namespace, request.name());
    authz.require(
        caller, "createTable", catalog.name(), namespace(namespace), Privilege.TABLE_CREATE);
    Delegation delegation = credentials.decide(x, caller, catalog, id);
    if (request.stageCreate()) {
      // Nothing is written: a failure after this leaves nothing behind.
      LoadTableResponse staged = catalog.stageTableCreate(namespace, request);
      return tableReply(credentials.attach(delegation, caller, catalog, id, staged, true));
    }
    return creates.create(
        catalog,
        id,
        delegation,
        caller,
        creating -> CatalogHandlers.createTable(creating, namespace, request),
        this::tableReply);
  }

  /** {@code POST …/register}. */
  Reply register(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace namespace = x.namespace("namespace");
    RegisterTableRequest request = x.icebergBody(RegisterTableRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    Caller caller = requests.caller(x);
    TableIdentifier id = TableIdentifier.of(namespace, request.name());
    authz.require(
        caller, "registerTable", catalog.name(), namespace(namespace), Privilege.TABLE_CREATE);
    Delegation delegation = credentials.decide(x, caller, catalog, id);
    return creates.create(
        catalog,
        id,
        delegation,
        caller,
        creating -> CatalogHandlers.registerTable(creating, namespace, request),
        this::tableReply);
  }

  /** {@code POST …/tables/{table}}: a commit, or the commit of a staged create. */
  Reply commit(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    Caller caller = requests.caller(x);
    authorizeCommit(caller, catalog.name(), table(x), request);
    Delegation delegation = credentials.decide(x, caller, catalog, table(x));
    if (CommitPrivileges.createsTable(request)) {
      // The commit of a staged create: all or nothing, as a create.
      return creates.create(
          catalog,
          table(x),
          delegation,
          caller,
          creating -> CatalogHandlers.updateTable(creating, table(x), request),
          this::tableReply);
    }
    LoadTableResponse committed = CatalogHandlers.updateTable(catalog, table(x), request);
    return tableReply(
        credentials.attachAfterCommit(delegation, caller, catalog, table(x), committed));
  }

  private void authorizeCommit(
      Caller caller, String catalog, TableIdentifier table, UpdateTableRequest request) {
    if (CommitPrivileges.createsTable(request)) {
      authz.require(
          caller, "createTable", catalog, namespace(table.namespace()), Privilege.TABLE_CREATE);
    }
    for (Privilege needed : CommitPrivileges.onTable(request)) {
      authz.require(caller, "updateTable", catalog, tableRef(table), needed);
    }
  }

  /** {@code DELETE …/tables/{table}}, with {@code purgeRequested}. */
  Reply drop(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Caller caller = requests.caller(x);
    boolean purge = Boolean.parseBoolean(x.query("purgeRequested"));
    authz.require(caller, "dropTable", catalog.name(), tableRef(table(x)), Privilege.TABLE_DROP);
    if (purge) {
      authz.require(
          caller, "purgeTable", catalog.name(), tableRef(table(x)), Privilege.TABLE_WRITE_DATA);
      CatalogHandlers.purgeTable(catalog, table(x));
    } else {
      CatalogHandlers.dropTable(catalog, table(x));
    }
    authz.invalidate(); // the grants on it are gone
    return Reply.NO_CONTENT;
  }

  /** {@code POST …/tables/rename}. */
  Reply rename(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    Caller caller = requests.caller(x);
    authz.require(
        caller, "renameTable", catalog.name(), tableRef(request.source()), Privilege.TABLE_DROP);
    authz.require(
        caller,
        "renameTable",
        catalog.name(),
        namespace(request.destination().namespace()),
        Privilege.TABLE_CREATE);
    CatalogHandlers.renameTable(catalog, request);
    authz.invalidate(); // its grants moved with it
    return Reply.NO_CONTENT;
  }

  /** {@code POST …/transactions/commit}: every change authorized before any is applied. */
  Reply commitTransaction(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    CommitTransactionRequest request = x.icebergBody(CommitTransactionRequest.class);
    request.validate();
    Caller caller = requests.caller(x);
    for (UpdateTableRequest change : request.tableChanges()) {
      if (change.identifier() == null) {
        throw new BadRequestException("Invalid table change: missing identifier");
      }
      authorizeCommit(caller, catalog.name(), change.identifier(), change);
    }
    new MultiTableCommit(store, catalog).commit(request);
    return Reply.NO_CONTENT;
  }

  private Reply tableReply(LoadTableResponse response) {
    return Reply.ok(body.toJson(response));
  }

  /** The REST spec makes a partition spec's {@code spec-id} optional; Iceberg's parser needs it. */
  private static void defaultSpecId(ObjectNode request) {
    if (request.get("partition-spec") instanceof ObjectNode spec && !spec.has("spec-id")) {
      spec.put("spec-id", 0);
    }
  }
}
