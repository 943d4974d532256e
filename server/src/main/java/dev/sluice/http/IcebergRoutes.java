package dev.sluice.http;

import static dev.sluice.http.IcebergRequests.table;
import static dev.sluice.http.IcebergRequests.view;
import static dev.sluice.tables.Securables.namespace;
import static dev.sluice.tables.Securables.tableRef;
import static dev.sluice.tables.Securables.viewRef;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.auth.Sealer;
import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.ObjectVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import dev.sluice.tables.CatalogAccess;
import dev.sluice.tables.TableLoads;
import dev.sluice.tables.TableMutations;
import dev.sluice.tables.TableSigning;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST catalog API under {@code /api/catalog}: the route table ({@link #DECLARED}), and
 * the namespace and view routes. Routes parse and validate input, resolve the catalog from the
 * prefix ({@link IcebergRequests}), and hand the work to iceberg-core's {@link CatalogHandlers}
 * over a {@link SluiceCatalog}. The table routes are {@link TableRoutes} (over the table services
 * in {@code dev.sluice.tables}), lists in {@link IcebergListings}, and {@code Idempotency-Key} onto
 * the mutations in {@link IdempotentEndpoints}.
 */
public final class IcebergRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRoutes.class);

  /** Where this server mounts Iceberg's REST paths ({@code /v1/...}). */
  static final String MOUNT = "/api/catalog";

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
          advertised(Endpoint.V1_LIST_NAMESPACES, (routes, x) -> routes.listings.namespaces(x)),
          advertised(Endpoint.V1_LOAD_NAMESPACE, IcebergRoutes::loadNamespace),
          advertised(Endpoint.V1_NAMESPACE_EXISTS, IcebergRoutes::namespaceExists),
          advertised(Endpoint.V1_CREATE_NAMESPACE, IcebergRoutes::createNamespace),
          advertised(Endpoint.V1_UPDATE_NAMESPACE, IcebergRoutes::updateNamespaceProperties),
          advertised(Endpoint.V1_DELETE_NAMESPACE, IcebergRoutes::dropNamespace),
          advertised(Endpoint.V1_LIST_TABLES, (routes, x) -> routes.listings.tables(x)),
          advertised(Endpoint.V1_LOAD_TABLE, (routes, x) -> routes.tables.load(x)),
          advertised(Endpoint.V1_TABLE_EXISTS, IcebergRoutes::tableExists),
          advertised(Endpoint.V1_CREATE_TABLE, (routes, x) -> routes.tables.create(x)),
          advertised(Endpoint.V1_UPDATE_TABLE, (routes, x) -> routes.tables.commit(x)),
          advertised(Endpoint.V1_DELETE_TABLE, (routes, x) -> routes.tables.drop(x)),
          advertised(Endpoint.V1_RENAME_TABLE, (routes, x) -> routes.tables.rename(x)),
          advertised(Endpoint.V1_REGISTER_TABLE, (routes, x) -> routes.tables.register(x)),
          advertised(Endpoint.V1_REPORT_METRICS, IcebergRoutes::reportMetrics),
          advertised(
              Endpoint.V1_TABLE_CREDENTIALS, (routes, x) -> routes.tables.loadCredentials(x)),
          advertised(
              Endpoint.V1_COMMIT_TRANSACTION, (routes, x) -> routes.tables.commitTransaction(x)),
          advertised(Endpoint.V1_LIST_VIEWS, (routes, x) -> routes.listings.views(x)),
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
  private final IcebergRequests requests;
  private final IcebergListings listings;
  private final TableRoutes tables;
  private final IdempotentEndpoints idempotent;
  private final ReadableLocationsRoute readableLocations;
  private final SignRoute sign;

  /**
   * The Iceberg routes' tuning, set in the wiring.
   *
   * @param metadataJsonCacheBytes the serialized table metadata kept for loads, in all
   * @param metadataJsonIdle how long an unread entry of it stays
   * @param idempotencyKeyLifetime how long an {@code Idempotency-Key} is remembered (advertised)
   * @param idempotencyReplayWait how long a retry waits for the first attempt's answer
   * @param clock the time keys are judged by
   */
  public record Tuning(
      long metadataJsonCacheBytes,
      Duration metadataJsonIdle,
      Duration idempotencyKeyLifetime,
      Duration idempotencyReplayWait,
      Clock clock) {
    public Tuning {
      if (metadataJsonCacheBytes <= 0) {
        throw new IllegalArgumentException(
            "metadataJsonCacheBytes must be positive: " + metadataJsonCacheBytes);
      }
      requireNonNull(metadataJsonIdle, "metadataJsonIdle");
      requireNonNull(idempotencyKeyLifetime, "idempotencyKeyLifetime");
      requireNonNull(idempotencyReplayWait, "idempotencyReplayWait");
      requireNonNull(clock, "clock");
    }
  }

  /**
   * What the routes call once they have read a request: the checks every route makes, and the table
   * services below HTTP (built in the wiring).
   */
  public record Services(
      CatalogVisibility visibility,
      ObjectVisibility objects,
      CatalogAccess access,
      TableLoads loads,
      TableMutations mutations,
      TableSigning signing) {
    public Services {
      requireNonNull(visibility, "visibility");
      requireNonNull(objects, "objects");
      requireNonNull(access, "access");
      requireNonNull(loads, "loads");
      requireNonNull(mutations, "mutations");
      requireNonNull(signing, "signing");
    }
  }

  public IcebergRoutes(
      CatalogRegistry catalogs,
      Authorizer authz,
      Services services,
      TokenService tokens,
      Tuning tuning) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    requireNonNull(services, "services");
    requireNonNull(tuning, "tuning");
    LoadTableBody loadTableBody =
        new LoadTableBody(
            tuning.metadataJsonCacheBytes(),
            tuning.metadataJsonIdle(),
            catalogs::writtenMetadataJson);
    this.visibility = services.visibility();
    this.objects = services.objects();
    this.requests = new IcebergRequests(authz, services.access());
    Paging paging = new Paging(new Sealer(tokens));
    this.listings = new IcebergListings(requests, authz, paging);
    this.tables = new TableRoutes(requests, services.loads(), services.mutations(), loadTableBody);
    this.readableLocations = new ReadableLocationsRoute(catalogs, authz, visibility, paging);
    this.sign = new SignRoute(requests, services.signing());
    this.idempotent =
        new IdempotentEndpoints(
            new IdempotentMutations(
                catalogs.store().idempotencyKeys(),
                tuning.idempotencyKeyLifetime(),
                tuning.idempotencyReplayWait(),
                tuning.clock()),
            new TableReplays(requests, services.mutations(), loadTableBody));
  }

  public void register(HttpServer.Routes routes) {
    mount(
        routes,
        declared ->
            idempotent.wrap(declared.advertisedAs(), x -> declared.handler().handle(this, x)));
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
    Caller caller = requests.caller(x);
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

  private Reply createNamespace(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    requireStringArray(x.jsonBody().get("namespace"), "namespace");
    CreateNamespaceRequest request = x.icebergBody(CreateNamespaceRequest.class);
    request.validate();
    IdentifierRules.checkNamespace(request.namespace());
    Namespace ns = request.namespace();
    SecurableRef parent = ns.length() == 1 ? SecurableRef.CATALOG : namespace(parentOf(ns));
    authz.require(
        requests.caller(x), "createNamespace", catalog.name(), parent, Privilege.NAMESPACE_CREATE);
    return Reply.ok(CatalogHandlers.createNamespace(catalog, request));
  }

  private Reply loadNamespace(Exchange x) {
    SluiceCatalog catalog =
        requests.onNamespace(x, "loadNamespace", Privilege.NAMESPACE_READ_PROPERTIES);
    return Reply.ok(CatalogHandlers.loadNamespace(catalog, x.namespace("namespace")));
  }

  private Reply namespaceExists(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace ns = x.namespace("namespace");
    objects.requireExistenceCheck(
        requests.caller(x), "namespaceExists", catalog.name(), namespace(ns));
    CatalogHandlers.namespaceExists(catalog, ns);
    return Reply.NO_CONTENT;
  }

  private Reply dropNamespace(Exchange x) {
    SluiceCatalog catalog = requests.onNamespace(x, "dropNamespace", Privilege.NAMESPACE_DROP);
    CatalogHandlers.dropNamespace(catalog, x.namespace("namespace"));
    authz.invalidate(); // the grants on it are gone
    return Reply.NO_CONTENT;
  }

  private Reply updateNamespaceProperties(Exchange x) {
    SluiceCatalog catalog =
        requests.onNamespace(x, "updateNamespaceProperties", Privilege.NAMESPACE_WRITE_PROPERTIES);
    UpdateNamespacePropertiesRequest request =
        x.icebergBody(UpdateNamespacePropertiesRequest.class);
    request.validate();
    return Reply.ok(
        CatalogHandlers.updateNamespaceProperties(catalog, x.namespace("namespace"), request));
  }

  // ------------------------------------------------------------------ tables

  private Reply tableExists(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    TableIdentifier table = table(x);
    requests.readable(
        requests.caller(x),
        "tableExists",
        catalog,
        tableRef(table),
        table,
        Privilege.TABLE_READ_PROPERTIES);
    CatalogHandlers.tableExists(catalog, table);
    return Reply.NO_CONTENT;
  }

  private Reply reportMetrics(Exchange x) {
    SluiceCatalog catalog = requests.onTable(x, "reportMetrics", Privilege.TABLE_READ_DATA);
    TableIdentifier table = table(x);
    ReportMetricsRequest request = x.icebergBody(ReportMetricsRequest.class);
    if (!catalog.tableExists(table)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    LOG.debug("metrics report for {}: {}", table, request.reportType());
    return Reply.NO_CONTENT;
  }

  // ------------------------------------------------------------------ views

  private Reply createView(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateViewRequest request = x.icebergBody(CreateViewRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    requireSqlRepresentations(request.viewVersion());
    authz.require(
        requests.caller(x),
        "createView",
        catalog.name(),
        namespace(namespace),
        Privilege.VIEW_CREATE);
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
    SluiceCatalog catalog = requests.catalog(x);
    TableIdentifier view = view(x);
    requests.readable(
        requests.caller(x),
        "loadView",
        catalog,
        viewRef(view),
        view,
        Privilege.VIEW_READ_PROPERTIES);
    return Reply.ok(CatalogHandlers.loadView(catalog, view));
  }

  private Reply viewExists(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    TableIdentifier view = view(x);
    requests.readable(
        requests.caller(x),
        "viewExists",
        catalog,
        viewRef(view),
        view,
        Privilege.VIEW_READ_PROPERTIES);
    CatalogHandlers.viewExists(catalog, view);
    return Reply.NO_CONTENT;
  }

  private Reply replaceView(Exchange x) {
    SluiceCatalog catalog = requests.onView(x, "replaceView", Privilege.VIEW_WRITE_PROPERTIES);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    request.updates().stream()
        .filter(MetadataUpdate.AddViewVersion.class::isInstance)
        .forEach(
            update ->
                requireSqlRepresentations(((MetadataUpdate.AddViewVersion) update).viewVersion()));
    return Reply.ok(CatalogHandlers.updateView(catalog, view(x), request));
  }

  private Reply dropView(Exchange x) {
    SluiceCatalog catalog = requests.onView(x, "dropView", Privilege.VIEW_DROP);
    CatalogHandlers.dropView(catalog, view(x));
    authz.invalidate(); // the grants on it are gone
    return Reply.NO_CONTENT;
  }

  private Reply renameView(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    Caller caller = requests.caller(x);
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

  private static Namespace parentOf(Namespace ns) {
    return Namespace.of(Arrays.copyOf(ns.levels(), ns.length() - 1));
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
}
