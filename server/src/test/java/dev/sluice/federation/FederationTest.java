package dev.sluice.federation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.AuthenticationParameters;
import dev.sluice.api.Catalog;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.Grant;
import dev.sluice.testing.Admin;
import dev.sluice.testing.LocalDiskFileIO;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.ScopeFixture;
import dev.sluice.testing.TestServer;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A federated catalog end to end, two Sluice servers in this JVM: {@code remote} holds catalog
 * {@code prod}; {@code local} federates it as {@code fed}, authenticating with OAuth client
 * credentials whose secret is only in its YAML. Engines use Iceberg's own RESTCatalog against
 * {@code fed}; what they do must be what the remote holds, under Sluice's RBAC and location rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FederationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String FED = "fed";

  private final LogCapture logs = new LogCapture();
  private TestServer remote;
  private TestServer local;
  private String prod;
  private String remoteSecret;
  private Path warehouse;
  private String[] reader;

  @BeforeAll
  void start() throws Exception {
    remote = TestServer.startH2();
    warehouse = remote.dataDir().resolve("prod-wh");
    prod = remote.createCatalog("prod", List.of(warehouse.toUri().toString()), warehouse);
    Admin remoteAdmin = new Admin(remote);
    String[] federation = remoteAdmin.principal("sluice_federation", "federation_role");
    remoteSecret = federation[1];
    remoteAdmin.catalogRole(prod, "content", "federation_role");
    remoteAdmin.grant(prod, "content", Grant.onCatalog("CATALOG_MANAGE_CONTENT"));

    local =
        TestServer.start(
            null,
            "federation:\n"
                + "  secrets:\n"
                + "    remote-oauth: \""
                + remoteSecret
                + "\"\n"
                + "  remoteTimeouts: { connect: PT2S, request: PT10S }\n");
    HttpResponse<String> created =
        createFederated(FED, remote.catalogUri(), federation[0], "remote-oauth");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    Admin localAdmin = new Admin(local);
    reader = localAdmin.principal("reader", "readers");
    localAdmin.catalogRole(FED, "read", "readers");
    for (String privilege :
        List.of("NAMESPACE_LIST", "TABLE_LIST", "TABLE_READ_DATA", "NAMESPACE_READ_PROPERTIES")) {
      localAdmin.grant(FED, "read", Grant.onCatalog(privilege));
    }
  }

  @AfterAll
  void stop() throws Exception {
    try {
      assertThat(logs.messages()).noneMatch(m -> m.contains(remoteSecret));
    } finally {
      logs.close();
      local.close();
      remote.close();
    }
  }

  private HttpResponse<String> createFederated(
      String name, String uri, String clientId, String secretReference) throws Exception {
    ConnectionConfigInfo connection =
        new ConnectionConfigInfo(
            "ICEBERG_REST",
            uri,
            prod,
            new AuthenticationParameters(
                "OAUTH", null, clientId, List.of("PRINCIPAL_ROLE:ALL"), secretReference),
            null);
    Map<String, Object> storage =
        Map.of("storageType", "FILE", "allowedLocations", List.of(warehouse.toUri().toString()));
    Catalog catalog =
        Catalog.external(
            name,
            Map.of("default-base-location", warehouse.toUri().toString()),
            JSON.valueToTree(storage),
            connection);
    return local.send(
        "POST", "/api/management/v1/catalogs", Admin.json(new CreateCatalogRequest(catalog, null)));
  }

  private RESTCatalog engine(TestServer server, String catalog, String[] credentials) {
    RESTCatalog engine = new RESTCatalog();
    Map<String, String> props = new HashMap<>(server.clientProperties(catalog));
    if (credentials != null) {
      props.put("credential", credentials[0] + ":" + credentials[1]);
    }
    props.put("io-impl", LocalDiskFileIO.class.getName());
    engine.initialize("engine", props);
    return engine;
  }

  /** Creates {@code ns.name} through the federated catalog with one appended data file. */
  private Table tableWithData(RESTCatalog fed, String ns, String name) throws Exception {
    if (!fed.namespaceExists(Namespace.of(ns))) {
      fed.createNamespace(Namespace.of(ns));
    }
    Table table = fed.createTable(TableIdentifier.of(ns, name), SCHEMA);
    Path data = ScopeFixture.localPath(table.location()).resolve("data").resolve("part-0.parquet");
    Files.createDirectories(data.getParent());
    Files.writeString(data, "rows of " + name);
    table
        .newAppend()
        .appendFile(ScopeFixture.dataFile(data.toUri().toString(), Files.size(data)))
        .commit();
    return table;
  }

  @Test
  void namespacesTablesViewsAndCommitsAreTheRemotes() throws Exception {
    try (RESTCatalog fed = engine(local, FED, null);
        RESTCatalog prodEngine = engine(remote, prod, null)) {
      Table table = tableWithData(fed, "sales", "orders");
      fed.buildView(TableIdentifier.of("sales", "recent"))
          .withSchema(SCHEMA)
          .withDefaultNamespace(Namespace.of("sales"))
          .withQuery("spark", "select * from sales.orders")
          .create();

      Table there = prodEngine.loadTable(TableIdentifier.of("sales", "orders"));
      assertThat(there.currentSnapshot()).isNotNull();
      assertThat(there.currentSnapshot().snapshotId())
          .isEqualTo(table.currentSnapshot().snapshotId());
      assertThat(prodEngine.viewExists(TableIdentifier.of("sales", "recent"))).isTrue();
      assertThat(fed.listTables(Namespace.of("sales")))
          .containsExactly(TableIdentifier.of("sales", "orders"));
      assertThat(fed.listViews(Namespace.of("sales")))
          .containsExactly(TableIdentifier.of("sales", "recent"));
      assertThat(fed.listNamespaces()).contains(Namespace.of("sales"));

      // Created on the remote, seen through Sluice.
      prodEngine.createTable(TableIdentifier.of("sales", "made_there"), SCHEMA);
      assertThat(fed.tableExists(TableIdentifier.of("sales", "made_there"))).isTrue();
      fed.renameTable(
          TableIdentifier.of("sales", "made_there"), TableIdentifier.of("sales", "renamed"));
      assertThat(prodEngine.tableExists(TableIdentifier.of("sales", "renamed"))).isTrue();
      assertThat(fed.dropTable(TableIdentifier.of("sales", "renamed"), false)).isTrue();
      assertThat(prodEngine.tableExists(TableIdentifier.of("sales", "renamed"))).isFalse();
    }
  }

  @Test
  void aReadersWriteIsRefusedBySluiceAndNeverReachesTheRemote() throws Exception {
    try (RESTCatalog fed = engine(local, FED, null);
        RESTCatalog asReader = engine(local, FED, reader);
        RESTCatalog prodEngine = engine(remote, prod, null)) {
      tableWithData(fed, "hr", "people");
      long before = prodEngine.loadTable(TableIdentifier.of("hr", "people")).history().size();

      Table readable = asReader.loadTable(TableIdentifier.of("hr", "people"));
      assertThatThrownBy(() -> readable.updateProperties().set("owner", "reader").commit())
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("TABLE_WRITE_PROPERTIES");
      assertThatThrownBy(() -> asReader.createNamespace(Namespace.of("reader_ns")))
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> asReader.dropTable(TableIdentifier.of("hr", "people")))
          .isInstanceOf(ForbiddenException.class);

      Table there = prodEngine.loadTable(TableIdentifier.of("hr", "people"));
      assertThat(there.history()).hasSize((int) before);
      assertThat(there.properties()).doesNotContainKey("owner");
      assertThat(prodEngine.namespaceExists(Namespace.of("reader_ns"))).isFalse();
    }
  }

  @Test
  void remoteErrorsAreIcebergErrors() throws Exception {
    try (RESTCatalog fed = engine(local, FED, null)) {
      fed.createNamespace(Namespace.of("errors"));
      assertThatThrownBy(() -> fed.loadTable(TableIdentifier.of("errors", "missing")))
          .isInstanceOf(NoSuchTableException.class);
      fed.createTable(TableIdentifier.of("errors", "twice"), SCHEMA);
      assertThatThrownBy(() -> fed.createTable(TableIdentifier.of("errors", "twice"), SCHEMA))
          .isInstanceOf(AlreadyExistsException.class);
      assertThatThrownBy(() -> fed.createNamespace(Namespace.of("errors")))
          .isInstanceOf(AlreadyExistsException.class);
    }
    HttpResponse<String> missing =
        local.send("GET", "/api/catalog/v1/" + FED + "/namespaces/errors/tables/missing", null);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(TestServer.json(missing.body()).get("error").get("type").asText())
        .isEqualTo("NoSuchTableException");
  }

  @Test
  void everyLocationRuleIsCheckedBeforeTheCreateIsForwarded() throws Exception {
    try (RESTCatalog fed = engine(local, FED, null);
        RESTCatalog prodEngine = engine(remote, prod, null)) {
      fed.createNamespace(Namespace.of("rules"));
      fed.createNamespace(Namespace.of("elsewhere"));
      Table existing = fed.createTable(TableIdentifier.of("rules", "existing"), SCHEMA);
      String base = warehouse.toUri().toString().replaceAll("/$", "");
      Map<String, String> cases =
          Map.of(
              "unconfined", "file:///tmp/outside-" + System.nanoTime() + "/t",
              "unstructured", base + "/elsewhere/t",
              "overlapping", existing.location() + "/inside");
      cases.forEach(
          (name, location) -> {
            TableIdentifier id = TableIdentifier.of("rules", name);
            assertThatThrownBy(
                    () -> fed.buildTable(id, SCHEMA).withLocation(location).create(), name)
                .isInstanceOf(ForbiddenException.class);
            assertThat(prodEngine.tableExists(id)).as(name).isFalse();
          });
      // A federated table lives in its own folder (its namespace's plus its name): a create over
      // another table's folder is refused, whichever claims exist.
      HttpResponse<String> overlap =
          local.send(
              "POST",
              "/api/catalog/v1/" + FED + "/namespaces/rules/tables",
              "{\"name\":\"again\",\"location\":\""
                  + existing.location()
                  + "\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}");
      assertThat(overlap.statusCode()).as(overlap.body()).isEqualTo(403);
      assertThat(overlap.body()).contains("structured").contains("own folder");
      // A table whose folder is a namespace's (table rules.sub beside namespace rules.sub) would
      // hold that namespace's tables: refused while the namespace exists.
      fed.createNamespace(Namespace.of("rules", "sub"));
      assertThatThrownBy(() -> fed.createTable(TableIdentifier.of("rules", "sub"), SCHEMA))
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("namespace rules.sub");
      assertThat(prodEngine.tableExists(TableIdentifier.of("rules", "sub"))).isFalse();
    }
  }

  @Test
  void configAdvertisesOnlyWhatAFederatedCatalogServes() throws Exception {
    JsonNode config =
        TestServer.json(local.send("GET", "/api/catalog/v1/config?warehouse=" + FED, null).body());
    assertThat(config.get("endpoints").toString())
        .contains("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}")
        .doesNotContain("/plan")
        .doesNotContain("transactions/commit");
    assertThat(config.has("idempotency-key-lifetime")).isFalse();
    HttpResponse<String> transaction =
        local.send(
            "POST", "/api/catalog/v1/" + FED + "/transactions/commit", "{\"table-changes\":[]}");
    assertThat(transaction.statusCode()).as(transaction.body()).isEqualTo(406);
  }

  @Test
  void aRemoteThatDoesNotAnswerIsA503NamingIt() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String uri = "http://127.0.0.1:" + closedPort + "/api/catalog";
    HttpResponse<String> created = createFederated("down", uri, "anyone", "remote-oauth");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> listed = local.send("GET", "/api/catalog/v1/down/namespaces", null);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(503);
    assertThat(listed.body()).contains("down").contains("127.0.0.1:" + closedPort);
    assertThat(listed.body()).doesNotContain(remoteSecret);
  }

  @Test
  void connectionsAreCheckedAndTheSecretIsNeverAnswered() throws Exception {
    HttpResponse<String> unknown =
        createFederated("bad_ref", remote.catalogUri(), "anyone", "no-such-secret");
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(unknown.body()).contains("no-such-secret");

    String internalWithConnection =
        "{\"catalog\":{\"type\":\"INTERNAL\",\"name\":\"mixed\",\"properties\":"
            + "{\"default-base-location\":\""
            + warehouse.toUri()
            + "\"},\"storageConfigInfo\":{\"storageType\":\"FILE\",\"allowedLocations\":[\""
            + warehouse.toUri()
            + "\"]},\"connectionConfigInfo\":{\"connectionType\":\"ICEBERG_REST\",\"uri\":"
            + "\"http://x/api/catalog\",\"authenticationParameters\":"
            + "{\"authenticationType\":\"IMPLICIT\"}}}}";
    assertThat(
            local.send("POST", "/api/management/v1/catalogs", internalWithConnection).statusCode())
        .isEqualTo(400);
    String hive =
        internalWithConnection.replace("INTERNAL", "EXTERNAL").replace("ICEBERG_REST", "HIVE");
    HttpResponse<String> refused = local.send("POST", "/api/management/v1/catalogs", hive);
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("HIVE");
    // Passing the remote's own storage credentials through is refused, not accepted and ignored.
    String pass =
        internalWithConnection
            .replace("INTERNAL", "EXTERNAL")
            .replace("\"IMPLICIT\"}", "\"IMPLICIT\"},\"remoteCredentials\":\"PASS\"");
    HttpResponse<String> passing = local.send("POST", "/api/management/v1/catalogs", pass);
    assertThat(passing.statusCode()).as(passing.body()).isEqualTo(400);
    assertThat(passing.body()).contains("remoteCredentials").contains("PASS");

    HttpResponse<String> got = local.send("GET", "/api/management/v1/catalogs/" + FED, null);
    assertThat(got.statusCode()).isEqualTo(200);
    JsonNode connection =
        TestServer.json(got.body()).get("catalog") == null
            ? TestServer.json(got.body()).get("connectionConfigInfo")
            : TestServer.json(got.body()).get("catalog").get("connectionConfigInfo");
    assertThat(connection.get("authenticationParameters").get("secretReference").asText())
        .isEqualTo("remote-oauth");
    assertThat(got.body()).doesNotContain(remoteSecret);
    String listed = local.send("GET", "/api/management/v1/catalogs", null).body();
    assertThat(listed).contains("EXTERNAL").doesNotContain(remoteSecret);
  }
}
