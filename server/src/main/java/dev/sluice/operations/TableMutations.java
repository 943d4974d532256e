package dev.sluice.operations;

import static dev.sluice.operations.Securables.namespace;
import static dev.sluice.operations.Securables.tableRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CommitPrivileges;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.MultiTableCommit;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.vending.Delegation;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The table mutations: create (staged or not), register, commit (incl. the commit of a staged
 * create), drop (with purge), rename, the multi-table transaction, and the replay of a table answer
 * under {@code Idempotency-Key}. Each is authorized for every privilege it needs before anything is
 * written; those that create a table go through {@link TableCreates} (all or nothing), and those
 * that change grants end the authorization cache.
 *
 * <p>The methods that answer with a table take {@code answer}, what the caller makes of the
 * response (its serialization): it runs while a create can still be undone.
 */
public final class TableMutations {
  /** A create in {@code namespace}; {@code accessDelegation} as in {@link TableLoads.LoadTable}. */
  public record CreateTable(
      Caller caller,
      SluiceCatalog catalog,
      Namespace namespace,
      CreateTableRequest request,
      String accessDelegation) {
    public CreateTable {
      requireNonNull(caller, "caller");
      requireNonNull(catalog, "catalog");
      requireNonNull(namespace, "namespace");
      requireNonNull(request, "request");
    }
  }

  /** A register in {@code namespace}. */
  public record RegisterTable(
      Caller caller,
      SluiceCatalog catalog,
      Namespace namespace,
      RegisterTableRequest request,
      String accessDelegation) {
    public RegisterTable {
      requireNonNull(caller, "caller");
      requireNonNull(catalog, "catalog");
      requireNonNull(namespace, "namespace");
      requireNonNull(request, "request");
    }
  }

  /** A commit to {@code call}'s table, or the commit of its staged create. */
  public record CommitTable(TableCall call, UpdateTableRequest request, String accessDelegation) {
    public CommitTable {
      requireNonNull(call, "call");
      requireNonNull(request, "request");
    }
  }

  /** Which request a replayed table answer answered first. */
  public enum Answered {
    CREATE,
    STAGED_CREATE,
    REGISTER,
    COMMIT
  }

  /**
   * A retry under {@code Idempotency-Key} of a request first answered with a table: {@code call}
   * names the table that answer was about; {@code commit} is the commit's body (null otherwise).
   */
  public record Replay(
      TableCall call, Answered answered, UpdateTableRequest commit, String accessDelegation) {
    public Replay {
      requireNonNull(call, "call");
      requireNonNull(answered, "answered");
      if ((answered == Answered.COMMIT) != (commit != null)) {
        throw new IllegalArgumentException("A commit's replay, and only one, carries its body");
      }
    }
  }

  private final Authorizer authz;
  private final TableCredentials credentials;
  private final TableCreates creates;
  private final ReadRestrictions restrictions;

  public TableMutations(
      Authorizer authz, TableCredentials credentials, ReadRestrictions restrictions) {
    this.authz = requireNonNull(authz, "authz");
    this.credentials = requireNonNull(credentials, "credentials");
    this.restrictions = requireNonNull(restrictions, "restrictions");
    this.creates = new TableCreates(credentials);
  }

  /** {@code POST …/tables}, staged or not. */
  public <T> T create(CreateTable create, Function<LoadTableResponse, T> answer) {
    CreateTableRequest request = create.request();
    request.validate();
    TableIdentifier id = TableIdentifier.of(create.namespace(), request.name());
    IdentifierRules.checkIdentifier(id);
    SluiceCatalog catalog = create.catalog();
    authz.require(
        create.caller(),
        "createTable",
        catalog.name(),
        namespace(create.namespace()),
        Privilege.TABLE_CREATE);
    TableCall call = new TableCall(create.caller(), catalog, id);
    Delegation delegation = credentials.decide(call, create.accessDelegation());
    if (request.stageCreate()) {
      // Nothing is written: a failure after this leaves nothing behind.
      LoadTableResponse staged = catalog.stageTableCreate(create.namespace(), request);
      return answer.apply(credentials.attachStaged(call, delegation, staged));
    }
    return creates.create(
        call,
        delegation,
        creating -> CatalogHandlers.createTable(creating, create.namespace(), request),
        answer);
  }

  /** {@code POST …/register}. */
  public <T> T register(RegisterTable register, Function<LoadTableResponse, T> answer) {
    RegisterTableRequest request = register.request();
    request.validate();
    TableIdentifier id = TableIdentifier.of(register.namespace(), request.name());
    IdentifierRules.checkIdentifier(id);
    authz.require(
        register.caller(),
        "registerTable",
        register.catalog().name(),
        namespace(register.namespace()),
        Privilege.TABLE_CREATE);
    TableCall call = new TableCall(register.caller(), register.catalog(), id);
    Delegation delegation = credentials.decide(call, register.accessDelegation());
    return creates.create(
        call,
        delegation,
        creating -> CatalogHandlers.registerTable(creating, register.namespace(), request),
        answer);
  }

  /** {@code POST …/tables/{table}}: a commit, or the commit of a staged create. */
  public <T> T commit(CommitTable commit, Function<LoadTableResponse, T> answer) {
    TableCall call = commit.call();
    UpdateTableRequest request = commit.request();
    authorizeCommit(call.caller(), call.catalog().name(), call.table(), request);
    Delegation delegation = credentials.decide(call, commit.accessDelegation());
    if (CommitPrivileges.createsTable(request)) {
      // The commit of a staged create: all or nothing, as a create.
      return creates.create(
          call,
          delegation,
          creating -> CatalogHandlers.updateTable(creating, call.table(), request),
          answer);
    }
    LoadTableResponse committed =
        CatalogHandlers.updateTable(call.catalog(), call.table(), request);
    return answer.apply(credentials.attachAfterCommit(call, delegation, committed));
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
    requireUnrestricted(caller, "updateTable", catalog, table);
  }

  /**
   * A caller under a read restriction on the table cannot change it: a write could read around the
   * restriction (rewrite its files, drop the filtered rows' snapshots), a 403, audited.
   */
  private void requireUnrestricted(
      Caller caller, String action, String catalog, TableIdentifier table) {
    if (restrictions.of(caller, catalog, table).isPresent()) {
      String why = "under a read restriction on the table";
      authz.record(caller, action, catalog, tableRef(table).toString(), false, why);
      throw new ForbiddenException(
          "Principal '%s' cannot change table %s: it is %s", caller.principal(), table, why);
    }
  }

  /** {@code DELETE …/tables/{table}}, with {@code purgeRequested}. */
  public void drop(TableCall call, boolean purge) {
    String catalog = call.catalog().name();
    authz.require(
        call.caller(), "dropTable", catalog, tableRef(call.table()), Privilege.TABLE_DROP);
    if (purge) {
      authz.require(
          call.caller(), "purgeTable", catalog, tableRef(call.table()), Privilege.TABLE_WRITE_DATA);
      requireUnrestricted(call.caller(), "purgeTable", catalog, call.table());
      CatalogHandlers.purgeTable(call.catalog(), call.table());
    } else {
      CatalogHandlers.dropTable(call.catalog(), call.table());
    }
    authz.invalidate(); // the grants on it are gone
  }

  /** {@code POST …/tables/rename}. */
  public void rename(Caller caller, SluiceCatalog catalog, RenameTableRequest request) {
    request.validate();
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
  }

  /** {@code POST …/transactions/commit}: every change authorized before any is applied. */
  public void commitTransaction(
      Caller caller, SluiceCatalog catalog, CommitTransactionRequest request) {
    request.validate();
    for (UpdateTableRequest change : request.tableChanges()) {
      if (change.identifier() == null) {
        throw new BadRequestException("Invalid table change: missing identifier");
      }
      authorizeCommit(caller, catalog.name(), change.identifier(), change);
    }
    new MultiTableCommit(catalog).commit(request);
  }

  /**
   * The answer to a replay: authorized as the request itself was, for the caller who replays now;
   * then the first attempt's table ({@code original}, empty when it is gone), vended afresh under
   * the caller's grants now, and only while the name still holds that very table (or, for a staged
   * create, while its locations are still free). A commit's answer is given without credentials
   * when they cannot be vended (its client builds no FileIO from it, unlike a create's).
   */
  public Optional<LoadTableResponse> replay(
      Replay replay, Function<SluiceCatalog, Optional<LoadTableResponse>> original) {
    TableCall call = replay.call();
    String catalog = call.catalog().name();
    Namespace ns = call.table().namespace();
    switch (replay.answered()) {
      case CREATE, STAGED_CREATE ->
          authz.require(
              call.caller(), "createTable", catalog, namespace(ns), Privilege.TABLE_CREATE);
      case REGISTER ->
          authz.require(
              call.caller(), "registerTable", catalog, namespace(ns), Privilege.TABLE_CREATE);
      case COMMIT -> authorizeCommit(call.caller(), catalog, call.table(), replay.commit());
    }
    Optional<LoadTableResponse> first = original.apply(call.catalog());
    if (first.isEmpty()) {
      return first;
    }
    boolean staged = replay.answered() == Answered.STAGED_CREATE;
    Delegation delegation =
        call.catalog().stillHolds(call.table(), first.get().tableMetadata(), staged)
            ? credentials.decide(call, replay.accessDelegation())
            : Delegation.NONE;
    if (replay.answered() == Answered.COMMIT) {
      return Optional.of(credentials.attachAfterCommit(call, delegation, first.get()));
    }
    return Optional.of(
        staged
            ? credentials.attachStaged(call, delegation, first.get())
            : credentials.attach(call, delegation, first.get()));
  }
}
