package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.MultiTableCommit;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTUtil;
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
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST catalog API under {@code /api/catalog}. Routes parse and validate input,
 * resolve the catalog from the prefix, and hand the work to iceberg-core's
 * {@link CatalogHandlers} over a {@link SluiceCatalog}.
 */
public final class IcebergRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRoutes.class);
  private static final String BASE = "/api/catalog/v1";
  private static final String NS = BASE + "/{prefix}/namespaces/{namespace}";

  static final List<Endpoint> ENDPOINTS =
      List.of(
          Endpoint.V1_LIST_NAMESPACES,
          Endpoint.V1_LOAD_NAMESPACE,
          Endpoint.V1_NAMESPACE_EXISTS,
          Endpoint.V1_CREATE_NAMESPACE,
          Endpoint.V1_UPDATE_NAMESPACE,
          Endpoint.V1_DELETE_NAMESPACE,
          Endpoint.V1_LIST_TABLES,
          Endpoint.V1_LOAD_TABLE,
          Endpoint.V1_TABLE_EXISTS,
          Endpoint.V1_CREATE_TABLE,
          Endpoint.V1_UPDATE_TABLE,
          Endpoint.V1_DELETE_TABLE,
          Endpoint.V1_RENAME_TABLE,
          Endpoint.V1_REGISTER_TABLE,
          Endpoint.V1_REPORT_METRICS,
          Endpoint.V1_COMMIT_TRANSACTION,
          Endpoint.V1_LIST_VIEWS,
          Endpoint.V1_LOAD_VIEW,
          Endpoint.V1_VIEW_EXISTS,
          Endpoint.V1_CREATE_VIEW,
          Endpoint.V1_UPDATE_VIEW,
          Endpoint.V1_DELETE_VIEW,
          Endpoint.V1_RENAME_VIEW);

  private final CatalogRegistry catalogs;

  public IcebergRoutes(CatalogRegistry catalogs) {
    this.catalogs = requireNonNull(catalogs, "catalogs");
  }

  public void register(HttpServer.Routes routes) {
    routes
        .add("GET", BASE + "/config", this::config)
        .add("GET", BASE + "/{prefix}/namespaces", this::listNamespaces)
        .add("POST", BASE + "/{prefix}/namespaces", this::createNamespace)
        .add("GET", NS, x -> Reply.ok(CatalogHandlers.loadNamespace(catalog(x), x.namespace("namespace"))))
        .add("HEAD", NS, x -> {
          CatalogHandlers.namespaceExists(catalog(x), x.namespace("namespace"));
          return Reply.NO_CONTENT;
        })
        .add("DELETE", NS, x -> {
          CatalogHandlers.dropNamespace(catalog(x), x.namespace("namespace"));
          return Reply.NO_CONTENT;
        })
        .add("POST", NS + "/properties", this::updateNamespaceProperties)
        .add("GET", NS + "/tables", this::listTables)
        .add("POST", NS + "/tables", this::createTable)
        .add("POST", NS + "/register", this::registerTable)
        .add("GET", NS + "/tables/{table}", x -> Reply.ok(CatalogHandlers.loadTable(catalog(x), table(x))))
        .add("HEAD", NS + "/tables/{table}", x -> {
          CatalogHandlers.tableExists(catalog(x), table(x));
          return Reply.NO_CONTENT;
        })
        .add("POST", NS + "/tables/{table}", this::updateTable)
        .add("DELETE", NS + "/tables/{table}", this::dropTable)
        .add("POST", NS + "/tables/{table}/metrics", this::reportMetrics)
        .add("POST", BASE + "/{prefix}/tables/rename", this::renameTable)
        .add("POST", BASE + "/{prefix}/transactions/commit", this::commitTransaction)
        .add("GET", NS + "/views", this::listViews)
        .add("POST", NS + "/views", this::createView)
        .add("GET", NS + "/views/{view}", x -> Reply.ok(CatalogHandlers.loadView(catalog(x), view(x))))
        .add("HEAD", NS + "/views/{view}", x -> {
          CatalogHandlers.viewExists(catalog(x), view(x));
          return Reply.NO_CONTENT;
        })
        .add("POST", NS + "/views/{view}", this::replaceView)
        .add("DELETE", NS + "/views/{view}", x -> {
          CatalogHandlers.dropView(catalog(x), view(x));
          return Reply.NO_CONTENT;
        })
        .add("POST", BASE + "/{prefix}/views/rename", this::renameView)
        // In the spec but not offered (and not advertised in /v1/config): a clear 406, not a 404.
        .add("POST", NS + "/tables/{table}/plan", IcebergRoutes::scanPlanningUnsupported)
        .add("GET", NS + "/tables/{table}/plan/{plan}", IcebergRoutes::scanPlanningUnsupported)
        .add("DELETE", NS + "/tables/{table}/plan/{plan}", IcebergRoutes::scanPlanningUnsupported)
        .add("POST", NS + "/tables/{table}/tasks", IcebergRoutes::scanPlanningUnsupported);
  }

  private static Reply scanPlanningUnsupported(Exchange x) {
    throw new UnsupportedOperationException("Server-side scan planning is not supported by this catalog");
  }

  private Reply config(Exchange x) {
    String warehouse = x.query("warehouse");
    if (warehouse == null || warehouse.isEmpty()) {
      throw new BadRequestException("Missing query parameter: warehouse (the catalog name)");
    }
    SluiceCatalog catalog = catalogs.resolve(warehouse);
    return Reply.ok(
        ConfigResponse.builder()
            .withOverride("prefix", RESTUtil.encodeString(catalog.name()))
            .withEndpoints(ENDPOINTS)
            .build());
  }

  private Reply listNamespaces(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    String parentParam = x.query("parent");
    Namespace parent =
        parentParam == null || parentParam.isEmpty()
            ? Namespace.empty()
            : Namespace.of(parentParam.split("\u001f", -1));
    Page<Namespace> page = catalog.listNamespaces(parent, pageRequest(x));
    return Reply.ok(withToken(ListNamespacesResponse.builder().addAll(page.items()), page.nextToken()).build());
  }

  private Reply createNamespace(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    requireStringArray(x.jsonBody().get("namespace"), "namespace");
    CreateNamespaceRequest request = x.icebergBody(CreateNamespaceRequest.class);
    request.validate();
    IdentifierRules.checkNamespace(request.namespace());
    return Reply.ok(CatalogHandlers.createNamespace(catalog, request));
  }

  private Reply updateNamespaceProperties(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    UpdateNamespacePropertiesRequest request = x.icebergBody(UpdateNamespacePropertiesRequest.class);
    request.validate();
    return Reply.ok(CatalogHandlers.updateNamespaceProperties(catalog, x.namespace("namespace"), request));
  }

  private Reply listTables(Exchange x) {
    Page<TableIdentifier> page = catalog(x).listTables(x.namespace("namespace"), pageRequest(x));
    return Reply.ok(tables(page));
  }

  private Reply createTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateTableRequest request = x.icebergBody(CreateTableRequest.class, IcebergRoutes::defaultSpecId);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    return Reply.ok(
        request.stageCreate()
            ? CatalogHandlers.stageTableCreate(catalog, namespace, request)
            : CatalogHandlers.createTable(catalog, namespace, request));
  }

  private Reply registerTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    RegisterTableRequest request = x.icebergBody(RegisterTableRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    catalog.settings().locationPolicy().check("registered metadata file", request.metadataLocation());
    return Reply.ok(CatalogHandlers.registerTable(catalog, namespace, request));
  }

  private Reply updateTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    return Reply.ok(CatalogHandlers.updateTable(catalog, table(x), request));
  }

  private Reply dropTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    String purge = x.query("purgeRequested");
    if (Boolean.parseBoolean(purge)) {
      CatalogHandlers.purgeTable(catalog, table(x));
    } else {
      CatalogHandlers.dropTable(catalog, table(x));
    }
    return Reply.NO_CONTENT;
  }

  private Reply reportMetrics(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    TableIdentifier table = table(x);
    ReportMetricsRequest request = x.icebergBody(ReportMetricsRequest.class);
    if (!catalog.tableExists(table)) {
      throw new org.apache.iceberg.exceptions.NoSuchTableException("Table does not exist: %s", table);
    }
    LOG.debug("metrics report for {}: {}", table, request.reportType());
    return Reply.NO_CONTENT;
  }

  private Reply renameTable(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    CatalogHandlers.renameTable(catalog, request);
    return Reply.NO_CONTENT;
  }

  private Reply commitTransaction(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    CommitTransactionRequest request = x.icebergBody(CommitTransactionRequest.class);
    new MultiTableCommit(catalogs.store(), catalog).commit(request);
    return Reply.NO_CONTENT;
  }

  private Reply listViews(Exchange x) {
    Page<TableIdentifier> page = catalog(x).listViews(x.namespace("namespace"), pageRequest(x));
    return Reply.ok(tables(page));
  }

  private Reply createView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    Namespace namespace = x.namespace("namespace");
    CreateViewRequest request = x.icebergBody(CreateViewRequest.class);
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    return Reply.ok(CatalogHandlers.createView(catalog, namespace, request));
  }

  private Reply replaceView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    UpdateTableRequest request = x.icebergBody(UpdateTableRequest.class);
    return Reply.ok(CatalogHandlers.updateView(catalog, view(x), request));
  }

  private Reply renameView(Exchange x) {
    SluiceCatalog catalog = catalog(x);
    RenameTableRequest request = x.icebergBody(RenameTableRequest.class);
    request.validate();
    CatalogHandlers.renameView(catalog, request);
    return Reply.NO_CONTENT;
  }

  private SluiceCatalog catalog(Exchange x) {
    return catalogs.resolve(x.path("prefix"));
  }

  private static TableIdentifier table(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("table"));
  }

  private static TableIdentifier view(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("view"));
  }

  private static ListTablesResponse tables(Page<TableIdentifier> page) {
    ListTablesResponse.Builder builder = ListTablesResponse.builder().addAll(page.items());
    return (page.nextToken() == null ? builder : builder.nextPageToken(page.nextToken())).build();
  }

  private static ListNamespacesResponse.Builder withToken(ListNamespacesResponse.Builder builder, String token) {
    return token == null ? builder : builder.nextPageToken(token);
  }

  /** The REST spec makes a partition spec's {@code spec-id} optional; Iceberg's parser needs it. */
  private static void defaultSpecId(ObjectNode request) {
    if (request.get("partition-spec") instanceof ObjectNode spec
        && !spec.has("spec-id")) {
      spec.put("spec-id", 0);
    }
  }

  /** Iceberg's namespace parser turns numbers into strings; a namespace level must be a JSON string. */
  private static void requireStringArray(JsonNode node, String field) {
    if (node != null && node.isArray()) {
      node.forEach(level -> {
        if (!level.isTextual()) {
          throw new BadRequestException("Invalid %s: every level must be a string", field);
        }
      });
    }
  }

  private static PageRequest pageRequest(Exchange x) {
    return PageRequest.of(x.query("pageToken"), x.queryInt("pageSize"));
  }
}
