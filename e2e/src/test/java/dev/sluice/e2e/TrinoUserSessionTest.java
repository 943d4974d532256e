package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Per-user sessions through one Trino catalog (docs/ENGINES.md, "Per-user sessions"): Trino 476
 * authenticates its users with passwords over HTTPS, and its catalog, with {@code
 * iceberg.rest-catalog.session=USER}, exchanges each query's user for a Sluice token of that user,
 * the catalog's own principal {@code engine} being the actor (RFC 8693). Sluice trusts Trino to
 * name the user ({@code auth.delegation.unsignedSubjects}) only through the act-as grants of
 * engine's principal role, and answers with the user's rights, not the engine's: engine holds no
 * data grant.
 *
 * <p>Users, each a Trino password user and a Sluice principal of the same name: alice (principal
 * role {@code analysts}: reads the schema), bob ({@code others}: reads only table {@code public}),
 * carol ({@code contractors}: reads the schema, but engine may not act through that role). Data is
 * written beforehand through a writer catalog of its own. Needs the RGW and Trino beds of {@code
 * ./scripts/test-all.sh}; fails, not skips, without them. Steps run in order ({@link
 * OrderedSteps}).
 */
@ExtendWith(OrderedSteps.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrinoUserSessionTest {
  private static final String NAME = "TrinoUserSessionTest";
  private static final String WAREHOUSE = "lake";
  private static final String SCHEMA = "sales";
  private static final String MANAGEMENT = "/api/management/v1";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Sluice may take the unsigned JWT Trino sends as the subject, naming the user. */
  static final String SERVER_CONFIG =
      RgwTestBucket.SERVER_CONFIG
          + """
          auth:
            delegation:
              unsignedSubjects: true
          """;

  private static Map<String, String> rgw;
  private static RgwTestBucket rgwBucket;
  private static RgwOpsLog opsLog;
  private static SluiceServerProcess server;
  private static TrinoSql admin;
  private static final Map<String, TrinoSql> sessions = new LinkedHashMap<>();
  private static final List<String> trinoCatalogs = new ArrayList<>();
  private static String engineCredential;
  private static final Map<String, String> credentials = new LinkedHashMap<>();
  private static String users;
  private static String rootToken;

  @BeforeAll
  static void start() {
    rgw = RgwTestBucket.environment(NAME);
    admin = TrinoSql.connect(NAME);
    opsLog = RgwOpsLog.ofBed();
    rgwBucket = RgwTestBucket.create(rgw, "sluice-e2e-trino-users");
    server = SluiceServerProcess.start("trino-users", SERVER_CONFIG, rgw);
    ok(
        "POST",
        MANAGEMENT + "/catalogs",
        CatalogAdmin.rgwS3Catalog(rgw, rgwBucket.name(), WAREHOUSE).toString());
    String suffix = ProcessSupport.randomHex(3);

    // The data, through a writer catalog of its own (plain snippet, one principal).
    String writer = trinoCatalog("users_writer_" + suffix, "trino-catalog", principal("writer"));
    role(
        "writers",
        "writer",
        catalogGrant("NAMESPACE_FULL_METADATA"),
        catalogGrant("TABLE_FULL_METADATA"),
        catalogGrant("TABLE_WRITE_DATA"));
    admin.execute("CREATE SCHEMA " + writer + "." + SCHEMA);
    for (String table : List.of("orders", "public")) {
      admin.execute(
          "CREATE TABLE "
              + writer
              + "."
              + SCHEMA
              + "."
              + table
              + " AS SELECT CAST(id AS BIGINT) AS id, CAST(name AS VARCHAR) AS name"
              + " FROM (VALUES (1, 'apple'), (2, 'pear')) AS t (id, name)");
    }

    // The engine: no catalog role, no grant of its own; may act through analysts and others only.
    // Trino reads the catalog's config with the engine's own token before any user query: Sluice
    // allows that to a principal that may act for a role holding grants in the catalog.
    engineCredential = principal("engine");
    ok("POST", MANAGEMENT + "/principal-roles", "{\"principalRole\":{\"name\":\"engine_role\"}}");
    ok(
        "PUT",
        MANAGEMENT + "/principals/engine/principal-roles",
        "{\"principalRole\":{\"name\":\"engine_role\"}}");
    for (String user : List.of("alice", "bob", "carol")) {
      credentials.put(user, principal(user));
    }
    role("analysts", "alice", namespaceGrant("TABLE_READ_DATA"));
    role("others", "bob", tableGrant("public", "TABLE_READ_DATA"));
    role("contractors", "carol", namespaceGrant("TABLE_READ_DATA"));
    for (String target : List.of("analysts", "others")) {
      ok("PUT", MANAGEMENT + "/principal-roles/engine_role/act-as/" + target, null);
    }
    users = trinoCatalog("users_" + suffix, "trino-catalog-user-session", engineCredential);
  }

  @AfterAll
  static void stop() throws Exception {
    List<AutoCloseable> all = new ArrayList<>(sessions.values());
    if (admin != null) {
      all.add(() -> trinoCatalogs.forEach(c -> admin.execute("DROP CATALOG IF EXISTS " + c)));
      all.add(admin);
    }
    all.add(server);
    all.add(rgwBucket);
    ProcessSupport.closeAll(all.toArray(AutoCloseable[]::new));
  }

  @Test
  @Order(1)
  void step01TrinoAuthenticatesItsUsers() {
    assertThatThrownBy(() -> TrinoSql.connectAs(NAME, "alice", "not-her-password"))
        .satisfies(e -> assertThat(TrinoSql.messages(e)).contains("Authentication failed"));
    assertThat(session("alice").column("SELECT current_user")).containsExactly("alice");
  }

  @Test
  @Order(2)
  void step02AliceReadsWithACredentialNamingHer() {
    long mark = opsLog.mark();
    assertThat(session("alice").rows("SELECT id, name FROM " + table("orders") + " ORDER BY id"))
        .containsExactly(row(1L, "apple"), row(2L, "pear"));

    // RGW served the table's files to an STS session named after alice, and to no other.
    String prefix = "/" + rgwBucket.name() + "/wh/" + SCHEMA + "/orders";
    List<JsonNode> reads =
        opsLog
            .await(mark, rgwBucket.name(), e -> readsData(e, prefix), "a served data read")
            .stream()
            .filter(e -> e.path("uri").asText().contains(prefix))
            .toList();
    assertThat(reads).allSatisfy(e -> assertThat(RgwOpsLog.session(e)).isEqualTo("alice"));
  }

  @Test
  @Order(3)
  void step03BobIsRefusedByTheCatalog() {
    long mark = opsLog.mark();
    assertThatThrownBy(() -> session("bob").rows("SELECT id FROM " + table("orders")))
        .satisfies(
            e ->
                // Sluice's 403, for bob with his own role only (not engine's): Trino's first
                // call for a name is its view lookup, and that is where bob is refused.
                assertThat(TrinoSql.messages(e.getCause()))
                    .contains(
                        "Forbidden: Principal 'bob' with activated principal roles [others] is not"
                            + " authorized for loadView on view sales.orders in catalog lake")
                    .doesNotContain("apple"));
    // Bob reads what bob may read, through the same catalog, as himself.
    assertThat(session("bob").rows("SELECT id, name FROM " + table("public") + " ORDER BY id"))
        .containsExactly(row(1L, "apple"), row(2L, "pear"));
    List<JsonNode> entries =
        opsLog.await(mark, rgwBucket.name(), e -> "bob".equals(RgwOpsLog.session(e)), "bob's read");
    assertThat(entries)
        .as("RGW requests for orders' files while bob was refused")
        .noneMatch(e -> e.path("uri").asText().contains("/wh/" + SCHEMA + "/orders"));
  }

  @Test
  @Order(4)
  void step04BobsWriteIsRefusedByTheStore() {
    long mark = opsLog.mark();
    assertThatThrownBy(
            () -> session("bob").execute("INSERT INTO " + table("public") + " VALUES (3, 'plum')"))
        .satisfies(e -> assertThat(TrinoSql.messages(e.getCause())).contains("Status Code: 403"));
    List<JsonNode> refused =
        opsLog.await(
            mark,
            rgwBucket.name(),
            e -> "PUT".equals(method(e)) && "403".equals(e.path("http_status").asText()),
            "a refused PUT");
    assertThat(refused)
        .filteredOn(e -> "PUT".equals(method(e)))
        .isNotEmpty()
        .allSatisfy(
            e -> {
              assertThat(e.path("http_status").asText()).isEqualTo("403");
              assertThat(RgwOpsLog.session(e)).isEqualTo("bob");
            });
  }

  @Test
  @Order(5)
  void step05CarolIsRefusedWithoutAnActAsGrantForHerRole() {
    // Carol could read the schema herself, but engine may not act through her role.
    assertThatThrownBy(() -> session("carol").rows("SELECT id FROM " + table("orders")))
        .satisfies(
            e ->
                assertThat(TrinoSql.messages(e.getCause()))
                    .contains(
                        "unauthorized_client: principal engine may not act for carol: none of the"
                            + " user's active principal roles is one the actor may act for")
                    .doesNotContain("apple"));
    assertThat(events("carol"))
        .as("carol's audit events")
        .noneMatch(e -> e.path("action").asText().equals("loadTable"));
  }

  @Test
  @Order(6)
  void step06TheAuditTrailNamesTheUserAndTheEngine() {
    List<JsonNode> alice = events("alice");
    assertThat(alice)
        .anySatisfy(
            e -> {
              assertThat(e.path("action").asText()).isEqualTo("loadTable");
              assertThat(e.path("securable").asText()).isEqualTo("table " + SCHEMA + ".orders");
              assertThat(e.path("decision").asText()).isEqualTo("ALLOW");
            });
    List<JsonNode> bob = events("bob");
    assertThat(bob)
        .anySatisfy(
            e -> {
              assertThat(e.path("action").asText()).isEqualTo("loadView");
              assertThat(e.path("securable").asText()).isEqualTo("view " + SCHEMA + ".orders");
              assertThat(e.path("decision").asText()).isEqualTo("DENY");
              assertThat(e.path("status").asInt()).isEqualTo(403);
            });
    assertThat(bob)
        .as("bob's events")
        .noneMatch(
            e ->
                e.path("securable").asText().endsWith(SCHEMA + ".orders")
                    && e.path("decision").asText().equals("ALLOW"));
    // The exchanges themselves: subject the user, actor engine.
    for (List<JsonNode> events : List.of(alice, bob)) {
      assertThat(events)
          .anySatisfy(
              e -> {
                assertThat(e.path("action").asText()).isEqualTo("getToken");
                assertThat(e.path("securable").asText())
                    .isEqualTo(
                        "oauth urn:ietf:params:oauth:grant-type:token-exchange: acted for by engine");
              });
    }
    // Every event of alice and bob came through Trino: each names engine as the actor.
    for (String user : List.of("alice", "bob")) {
      assertThat(events(user))
          .as("%s's events", user)
          .allSatisfy(e -> assertThat(e.path("actor").asText()).isEqualTo("engine"));
    }
  }

  @Test
  @Order(7)
  void step07TheEngineAloneReadsNothing() {
    String[] idSecret = engineCredential.split(":", 2);
    String token = server.fetchToken(idSecret[0], idSecret[1]);
    HttpResponse<String> load =
        server.send(
            "GET",
            CatalogAdmin.tablePath(server, WAREHOUSE, SCHEMA, "orders"),
            token,
            null,
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(load.statusCode()).as("engine's own load: %s", load.body()).isEqualTo(403);
  }

  @Test
  @Order(8)
  void step08AnAgentFrameworkExchangesAUsersOwnTokenAsDocumented() {
    String[] alice = credentials.get("alice").split(":", 2);
    String[] engine = engineCredential.split(":", 2);
    String delegated =
        server.token(
            DocSnippets.properties(
                "agent-token-exchange",
                Map.of(
                    "user-token", server.fetchToken(alice[0], alice[1]),
                    "engine-token", server.fetchToken(engine[0], engine[1]))));
    HttpResponse<String> load =
        server.send(
            "GET",
            CatalogAdmin.tablePath(server, WAREHOUSE, SCHEMA, "orders"),
            delegated,
            null,
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(load.statusCode()).as("alice through the agent: %s", load.body()).isEqualTo(200);
    assertThat(load.body()).contains("s3.session-token");
  }

  @Test
  @Order(9)
  void step09NoRequestFailed() {
    List<JsonNode> all = AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines());
    assertThat(all).isNotEmpty();
    assertThat(all)
        .as("requests answered 5xx")
        .noneMatch(r -> r.path("status").asText().startsWith("5"));
  }

  // --- setup -------------------------------------------------------------------------------------

  /**
   * A Trino catalog from snippet {@code snippet} of docs/ENGINES.md, acting as {@code credential}.
   */
  private static String trinoCatalog(String name, String snippet, String credential) {
    admin.createIcebergCatalog(
        name,
        DocSnippets.properties(
            snippet,
            DocSnippets.catalogValues(
                server.catalogUri(),
                WAREHOUSE,
                credential,
                Map.of(
                    "region", rgw.get("SLUICE_TEST_RGW_REGION"),
                    "s3-endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT")))));
    trinoCatalogs.add(name);
    return name;
  }

  /** A new principal; returns {@code clientId:clientSecret}. */
  private static String principal(String name) {
    JsonNode created =
        json(ok("POST", MANAGEMENT + "/principals", "{\"principal\":{\"name\":\"" + name + "\"}}"));
    JsonNode credentials = created.path("credentials");
    return credentials.path("clientId").asText() + ":" + credentials.path("clientSecret").asText();
  }

  /**
   * Principal role {@code role} for {@code principal}, with a catalog role of the same name holding
   * {@code grants}.
   */
  private static void role(String role, String principal, String... grants) {
    CatalogAdmin.roleWithGrants(
        TrinoUserSessionTest::ok, WAREHOUSE, role, principal, List.of(grants));
  }

  private static String catalogGrant(String privilege) {
    return CatalogAdmin.catalogGrant(privilege);
  }

  private static String namespaceGrant(String privilege) {
    return CatalogAdmin.namespaceGrant(SCHEMA, privilege);
  }

  private static String tableGrant(String table, String privilege) {
    return "{\"type\":\"table\",\"namespace\":[\""
        + SCHEMA
        + "\"],\"tableName\":\""
        + table
        + "\",\"privilege\":\""
        + privilege
        + "\"}";
  }

  // --- helpers -----------------------------------------------------------------------------------

  /** A JDBC session of {@code user}, logged in with its password; one per user, kept open. */
  private static TrinoSql session(String user) {
    return sessions.computeIfAbsent(user, u -> TrinoSql.connectAs(NAME, u));
  }

  private static String table(String name) {
    return users + "." + SCHEMA + "." + name;
  }

  /** The audit events of {@code principal}, newest first. */
  private static List<JsonNode> events(String principal) {
    List<JsonNode> events = new ArrayList<>();
    json(ok("GET", MANAGEMENT + "/events?pageSize=1000&principal=" + principal, null))
        .path("events")
        .forEach(events::add);
    return events;
  }

  private static String method(JsonNode opsEntry) {
    String uri = opsEntry.path("uri").asText();
    int space = uri.indexOf(' ');
    return space < 0 ? uri : uri.substring(0, space);
  }

  /** A GET of a data file under {@code prefix} that RGW served (200, or 206 for a range). */
  private static boolean readsData(JsonNode opsEntry, String prefix) {
    String uri = opsEntry.path("uri").asText();
    return "GET".equals(method(opsEntry))
        && uri.contains(prefix)
        && uri.contains(".parquet ")
        && opsEntry.path("http_status").asText().startsWith("2");
  }

  private static List<Object> row(Object... values) {
    return TrinoSql.row(values);
  }

  private static JsonNode json(String body) {
    return CatalogAdmin.json(body);
  }

  /**
   * A management call as root that must succeed; returns the response body. One root token for all:
   * each new one costs the server a PBKDF2 check of root's secret.
   */
  private static String ok(String method, String path, String body) {
    if (rootToken == null) {
      rootToken = server.fetchToken();
    }
    HttpResponse<String> response = server.send(method, path, rootToken, body);
    assertThat(response.statusCode())
        .as("%s %s %s answered: %s", method, path, body, response.body())
        .isBetween(200, 204);
    return response.body();
  }
}
