package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.auth.Sealer;
import dev.sluice.auth.TokenService;
import dev.sluice.authz.Authorizer;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.catalog.WriteFreeze;
import dev.sluice.operations.CatalogAccess;
import dev.sluice.operations.CatalogListings;
import dev.sluice.operations.NamespaceOperations;
import dev.sluice.operations.ReadableLocations;
import dev.sluice.operations.ScanPlans;
import dev.sluice.operations.TableLoads;
import dev.sluice.operations.TableMutations;
import dev.sluice.operations.TableSigning;
import dev.sluice.operations.ViewOperations;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * The Iceberg REST catalog API under {@code /api/catalog}: the route table ({@link #DECLARED}),
 * {@code /v1/config}, and the namespace and view routes. Routes read the request, resolve the
 * catalog from the prefix ({@link IcebergRequests}), and hand the work to the operations below HTTP
 * ({@code dev.sluice.operations}), which authorize it and carry it out through iceberg-core's
 * {@code CatalogHandlers} over a {@link SluiceCatalog}. The table routes are {@link TableRoutes},
 * lists {@link IcebergListings}, and {@code Idempotency-Key} is wrapped onto the mutations by
 * {@link IdempotentEndpoints}.
 */
public final class IcebergRoutes {
  /**
   * The field of {@code /v1/config}'s answer that names the property of Sluice's write freeze
   * ({@link WriteFreeze#KEY}); only a catalog that enforces it answers it.
   */
  public static final String WRITE_FREEZE_CONFIG = "sluice-write-freeze-property";

  /** Where this server mounts Iceberg's REST paths ({@code /v1/...}). */
  static final String MOUNT = "/api/catalog";

  /**
   * Every Iceberg route, declared once. An advertised route takes its method and path from its
   * {@link Endpoint}; only {@code /v1/config} itself and Sluice's own extensions (not in the
   * Iceberg spec) are not advertised.
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
          advertised(Endpoint.V1_REGISTER_VIEW, IcebergRoutes::registerView),
          advertised(Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN, (routes, x) -> routes.plans.plan(x)),
          advertised(Endpoint.V1_FETCH_TABLE_SCAN_PLAN, (routes, x) -> routes.plans.fetch(x)),
          advertised(Endpoint.V1_CANCEL_TABLE_SCAN_PLAN, (routes, x) -> routes.plans.cancel(x)),
          advertised(Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS, (routes, x) -> routes.plans.tasks(x)),
          notAdvertised(
              "GET",
              ReadableLocationsRoute.PATH,
              (routes, x) -> routes.readableLocations.handle(x)),
          // The spec's signRequest; clients find it in a table's config.
          advertised(Endpoint.V1_TABLE_REMOTE_SIGN, (routes, x) -> routes.sign.handle(x)),
          notAdvertised("POST", SignRoute.STAGED_PATH, (routes, x) -> routes.sign.handleStaged(x)),
          // A scan plan's signing endpoint: signs only the plan's files. Clients find it in the
          // plan's storage credentials.
          notAdvertised("POST", SignRoute.PLAN_PATH, (routes, x) -> routes.sign.handlePlan(x)),
          // A staged table's refresh endpoint; clients find it in a stage-create's config.
          notAdvertised(
              "GET",
              TableRoutes.STAGED_CREDENTIALS_PATH,
              (routes, x) -> routes.tables.loadStagedCredentials(x)));

  /** What {@code /v1/config} advertises: the advertised declarations, in declaration order. */
  static final List<Endpoint> ENDPOINTS =
      DECLARED.stream().map(Declared::advertisedAs).filter(Objects::nonNull).toList();

  private final CatalogAccess access;
  private final IcebergRequests requests;
  private final IcebergListings listings;
  private final TableRoutes tables;
  private final NamespaceOperations namespaces;
  private final TableLoads tableOperations;
  private final ViewOperations views;
  private final IdempotentEndpoints idempotent;
  private final ReadableLocationsRoute readableLocations;
  private final SignRoute sign;
  private final PlanRoutes plans;
  private final CatalogRegistry catalogs;

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
      CatalogAccess access,
      CatalogListings listings,
      ReadableLocations readableLocations,
      NamespaceOperations namespaces,
      TableLoads loads,
      TableMutations mutations,
      TableSigning signing,
      ScanPlans plans,
      ViewOperations views) {
    public Services {
      requireNonNull(access, "access");
      requireNonNull(listings, "listings");
      requireNonNull(readableLocations, "readableLocations");
      requireNonNull(namespaces, "namespaces");
      requireNonNull(loads, "loads");
      requireNonNull(mutations, "mutations");
      requireNonNull(signing, "signing");
      requireNonNull(plans, "plans");
      requireNonNull(views, "views");
    }
  }

  public IcebergRoutes(
      CatalogRegistry catalogs,
      Authorizer authz,
      Services services,
      TokenService tokens,
      Tuning tuning) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
    requireNonNull(authz, "authz");
    requireNonNull(services, "services");
    requireNonNull(tuning, "tuning");
    LoadTableBody loadTableBody =
        new LoadTableBody(
            tuning.metadataJsonCacheBytes(),
            tuning.metadataJsonIdle(),
            catalogs::writtenMetadataJson);
    this.access = services.access();
    this.namespaces = services.namespaces();
    this.tableOperations = services.loads();
    this.views = services.views();
    this.requests = new IcebergRequests(authz, services.access());
    Paging paging = new Paging(new Sealer(tokens));
    this.listings = new IcebergListings(requests, services.listings(), paging);
    this.tables =
        new TableRoutes(
            requests, services.loads(), services.mutations(), loadTableBody, services.plans());
    this.readableLocations =
        new ReadableLocationsRoute(requests, services.readableLocations(), paging);
    this.sign = new SignRoute(requests, services.signing());
    this.plans = new PlanRoutes(requests, services.plans());
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
    mount(routes, this::bind);
  }

  /**
   * A route's handler: under {@code Idempotency-Key} handling, except on a catalog that does not
   * honour keys (a federated one: not advertised, so ignored); 406 for an endpoint the catalog does
   * not serve, after the checks the route itself would make first (who may know of the catalog).
   */
  private RouteHandler bind(Declared declared) {
    RouteHandler plain = x -> declared.handler().handle(this, x);
    RouteHandler keyed = idempotent.wrap(declared.advertisedAs(), plain);
    if (!declared.path().startsWith("/v1/{prefix}/")) {
      return keyed;
    }
    return x -> {
      SluiceCatalog peeked = peek(x.path("prefix"));
      if (peeked == null
          || (peeked.honoursIdempotencyKeys() && peeked.serves(declared.advertisedAs()))) {
        return keyed.handle(x);
      }
      access.catalog(requests.caller(x), peeked.name());
      if (declared.advertisedAs() != null && !peeked.serves(declared.advertisedAs())) {
        throw new UnsupportedOperationException(
            "Catalog " + peeked.name() + " does not serve " + declared.advertisedAs());
      }
      return plain.handle(x);
    };
  }

  /** The catalog a path names, resolved without any check, or null: the route checks it. */
  private SluiceCatalog peek(String name) {
    try {
      return catalogs.resolve(name);
    } catch (RuntimeException e) {
      return null;
    }
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

  // ------------------------------------------------------------------ config

  private Reply config(Exchange x) {
    String warehouse = x.query("warehouse");
    if (warehouse == null || warehouse.isEmpty()) {
      throw new BadRequestException("Missing query parameter: warehouse (the catalog name)");
    }
    SluiceCatalog catalog = access.configurable(requests.caller(x), warehouse);
    ConfigResponse response =
        ConfigResponse.builder()
            .withOverride("prefix", RESTUtil.encodeString(catalog.name()))
            .withEndpoints(ENDPOINTS.stream().filter(catalog::serves).toList())
            .build();
    // Iceberg 1.10's ConfigResponse has no field for it; 1.11 clients send Idempotency-Key when
    // it is there.
    ObjectNode json = (ObjectNode) Json.iceberg().valueToTree(response);
    if (catalog.honoursIdempotencyKeys()) {
      json.put("idempotency-key-lifetime", idempotent.lifetime().toString());
    }
    if (!catalog.settings().external()) {
      // A Sluice extension: the property this catalog's write freeze obeys, so that a migration
      // (sluice catalogs import --freeze-source) knows positively that freezing a table here
      // holds. A federated catalog's commits go to its remote, which Sluice does not hold to it.
      json.put(WRITE_FREEZE_CONFIG, WriteFreeze.KEY);
    }
    return Reply.ok(json);
  }

  // ------------------------------------------------------------------ namespaces

  private Reply createNamespace(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    requireStringArray(x.jsonBody().get("namespace"), "namespace");
    CreateNamespaceRequest request = x.icebergBody(CreateNamespaceRequest.class);
    return Reply.ok(namespaces.create(requests.caller(x), catalog, request));
  }

  private Reply loadNamespace(Exchange x) {
    return Reply.ok(namespaces.load(requests.namespaceCall(x)));
  }

  private Reply namespaceExists(Exchange x) {
    namespaces.exists(requests.namespaceCall(x));
    return Reply.NO_CONTENT;
  }

  private Reply dropNamespace(Exchange x) {
    namespaces.drop(requests.namespaceCall(x));
    return Reply.NO_CONTENT;
  }

  private Reply updateNamespaceProperties(Exchange x) {
    return Reply.ok(
        namespaces.updateProperties(
            requests.namespaceCall(x),
            () -> x.icebergBody(UpdateNamespacePropertiesRequest.class)));
  }

  // ------------------------------------------------------------------ tables

  private Reply tableExists(Exchange x) {
    tableOperations.exists(requests.tableCall(x));
    return Reply.NO_CONTENT;
  }

  private Reply reportMetrics(Exchange x) {
    tableOperations.reportMetrics(
        requests.tableCall(x), () -> x.icebergBody(ReportMetricsRequest.class));
    return Reply.NO_CONTENT;
  }

  // ------------------------------------------------------------------ views

  private Reply createView(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateViewRequest request = x.icebergBody(CreateViewRequest.class);
    return Reply.ok(views.create(requests.caller(x), catalog, namespace, request));
  }

  private Reply registerView(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Namespace namespace = x.namespace("namespace");
    RegisterViewRequest request = x.icebergBody(RegisterViewRequest.class);
    return Reply.ok(views.register(requests.caller(x), catalog, namespace, request));
  }

  private Reply loadView(Exchange x) {
    return Reply.ok(views.load(requests.viewCall(x)));
  }

  private Reply viewExists(Exchange x) {
    views.exists(requests.viewCall(x));
    return Reply.NO_CONTENT;
  }

  private Reply replaceView(Exchange x) {
    return Reply.ok(
        views.replace(requests.viewCall(x), () -> x.icebergBody(UpdateTableRequest.class)));
  }

  private Reply dropView(Exchange x) {
    views.drop(requests.viewCall(x));
    return Reply.NO_CONTENT;
  }

  private Reply renameView(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    views.rename(requests.caller(x), catalog, request);
    return Reply.NO_CONTENT;
  }

  // ------------------------------------------------------------------ helpers

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
