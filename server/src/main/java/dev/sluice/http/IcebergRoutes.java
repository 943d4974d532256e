package dev.sluice.http;

import static dev.sluice.http.Securables.namespace;
import static dev.sluice.http.Securables.tableRef;
import static dev.sluice.http.Securables.viewRef;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.CommitPrivileges;
import dev.sluice.authz.ObjectVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.MultiTableCommit;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.SecurableRef;
import dev.sluice.vending.Delegation;
import dev.sluice.vending.VendingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST catalog API under {@code /api/catalog}. Routes parse and validate input, resolve
 * the catalog from the prefix, and hand the work to iceberg-core's {@link CatalogHandlers} over a
 * {@link SluiceCatalog}.
 */
public final class IcebergRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRoutes.class);

  /** Where this server mounts Iceberg's REST paths ({@code /v1/...}). */
  static final String MOUNT = "/api/catalog";

  private static final String ETAG = "ETag";
  private static final String IF_NONE_MATCH = "If-None-Match";

  // In the spec but not offered: a clear 406, not a 404. These keep the spec's paths under the
  // namespace; Iceberg 1.10's Endpoint constants for scan planning lack that segment.
  private static final String PLANS = "/v1/{prefix}/namespaces/{namespace}/tables/{table}";

  /**
   * Every Iceberg route, declared once. An advertised route takes its method and path from its
   * {@link Endpoint}; only {@code /v1/config} itself, scan planning and Sluice's own extensions
   * (not in the Iceberg spec) are not advertised.
   */
  static final List<Declared> DECLARED =
      List.of(
          notAdvertised("GET", "/v1/config", IcebergRoutes::config),
          advertised(Endpoint.V1_LIST_NAMESPACES, IcebergRoutes::listNamespaces),
          advertised(Endpoint.V1_LOAD_NAMESPACE, IcebergRoutes::loadNamespace),
          advertised(Endpoint.V1_NAMESPACE_EXISTS, IcebergRoutes::namespaceExists),
          advertised(Endpoint.V1_CREATE_NAMESPACE, IcebergRoutes::createNamespace),
          advertised(Endpoint.V1_UPDATE_NAMESPACE, IcebergRoutes::updateNamespaceProperties),
          advertised(Endpoint.V1_DELETE_NAMESPACE, IcebergRoutes::dropNamespace),
          advertised(Endpoint.V1_LIST_TABLES, IcebergRoutes::listTables),
          advertised(Endpoint.V1_LOAD_TABLE, IcebergRoutes::loadTable),
          advertised(Endpoint.V1_TABLE_EXISTS, IcebergRoutes::tableExists),
          advertised(Endpoint.V1_CREATE_TABLE, IcebergRoutes::createTable),
          advertised(Endpoint.V1_UPDATE_TABLE, IcebergRoutes::updateTable),
          advertised(Endpoint.V1_DELETE_TABLE, IcebergRoutes::dropTable),
          advertised(Endpoint.V1_RENAME_TABLE, IcebergRoutes::renameTable),
          advertised(Endpoint.V1_REGISTER_TABLE, IcebergRoutes::registerTable),
          advertised(Endpoint.V1_REPORT_METRICS, IcebergRoutes::reportMetrics),
          advertised(Endpoint.V1_TABLE_CREDENTIALS, IcebergRoutes::loadCredentials),
          advertised(Endpoint.V1_COMMIT_TRANSACTION, IcebergRoutes::commitTransaction),
          advertised(Endpoint.V1_LIST_VIEWS, IcebergRoutes::listViews),
          advertised(Endpoint.V1_LOAD_VIEW, IcebergRoutes::loadView),
          advertised(Endpoint.V1_VIEW_EXISTS, IcebergRoutes::viewExists),
          advertised(Endpoint.V1_CREATE_VIEW, IcebergRoutes::createView),
          advertised(Endpoint.V1_UPDATE_VIEW, IcebergRoutes::replaceView),
          advertised(Endpoint.V1_DELETE_VIEW, IcebergRoutes::dropView),
          advertised(Endpoint.V1_RENAME_VIEW, IcebergRoutes::renameView),
          scanPlanning("POST", "/plan"),
          scanPlanning("GET", "/plan/{plan}"),
          scanPlanning("DELETE", "/plan/{plan}"),
          scanPlanning("POST", "/tasks"),
          notAdvertised(
              "GET",
              ReadableLocationsRoute.PATH,
              (routes, x) -> routes.readableLocations.handle(x)),
          // The spec's signRequest; Iceberg 1.10 has no Endpoint constant for it. Clients find it
          // in a table's config, not in /v1/config.
          notAdvertised("POST", SignRoute.PATH, (routes, x) -> routes.sign.handle(x)),
          notAdvertised("POST", SignRoute.STAGED_PATH, (routes, x) -> routes.sign.handleStaged(x)));

  /** What {@code /v1/config} advertises: the advertised declarations, in declaration order. */
  static final List<Endpoint> ENDPOINTS =
      DECLARED.stream().map(Declared::advertisedAs).filter(Objects::nonNull).toList();

  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final ObjectVisibility objects;
  private final TableCredentials credentials;
  private final TableCreates creates;
  private final ReadableLocationsRoute readableLocations;
  private final SignRoute sign;
  private final LoadTableBody loadTableBody;
  private final ConditionalLoad conditional = new ConditionalLoad(Clock.systemUTC());
  private final IdempotentMutations idempotent;
  private final Map<Endpoint, IdempotentMutations.Answers> mutations;

  public IcebergRoutes(
      CatalogRegistry catalogs,
      Authorizer authz,
      VendingService vending,
      TokenService tokens,
      MeterRegistry metrics,
      Duration idempotencyKeyLifetime) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.loadTableBody =
        new LoadTableBody(64L << 20, Duration.ofMinutes(10), catalogs::writtenMetadataJson);
    this.authz = requireNonNull(authz, "authz");
    this.visibility = new CatalogVisibility(authz);
    this.objects = new ObjectVisibility(authz);
    this.credentials = new TableCredentials(authz, vending, tokens, Clock.systemUTC(), metrics);
    this.creates = new TableCreates(credentials);
    this.readableLocations = new ReadableLocationsRoute(catalogs, authz, visibility);
    this.sign = new SignRoute(catalogs, authz, visibility, vending, tokens);
    this.idempotent =
        new IdempotentMutations(
            catalogs.store().idempotencyKeys(),
            idempotencyKeyLifetime,
            Duration.ofSeconds(10),
            Clock.systemUTC());
    TableReplays replays =
        new TableReplays(catalogs, authz, visibility, credentials, loadTableBody);
    IdempotentMutations.Answers verbatim = IdempotentMutations.VERBATIM;
    // The spec's mutations (createView too: the spec omits it, Iceberg 1.11's client sends it).
    this.mutations =
        Map.ofEntries(
            Map.entry(Endpoint.V1_CREATE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_UPDATE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_DELETE_NAMESPACE, verbatim),
            Map.entry(Endpoint.V1_CREATE_TABLE, replays.create()),
            Map.entry(Endpoint.V1_REGISTER_TABLE, replays.register()),
            Map.entry(Endpoint.V1_UPDATE_TABLE, replays.commit()),
            Map.entry(Endpoint.V1_DELETE_TABLE, verbatim),
            Map.entry(Endpoint.V1_RENAME_TABLE, verbatim),
            Map.entry(Endpoint.V1_COMMIT_TRANSACTION, verbatim),
            Map.entry(Endpoint.V1_CREATE_VIEW, verbatim),
            Map.entry(Endpoint.V1_UPDATE_VIEW, verbatim),
            Map.entry(Endpoint.V1_DELETE_VIEW, verbatim),
            Map.entry(Endpoint.V1_RENAME_VIEW, verbatim));
  }

  public void register(HttpServer.Routes routes) {
    mount(
        routes,
        declared -> {
          RouteHandler handler = x -> declared.handler().handle(this, x);
          IdempotentMutations.Answers answers =
              declared.advertisedAs() == null ? null : mutations.get(declared.advertisedAs());
          return answers == null
              ? handler
              : idempotent.wrap(declared.advertisedAs().toString(), handler, answers);
        });
  }

  /** Adds every declared route under {@link #MOUNT}, handled by what {@code bind} makes of it. */
  static void mount(HttpServer.Routes routes, Function<Declared, RouteHandler> bind) {
    for (Declared declared : DECLARED) {
      routes.add(declared.method(), MOUNT + declared.path(), bind.apply(declared));
    }
  }

  /**
   * One Iceberg route: its method, its path as Iceberg writes it (placeholders such as {@code
   * {namespace}} are the parameters its handler reads), its handler, and the endpoint {@code
   * /v1/config} advertises for it, or null if it is deliberately not advertised.
   */
  record Declared(String method, String path, Endpoint advertisedAs, Handler handler) {
    Declared {
      requireNonNull(method, "method");
      requireNonNull(path, "path");
      requireNonNull(handler, "handler");
    }
  }

  /** A route's handler before it is bound to the instance that serves it. */
  @FunctionalInterface
  interface Handler {
    Reply handle(IcebergRoutes routes, Exchange exchange) throws Exception;
  }

  private static Declared advertised(Endpoint endpoint, Handler handler) {
    return new Declared(endpoint.httpMethod(), endpoint.path(), endpoint, handler);
  }

  private static Declared notAdvertised(String method, String path, Handler handler) {
    return new Declared(method, path, null, handler);
  }

  private static Declared scanPlanning(String method, String pathUnderTable) {
    return notAdvertised(method, PLANS + pathUnderTable, (routes, x) -> scanPlanningUnsupported(x));
  }

  private static Reply scanPlanningUnsupported(Exchange x) {
    throw new UnsupportedOperationException(
        "Server-side scan planning is not supported by this catalog");
  }

  // ------------------------------------------------------------------ config

  private Reply config(Exchange x) {
    String warehouse = x.query("warehouse");
    if (warehouse == null || warehouse.isEmpty()) {
      throw new BadRequestException("Missing query parameter: warehouse (the catalog name)");
    }
    Caller caller = caller(x);
    visibility.require(
        caller, "getConfig", warehouse); // before the lookup: no 404 for those who may not know
    SluiceCatalog catalog = catalogs.resolve(warehouse);
    boolean allowed = authz.seesAnythingAt(caller, catalog.name(), SecurableRef.CATALOG);
    authz.record(caller, "getConfig", catalog.name(), "catalog", allowed);
    if (!allowed) {
      throw new ForbiddenException(
          "Principal '%s' has no privilege in catalog %s", caller.principal(), catalog.name());
    }
    ConfigResponse response =
        ConfigResponse.builder()
            .withOverride("prefix", RESTUtil.encodeString(catalog.name()))
            .withEndpoints(ENDPOINTS)
            .build();
    // Iceberg 1.10's ConfigResponse has no field for it; 1.11 clients send Idempotency-Key when
    // it is there.
    ObjectNode json = (ObjectNode) Json.iceberg().valueToTree(response);
    json.put("idempotency-key-lifetime", idempotent.lifetime().toString());
    return Reply.ok(json);
  }

  // ------------------------------------------------------------------ namespaces

  private Reply listNamespaces(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Caller caller = caller(x);
    String parentParam = x.query("parent");
    Namespace parent =
        parentParam == null || parentParam.isEmpty()
            ? Namespace.empty()
            : Namespace.of(parentParam.split("\u001f", -1));
    SecurableRef where = parent.isEmpty() ? SecurableRef.CATALOG : namespace(parent);
    boolean listAll =
        authz.effective(caller, catalog.name(), where).contains(Privilege.NAMESPACE_LIST);
    if (!listAll && !authz.seesAnythingAt(caller, catalog.name(), where)) {
      authz.require(caller, "listNamespaces", catalog.name(), where, Privilege.NAMESPACE_LIST);
    }
    authz.record(caller, "listNamespaces", catalog.name(), where.toString(), true);
    Page<Namespace> page = catalog.listNamespaces(parent, pageRequest(x));
    List<Namespace> visible =
        listAll
            ? page.items()
            : page.items().stream()
                .filter(n -> authz.seesAnythingAt(caller, catalog.name(), namespace(n)))
                .toList();
    return Reply.ok(
        withToken(ListNamespacesResponse.builder().addAll(visible), page.nextToken()).build());
  }

  private Reply createNamespace(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    requireStringArray(x.jsonBody().get("namespace"), "namespace");
    CreateNamespaceRequest request = x.icebergBody(CreateNamespaceRequest.class);
    request.validate();
    IdentifierRules.checkNamespace(request.namespace());
    Namespace ns = request.namespace();
    SecurableRef parent = ns.length() == 1 ? SecurableRef.CATALOG : namespace(parentOf(ns));
    authz.require(caller(x), "createNamespace", catalog.name(), parent, Privilege.NAMESPACE_CREATE);
    return Reply.ok(CatalogHandlers.createNamespace(catalog, request));
  }

  private Reply loadNamespace(Exchange x) {
    SluiceCatalog catalog = onNamespace(x, "loadNamespace", Privilege.NAMESPACE_READ_PROPERTIES);
    return Reply.ok(CatalogHandlers.loadNamespace(catalog, x.namespace("namespace")));
  }

  private Reply namespaceExists(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace ns = x.namespace("namespace");
    objects.requireExistenceCheck(caller(x), "namespaceExists", catalog.name(), namespace(ns));
    CatalogHandlers.namespaceExists(catalog, ns);
    return Reply.NO_CONTENT;
  }

  private Reply dropNamespace(Exchange x) {
    SluiceCatalog catalog = onNamespace(x, "dropNamespace", Privilege.NAMESPACE_DROP);
    CatalogHandlers.dropNamespace(catalog, x.namespace("namespace"));
    authz.invalidate(); // the grants on it are gone
    return Reply.NO_CONTENT;
  }

  private Reply updateNamespaceProperties(Exchange x) {
    SluiceCatalog catalog =
        onNamespace(x, "updateNamespaceProperties", Privilege.NAMESPACE_WRITE_PROPERTIES);
    UpdateNamespacePropertiesRequest request =
        x.icebergBody(UpdateNamespacePropertiesRequest.class);
    request.validate();
    return Reply.ok(
        CatalogHandlers.updateNamespaceProperties(catalog, x.namespace("namespace"), request));
  }

  // ------------------------------------------------------------------ tables

  private Reply listTables(Exchange x) {
    return Reply.ok(listContents(x, Privilege.TABLE_LIST, "listTables", false));
  }

  private Reply createTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateTableRequest request =
        x.icebergBody(CreateTableRequest.class, IcebergRoutes::defaultSpecId);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    Caller caller = caller(x);
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

  private Reply registerTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    RegisterTableRequest request = x.icebergBody(RegisterTableRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    Caller caller = caller(x);
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

  private Reply loadTable(Exchange x) {
    // The hot path: the caller and the identifier are worked out once.
    SnapshotsMode mode = SnapshotsMode.fromQuery(x.query("snapshots"));
    SluiceCatalog catalog = catalog(x);
    Caller caller = caller(x);
    TableIdentifier table = table(x);
    readable(caller, "loadTable", catalog, tableRef(table), table, Privilege.TABLE_READ_PROPERTIES);
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
    return new Reply(200, loadTableBody.toJson(loaded.response(), mode), true, Map.of(ETAG, etag));
  }

  /**
   * {@code GET …/credentials}: what a load by this caller would vend now (a revoked write grant
   * gives read-only).
   */
  private Reply loadCredentials(Exchange x) {
    if (x.query("planId") != null) {
      throw new BadRequestException("planId is not supported: this catalog does not plan scans");
    }
    SluiceCatalog catalog = onTable(x, "loadCredentials", Privilege.TABLE_READ_PROPERTIES);
    Caller caller = caller(x);
    TableMetadata metadata = CatalogHandlers.loadTable(catalog, table(x)).tableMetadata();
    Delegation delegation = credentials.decideRefresh(caller, catalog, table(x));
    List<Credential> vended =
        credentials.credentials(delegation, caller, catalog, table(x), metadata).stream()
            .map(TableCredentials::credential)
            .toList();
    return Reply.ok(ImmutableLoadCredentialsResponse.builder().credentials(vended).build());
  }

  private Reply tableExists(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    TableIdentifier table = table(x);
    readable(
        caller(x), "tableExists", catalog, tableRef(table), table, Privilege.TABLE_READ_PROPERTIES);
    CatalogHandlers.tableExists(catalog, table);
    return Reply.NO_CONTENT;
  }

  private Reply updateTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    Caller caller = caller(x);
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
    return tableReply(credentials.attach(delegation, caller, catalog, table(x), committed, false));
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

  private Reply dropTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Caller caller = caller(x);
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

  private Reply reportMetrics(Exchange x) {
    SluiceCatalog catalog = onTable(x, "reportMetrics", Privilege.TABLE_READ_DATA);
    TableIdentifier table = table(x);
    ReportMetricsRequest request = x.icebergBody(ReportMetricsRequest.class);
    if (!catalog.tableExists(table)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    LOG.debug("metrics report for {}: {}", table, request.reportType());
    return Reply.NO_CONTENT;
  }

  private Reply renameTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    Caller caller = caller(x);
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

  private Reply commitTransaction(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    CommitTransactionRequest request = x.icebergBody(CommitTransactionRequest.class);
    request.validate();
    Caller caller = caller(x);
    for (UpdateTableRequest change : request.tableChanges()) {
      if (change.identifier() == null) {
        throw new BadRequestException("Invalid table change: missing identifier");
      }
      authorizeCommit(caller, catalog.name(), change.identifier(), change);
    }
    new MultiTableCommit(catalogs.store(), catalog).commit(request);
    return Reply.NO_CONTENT;
  }

  // ------------------------------------------------------------------ views

  private Reply listViews(Exchange x) {
    return Reply.ok(listContents(x, Privilege.VIEW_LIST, "listViews", true));
  }

  private Reply createView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateViewRequest request = x.icebergBody(CreateViewRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    requireSqlRepresentations(request.viewVersion());
    authz.require(
        caller(x), "createView", catalog.name(), namespace(namespace), Privilege.VIEW_CREATE);
    return Reply.ok(CatalogHandlers.createView(catalog, namespace, request));
  }

  /**
   * Iceberg's view handlers take only SQL representations; anything else is the client's mistake,
   * not a 500.
   */
  private static void requireSqlRepresentations(ViewVersion version) {
    for (ViewRepresentation representation : version.representations()) {
      if (!(representation instanceof SQLViewRepresentation)) {
        throw new BadRequestException(
            "Invalid view version: unsupported representation type '%s' (supported: sql)",
            representation.type());
      }
    }
  }

  private Reply loadView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    TableIdentifier view = view(x);
    readable(caller(x), "loadView", catalog, viewRef(view), view, Privilege.VIEW_READ_PROPERTIES);
    return Reply.ok(CatalogHandlers.loadView(catalog, view));
  }

  private Reply viewExists(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    TableIdentifier view = view(x);
    readable(caller(x), "viewExists", catalog, viewRef(view), view, Privilege.VIEW_READ_PROPERTIES);
    CatalogHandlers.viewExists(catalog, view);
    return Reply.NO_CONTENT;
  }

  private Reply replaceView(Exchange x) {
    SluiceCatalog catalog = onView(x, "replaceView", Privilege.VIEW_WRITE_PROPERTIES);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    request.updates().stream()
        .filter(MetadataUpdate.AddViewVersion.class::isInstance)
        .forEach(
            update ->
                requireSqlRepresentations(((MetadataUpdate.AddViewVersion) update).viewVersion()));
    return Reply.ok(CatalogHandlers.updateView(catalog, view(x), request));
  }

  private Reply dropView(Exchange x) {
    SluiceCatalog catalog = onView(x, "dropView", Privilege.VIEW_DROP);
    CatalogHandlers.dropView(catalog, view(x));
    authz.invalidate(); // the grants on it are gone
    return Reply.NO_CONTENT;
  }

  private Reply renameView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    Caller caller = caller(x);
    authz.require(
        caller, "renameView", catalog.name(), viewRef(request.source()), Privilege.VIEW_DROP);
    authz.require(
        caller,
        "renameView",
        catalog.name(),
        namespace(request.destination().namespace()),
        Privilege.VIEW_CREATE);
    CatalogHandlers.renameView(catalog, request);
    authz.invalidate(); // its grants moved with it
    return Reply.NO_CONTENT;
  }

  // ------------------------------------------------------------------ helpers

  /**
   * Lists tables or views. With the LIST privilege on the namespace the caller sees every name;
   * without it, only those it holds some privilege on; with neither, 403.
   */
  private ListTablesResponse listContents(
      Exchange x, Privilege list, String action, boolean views) {
    SluiceCatalog catalog = catalog(x);
    Caller caller = caller(x);
    Namespace namespace = x.namespace("namespace");
    SecurableRef where = namespace(namespace);
    boolean listAll = authz.effective(caller, catalog.name(), where).contains(list);
    if (!listAll && !authz.seesAnythingAt(caller, catalog.name(), where)) {
      authz.require(caller, action, catalog.name(), where, list);
    }
    authz.record(caller, action, catalog.name(), where.toString(), true);
    Page<TableIdentifier> page =
        views
            ? catalog.listViews(namespace, pageRequest(x))
            : catalog.listTables(namespace, pageRequest(x));
    List<TableIdentifier> visible =
        listAll
            ? page.items()
            : page.items().stream()
                .filter(
                    id ->
                        !authz
                            .effective(caller, catalog.name(), views ? viewRef(id) : tableRef(id))
                            .isEmpty())
                .toList();
    ListTablesResponse.Builder builder = ListTablesResponse.builder().addAll(visible);
    return (page.nextToken() == null ? builder : builder.nextPageToken(page.nextToken())).build();
  }

  private Reply tableReply(LoadTableResponse response) {
    return Reply.ok(loadTableBody.toJson(response));
  }

  /**
   * Loads and probes of a table or view: 403 without the privilege, except 404 for a missing object
   * to a caller who may know it is missing ({@link ObjectVisibility}).
   */
  private void readable(
      Caller caller,
      String action,
      SluiceCatalog catalog,
      SecurableRef object,
      TableIdentifier id,
      Privilege privilege) {
    objects.requireRead(
        caller, action, catalog.name(), object, privilege, () -> catalog.kindAt(id));
  }

  private SluiceCatalog onNamespace(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(
        caller(x), action, catalog.name(), namespace(x.namespace("namespace")), privilege);
    return catalog;
  }

  private SluiceCatalog onTable(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(caller(x), action, catalog.name(), tableRef(table(x)), privilege);
    return catalog;
  }

  private SluiceCatalog onView(Exchange x, String action, Privilege privilege) {
    SluiceCatalog catalog = catalog(x);
    authz.require(caller(x), action, catalog.name(), viewRef(view(x)), privilege);
    return catalog;
  }

  private Caller caller(Exchange x) {
    return x.caller(authz);
  }

  /**
   * The prefix's catalog. A caller who may not learn whether it exists is refused here, with the
   * same 403 for a catalog that exists and one that does not; others get the precise 404.
   */
  private SluiceCatalog catalog(Exchange x) {
    String name = x.path("prefix");
    visibility.require(caller(x), "accessCatalog", name);
    return catalogs.resolve(name);
  }

  private static TableIdentifier table(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("table"));
  }

  private static TableIdentifier view(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("view"));
  }

  private static Namespace parentOf(Namespace ns) {
    return Namespace.of(Arrays.copyOf(ns.levels(), ns.length() - 1));
  }

  private static ListNamespacesResponse.Builder withToken(
      ListNamespacesResponse.Builder builder, String token) {
    return token == null ? builder : builder.nextPageToken(token);
  }

  /** The REST spec makes a partition spec's {@code spec-id} optional; Iceberg's parser needs it. */
  private static void defaultSpecId(ObjectNode request) {
    if (request.get("partition-spec") instanceof ObjectNode spec && !spec.has("spec-id")) {
      spec.put("spec-id", 0);
    }
  }

  /**
   * Iceberg's namespace parser turns numbers into strings; a namespace level must be a JSON string.
   */
  private static void requireStringArray(JsonNode node, String field) {
    if (node != null && node.isArray()) {
      node.forEach(
          level -> {
            if (!level.isTextual()) {
              throw new BadRequestException("Invalid %s: every level must be a string", field);
            }
          });
    }
  }

  private static PageRequest pageRequest(Exchange x) {
    return Paging.request(x);
  }
}
