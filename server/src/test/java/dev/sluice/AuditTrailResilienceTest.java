package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.PageRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.RoleRecord;
import dev.sluice.store.RowsRefused;
import dev.sluice.store.SecurableRef;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The audit trail never stops, and no list reads a whole table, against a real server: an oversized
 * name is answered and stored truncated while later decisions are still recorded; every list
 * answers a default page with a token, the tokens walk each item once, and a malformed page size or
 * token is a 400. H2 here; PostgreSQL in the subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditTrailResilienceTest {
  private static final String M = "/api/management/v1";
  private TestServer server;
  private Admin admin;
  private String catalog;

  @BeforeAll
  void start() throws Exception {
    server = startSluice();
    admin = new Admin(server);
    catalog = server.createCatalog("audit");
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private AccessStore access() {
    return server.server().store().access();
  }

  private JsonNode ok(String path) throws Exception {
    HttpResponse<String> response = server.send("GET", path, null);
    assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  @Test
  void theDatabaseItselfRefusesAnOversizedEvent() {
    // Why fitting matters: without it this is what the writer would get, forever.
    AuditEvent raw =
        new AuditEvent(
            0, 1, "root", List.of(), "getCatalog", "c".repeat(5_000), "catalog", true, "q-raw");
    assertThatThrownBy(() -> access().appendEvents(List.of(raw))).isInstanceOf(RowsRefused.class);
  }

  @Test
  void aFiveThousandCharacterCatalogNameIsAnsweredAndTheTrailGoesOn() throws Exception {
    String longName = "c".repeat(5_000);
    HttpResponse<String> missing = server.send("GET", M + "/catalogs/" + longName, null);
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
    String[] bob = admin.principal("bob_long", "bob_long_role");
    String bobToken = server.token(bob[0], bob[1]);
    HttpResponse<String> refused =
        server.sendAs(bobToken, "GET", M + "/catalogs/" + longName + "/catalog-roles", null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);

    // Later decisions are recorded and readable.
    assertThat(server.send("GET", M + "/principals/bob_long", null).statusCode()).isEqualTo(200);
    JsonNode events = ok(M + "/events?pageSize=50").get("events");
    // A listing's own decision is stored with its answer, so the next listing shows it first.
    JsonNode listed = ok(M + "/events?pageSize=1").get("events").get(0);
    assertThat(listed.get("action").asText()).isEqualTo("listEvents");
    assertThat(listed.get("status").asInt()).isEqualTo(200);
    List<JsonNode> list = new ArrayList<>();
    events.forEach(list::add);
    assertThat(list)
        .anySatisfy(
            e -> {
              assertThat(e.get("action").asText()).isEqualTo("getPrincipal");
              assertThat(e.get("securable").asText()).isEqualTo("principal bob_long");
            });
    for (String principal : List.of("root", "bob_long")) {
      assertThat(list)
          .as("the truncated event of " + principal)
          .anySatisfy(
              e -> {
                assertThat(e.get("principal").asText()).isEqualTo(principal);
                String stored = e.get("catalog").asText();
                int kept = stored.indexOf('…');
                assertThat(kept).isPositive();
                assertThat(stored.length()).isLessThanOrEqualTo(256);
                assertThat(longName).startsWith(stored.substring(0, kept));
                assertThat(stored.substring(kept))
                    .isEqualTo("…[truncated " + (5_000 - kept) + " chars]");
              });
    }
    JsonNode denied =
        list.stream()
            .filter(
                e ->
                    e.get("principal").asText().equals("bob_long")
                        && e.get("catalog").asText().startsWith("ccc"))
            .findFirst()
            .orElseThrow();
    assertThat(denied.get("decision").asText()).isEqualTo("DENY");
  }

  @Test
  void theEventsApiAnswersWhileDecisionsPourIn() throws Exception {
    String[] eve = admin.principal("eve_burst", null);
    String eveToken = server.token(eve[0], eve[1]);
    AtomicInteger sent = new AtomicInteger();
    Thread burst =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 300; i++) {
                  server.sendAs(eveToken, "GET", M + "/principals", null);
                  sent.incrementAndGet();
                }
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    burst.start();
    while (burst.isAlive()) {
      assertThat(
              server.send("GET", M + "/events?principal=eve_burst&pageSize=5", null).statusCode())
          .isEqualTo(200);
    }
    burst.join();
    assertThat(sent.get()).isEqualTo(300);
    long counted = 0;
    for (JsonNode e : ok(M + "/events?principal=eve_burst&pageSize=1000").get("events")) {
      counted += e.get("count").asLong();
    }
    assertThat(counted).as("every denial recorded").isEqualTo(300);
  }

  @Test
  void everyListRefusesAMalformedPageSizeOrToken() throws Exception {
    admin.principal("lister", "lister_role");
    admin.catalogRole(catalog, "lister_cr", "lister_role");
    String ns = "/api/catalog/v1/" + catalog + "/namespaces";
    server.send("POST", ns, "{\"namespace\": [\"pg\"]}");
    List<String> lists =
        List.of(
            M + "/events",
            M + "/principals",
            M + "/principal-roles",
            M + "/catalogs",
            M + "/catalogs/" + catalog + "/catalog-roles",
            M + "/catalogs/" + catalog + "/catalog-roles/lister_cr/grants",
            M + "/catalogs/" + catalog + "/catalog-roles/lister_cr/principal-roles",
            M + "/principal-roles/lister_role/principals",
            M + "/principal-roles/lister_role/catalog-roles/" + catalog,
            M + "/principals/lister/principal-roles",
            ns,
            ns + "/pg/tables",
            ns + "/pg/views");
    List<String> bad =
        List.of(
            "pageSize=abc",
            "pageSize=0",
            "pageSize=-1",
            "pageSize=1001",
            "pageSize=100000",
            "pageSize=99999999999",
            "pageToken=%25%25%25",
            "pageToken=a.b",
            "pageToken=" + PageRequest.tokenFor("a\u0000b"),
            "pageToken=" + URLEncoder.encode("/w==", StandardCharsets.UTF_8));
    for (String list : lists) {
      assertThat(server.send("GET", list, null).statusCode()).as(list).isEqualTo(200);
      for (String query : bad) {
        HttpResponse<String> response = server.send("GET", list + "?" + query, null);
        assertThat(response.statusCode())
            .as(list + "?" + query + " -> " + response.body())
            .isEqualTo(400);
        JsonNode error = TestServer.json(response.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(400);
        assertThat(error.get("message").asText())
            .containsAnyOf("pageSize", "pageToken")
            .doesNotContain("database");
      }
    }
    // A token of another listing: the events API pages by id.
    HttpResponse<String> foreign =
        server.send("GET", M + "/events?pageToken=" + PageRequest.tokenFor("root"), null);
    assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(400);
    HttpResponse<String> grants =
        server.send(
            "GET",
            M
                + "/catalogs/"
                + catalog
                + "/catalog-roles/lister_cr/grants?pageToken="
                + PageRequest.tokenFor("x"),
            null);
    assertThat(grants.statusCode()).as(grants.body()).isEqualTo(400);
  }

  @Test
  void twoThousandFiveHundredEventsArePagedAndEachIsReadOnce() throws Exception {
    List<AuditEvent> seeded = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      seeded.add(
          new AuditEvent(
              0,
              i,
              "seeded",
              List.of("r"),
              "loadTable",
              catalog,
              "table a.t" + i,
              false,
              "seed-" + i));
    }
    access().appendEvents(seeded);

    JsonNode first = ok(M + "/events?principal=seeded");
    assertThat(first.get("events")).hasSize(PageRequest.DEFAULT_SIZE);
    assertThat(first.get("nextPageToken").isTextual()).isTrue();
    List<String> ids =
        walk(M + "/events?principal=seeded", "events", e -> e.get("requestId").asText());
    assertThat(ids).hasSize(2_500).doesNotHaveDuplicates();
    assertThat(new HashSet<>(ids))
        .isEqualTo(
            seeded.stream()
                .map(AuditEvent::requestId)
                .collect(java.util.stream.Collectors.toSet()));
    assertThat(ok(M + "/events?principal=seeded&pageSize=1000").get("events")).hasSize(1000);
    assertThat(server.send("GET", M + "/events?pageSize=1001", null).statusCode()).isEqualTo(400);
  }

  @Test
  void managementAndIcebergListsAnswerADefaultPageAndTokensWalkEveryItemOnce() throws Exception {
    AccessStore access = access();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < 1_050; i++) {
      String name = String.format("many_%04d", i);
      access.createPrincipal(
          new PrincipalRecord(name, "cid-" + name, "hash", Map.of(), 0), List.of());
      names.add(name);
    }
    JsonNode first = ok(M + "/principals");
    assertThat(first.get("principals")).hasSize(PageRequest.DEFAULT_SIZE);
    assertThat(first.get("nextPageToken").isTextual()).isTrue();
    List<String> listed = walk(M + "/principals", "principals", p -> p.get("name").asText());
    assertThat(listed).doesNotHaveDuplicates().containsAll(names);
    assertThat(walk(M + "/principals?pageSize=1000", "principals", p -> p.get("name").asText()))
        .isEqualTo(listed);

    // Grants page by a key of four columns.
    access.createCatalogRole(new RoleRecord(catalog, "many_grants", Map.of(), 0));
    for (int i = 0; i < 130; i++) {
      access.grantPrivilege(
          new GrantRecord(
              catalog,
              "many_grants",
              SecurableRef.table(NamespacePath.of("ns" + (i % 3), "deep"), "t" + i),
              "TABLE_READ_DATA"));
    }
    access.grantPrivilege(
        new GrantRecord(catalog, "many_grants", SecurableRef.CATALOG, "TABLE_LIST"));
    String grantsPath = M + "/catalogs/" + catalog + "/catalog-roles/many_grants/grants";
    assertThat(ok(grantsPath).get("grants")).hasSize(PageRequest.DEFAULT_SIZE);
    List<String> grants = walk(grantsPath + "?pageSize=7", "grants", JsonNode::toString);
    assertThat(grants).hasSize(131).doesNotHaveDuplicates();

    // Iceberg: a default page with next-page-token, which Iceberg's own client follows.
    for (int i = 0; i < 120; i++) {
      server
          .server()
          .store()
          .createNamespace(catalog, NamespacePath.of(String.format("n%03d", i)), Map.of());
    }
    JsonNode namespaces = ok("/api/catalog/v1/" + catalog + "/namespaces");
    assertThat(namespaces.get("namespaces")).hasSize(PageRequest.DEFAULT_SIZE);
    assertThat(namespaces.get("next-page-token").isTextual()).isTrue();
    try (RESTCatalog client = new RESTCatalog()) {
      client.initialize("paging", server.clientProperties(catalog));
      List<Namespace> all = client.listNamespaces(Namespace.empty());
      assertThat(all).hasSizeGreaterThanOrEqualTo(120).doesNotHaveDuplicates();
    }
  }

  /** Every item of a listing, following nextPageToken. */
  private List<String> walk(String path, String field, Function<JsonNode, String> key)
      throws Exception {
    List<String> out = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      String sep = path.contains("?") ? "&" : "?";
      JsonNode page =
          ok(
              token == null
                  ? path
                  : path + sep + "pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
      page.get(field).forEach(item -> out.add(key.apply(item)));
      JsonNode next = page.get("nextPageToken");
      token = next == null || next.isNull() ? null : next.asText();
      assertThat(++pages).as("pages of " + path).isLessThan(10_000);
    } while (token != null);
    return out;
  }
}
