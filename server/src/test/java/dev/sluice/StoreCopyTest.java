package dev.sluice;

import static dev.sluice.CommandRuns.call;
import static dev.sluice.CommandRuns.sluice;
import static dev.sluice.CommandRuns.token;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.CommandRuns.Run;
import dev.sluice.api.ActAsTargets;
import dev.sluice.api.Event;
import dev.sluice.api.Events;
import dev.sluice.api.Grant;
import dev.sluice.api.PrincipalWithCredentials;
import dev.sluice.api.PrincipalWithCredentials.Credentials;
import dev.sluice.api.TableReadRestrictions;
import dev.sluice.config.ServerConfig;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.RemoteClaimHolder;
import dev.sluice.testing.Admin;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice store copy}: the embedded default copied into an empty database serves the same
 * catalog, table, principals, grants (PRINCIPAL_ACT_AS ones too), audit trail (with its actors) and
 * federated catalog (its connection and its remote tables' location claims), with the same
 * credentials, and new audit events follow the copied ones. A target in use and a source a server
 * holds open are refused, and nothing is written. H2 to H2 here; H2 to PostgreSQL in the subclass.
 */
class StoreCopyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROOT = "root-id:root-secret";
  private static final String M = "/api/management/v1";
  private static final String TABLES = "/api/catalog/v1/quickstart/namespaces/ns/tables";
  private static final String RESTRICTIONS =
      M + "/catalogs/quickstart/namespaces/ns/tables/t/read-restrictions";
  private static final String REMOTE =
      "{\"connectionType\":\"ICEBERG_REST\",\"uri\":\"https://old-catalog:8181/api/catalog\"}";
  private static final String REMOTE_TABLE = "file:///lake/legacy/db/t";

  /** An empty database to copy into: an H2 file here. */
  protected String targetUrl(Path dir) {
    return "jdbc:h2:file:" + dir.resolve("copy/catalog");
  }

  private static ServerConfig config(Path dataDir, String databaseUrl) throws Exception {
    Path file = dataDir.resolveSibling(dataDir.getFileName() + ".yaml");
    Files.writeString(
        file, databaseUrl == null ? "" : "database:\n  url: \"" + databaseUrl + "\"\n");
    return ServerConfig.load(
        file,
        new ServerConfig.Overrides("127.0.0.1", 0, dataDir.toString()),
        k -> null,
        StandardBackends.create());
  }

  private static JsonNode ok(
      SluiceServer server, String token, String method, String path, String body) throws Exception {
    HttpResponse<String> r = call(server, token, method, path, body);
    assertThat(r.statusCode()).as(method + " " + path + " -> " + r.body()).isBetween(200, 204);
    return r.body().isEmpty() ? null : JSON.readTree(r.body());
  }

  /** A management answer, read strictly as the contract's {@code type}. */
  private static <T> T ok(SluiceServer server, String token, String path, Class<T> type)
      throws Exception {
    HttpResponse<String> r = call(server, token, "GET", path, null);
    assertThat(r.statusCode()).as("GET " + path + " -> " + r.body()).isEqualTo(200);
    return Admin.read(r, type);
  }

  @Test
  void theCopiedStoreServesTheSameCatalogPrincipalsGrantsAndTrail() throws Exception {
    Path dir = Files.createTempDirectory("sluice-copy");
    Path dataDir = dir.resolve("data");
    String target = targetUrl(dir);
    String metadataLocation;
    String[] reader;
    long lastEventId;
    try (SluiceServer server = SluiceServer.start(config(dataDir, null), ROOT, null)) {
      String root = token(server, "root-id", "root-secret");
      ok(
          server,
          root,
          "POST",
          "/api/catalog/v1/quickstart/namespaces",
          "{\"namespace\": [\"ns\"]}");
      metadataLocation =
          ok(
                  server,
                  root,
                  "POST",
                  TABLES,
                  "{\"name\": \"t\", \"schema\": {\"type\": \"struct\", \"fields\": ["
                      + "{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}")
              .get("metadata-location")
              .asText();
      HttpResponse<String> created =
          call(server, root, "POST", M + "/principals", Admin.principalJson("reader"));
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      Credentials credentials = Admin.read(created, PrincipalWithCredentials.class).credentials();
      reader = new String[] {credentials.clientId(), credentials.clientSecret()};
      ok(server, root, "POST", M + "/principal-roles", Admin.principalRoleJson("readers"));
      ok(
          server,
          root,
          "PUT",
          M + "/principals/reader/principal-roles",
          Admin.grantPrincipalRoleJson("readers"));
      ok(
          server,
          root,
          "POST",
          M + "/catalogs/quickstart/catalog-roles",
          Admin.catalogRoleJson("table_readers"));
      ok(
          server,
          root,
          "PUT",
          M + "/principal-roles/readers/catalog-roles/quickstart",
          Admin.grantCatalogRoleJson("table_readers"));
      ok(
          server,
          root,
          "PUT",
          M + "/catalogs/quickstart/catalog-roles/table_readers/grants",
          Admin.grantJson(Grant.onCatalog("TABLE_READ_DATA")));
      // An engine's role may act for the readers (PRINCIPAL_ACT_AS), and the trail holds a call
      // it made for one of them.
      ok(server, root, "POST", M + "/principal-roles", Admin.principalRoleJson("engines"));
      ok(server, root, "PUT", M + "/principal-roles/engines/act-as/readers", null);
      // The readers see the table without its id column's digits.
      ok(
          server,
          root,
          "PUT",
          RESTRICTIONS + "/readers",
          "{\"maskedColumns\": {\"id\": \"sha-256-global\"}}");
      server
          .store()
          .access()
          .appendEvents(
              List.of(
                  new AuditEvent(
                          0,
                          System.currentTimeMillis(),
                          "reader",
                          List.of("readers"),
                          "loadTable",
                          "quickstart",
                          "table ns.t",
                          true,
                          "copied-delegated")
                      .withActor("trino")));
      lastEventId = ok(server, root, M + "/events?pageSize=1", Events.class).events().get(0).id();
      // A federated catalog, with the claimed locations of one of its remote tables.
      server
          .store()
          .createCatalog(
              new CatalogRecord(
                  "legacy", "EXTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", REMOTE, 1, 0, 0),
              "service_admin");
      assertThat(
              server
                  .store()
                  .claimRemoteLocations(
                      "legacy",
                      NamespacePath.of("db"),
                      "t",
                      List.of(
                          new LocationClaim(StorageLocation.parse(REMOTE_TABLE).ancestorKeys()))))
          .isEmpty();
    }

    Run copy = sluice("store", "copy", "--data-dir", dataDir.toString(), "--to", target);
    assertThat(copy.exit()).as(copy.err()).isZero();
    assertThat(copy.out())
        .contains("copied")
        .containsPattern("principals\\s+2")
        .containsPattern("catalogs\\s+2")
        .containsPattern("remote_location_claims\\s+5")
        .containsPattern("contents\\s+1")
        .containsPattern("privilege_grants\\s+[1-9]")
        .containsPattern("audit_events\\s+[1-9]")
        .containsPattern("principal_role_delegations\\s+1")
        .containsPattern("table_read_restrictions\\s+1")
        .doesNotContain("flyway_schema_history");

    Run again = sluice("store", "copy", "--data-dir", dataDir.toString(), "--to", target);
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("not empty").contains("principals");

    // The copy serves on its own: another data directory, so the H2 file is not in play.
    try (SluiceServer copied =
        SluiceServer.start(config(dir.resolve("served"), target), ROOT, null)) {
      String root = token(copied, "root-id", "root-secret");
      assertThat(ok(copied, root, "GET", TABLES + "/t", null).get("metadata-location").asText())
          .isEqualTo(metadataLocation);
      String readerToken = token(copied, reader[0], reader[1]);
      assertThat(call(copied, readerToken, "GET", TABLES + "/t", null).statusCode()).isEqualTo(200);
      assertThat(call(copied, readerToken, "DELETE", TABLES + "/t", null).statusCode())
          .isEqualTo(403);
      List<Event> events = ok(copied, root, M + "/events?pageSize=1000", Events.class).events();
      boolean createdTable = false;
      long newest = 0;
      for (Event e : events) {
        createdTable |= e.action().equals("createTable");
        newest = Math.max(newest, e.id());
      }
      assertThat(createdTable).as("the copied trail has the table's creation").isTrue();
      assertThat(newest).as("new events follow the copied ids").isGreaterThan(lastEventId);
      assertThat(
              ok(copied, root, M + "/events?principal=reader&decision=DENY", Events.class).events())
          .isNotEmpty();
      assertThat(ok(copied, root, RESTRICTIONS, TableReadRestrictions.class).restrictions())
          .singleElement()
          .satisfies(r -> assertThat(r.maskedColumns()).containsEntry("id", "sha-256-global"));
      assertThat(ok(copied, root, M + "/principal-roles/engines/act-as", ActAsTargets.class))
          .isEqualTo(new ActAsTargets(List.of("readers")));
      assertThat(copied.store().getCatalog("legacy").orElseThrow().connectionConfig())
          .isEqualTo(REMOTE);
      assertThat(copied.store().remoteClaimHolder(StorageLocation.parse(REMOTE_TABLE).key()))
          .contains(new RemoteClaimHolder("legacy", NamespacePath.of("db"), "t"));
      assertThat(ok(copied, root, M + "/events?actor=trino", Events.class).events())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.principal()).isEqualTo("reader");
                assertThat(e.actor()).isEqualTo("trino");
                assertThat(e.requestId()).isEqualTo("copied-delegated");
              });
    }
  }
}
