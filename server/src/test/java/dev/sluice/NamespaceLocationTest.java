package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.NamespacePath;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Namespaces answer their effective {@code location} (Trino computes a table's location from it and
 * stage-creates there), store nothing new for it, and take an echo of it back as a no-op.
 */
class NamespaceLocationTest {
  private static TestServer server;
  private static String catalog;
  private static String base;
  private static String api;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Path warehouse = server.dataDir().resolve("nsloc-wh");
    catalog = server.createCatalog("nsloc", List.of(warehouse.toUri().toString()), warehouse);
    base = stripSlash(warehouse.toUri().toString());
    api = "/api/catalog/v1/" + catalog;
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void aNamespaceWithoutLocationAnswersWhereItsTablesGo() throws Exception {
    JsonNode created = ok(server.send("POST", api + "/namespaces", "{\"namespace\":[\"plain\"]}"));
    String location = created.get("properties").get("location").asText();
    assertThat(location).isEqualTo(base + "/plain");
    assertThat(loadedLocation("plain")).isEqualTo(location);
    assertThat(stored("plain")).doesNotContainKey("location");

    JsonNode table = ok(server.send("POST", api + "/namespaces/plain/tables", table("t")));
    assertThat(table.get("metadata").get("location").asText()).isEqualTo(location + "/t");

    JsonNode child =
        ok(server.send("POST", api + "/namespaces", "{\"namespace\":[\"plain\",\"child\"]}"));
    assertThat(child.get("properties").get("location").asText()).isEqualTo(location + "/child");
    assertThat(loadedLocation("plain%1Fchild")).isEqualTo(location + "/child");
    assertThat(stored("plain", "child")).doesNotContainKey("location");
  }

  @Test
  void anExplicitLocationIsAnsweredAsSet() throws Exception {
    String placed = base + "/elsewhere";
    JsonNode created =
        ok(
            server.send(
                "POST",
                api + "/namespaces",
                "{\"namespace\":[\"placed\"],\"properties\":{\"location\":\"" + placed + "\"}}"));
    assertThat(created.get("properties").get("location").asText()).isEqualTo(placed);
    assertThat(loadedLocation("placed")).isEqualTo(placed);
    assertThat(stored("placed")).containsEntry("location", placed);
    JsonNode table = ok(server.send("POST", api + "/namespaces/placed/tables", table("t")));
    assertThat(table.get("metadata").get("location").asText()).isEqualTo(placed + "/t");
  }

  /**
   * A client that writes back what it read (the answered location) changes nothing: the echo is
   * accepted even while the namespace holds a table, and not stored as an override.
   */
  @Test
  void anEchoedLocationIsAcceptedAndNotStored() throws Exception {
    ok(server.send("POST", api + "/namespaces", "{\"namespace\":[\"echo\"]}"));
    ok(server.send("POST", api + "/namespaces/echo/tables", table("t")));
    String answered = loadedLocation("echo");

    JsonNode updated =
        ok(
            server.send(
                "POST",
                api + "/namespaces/echo/properties",
                "{\"updates\":{\"location\":\"" + answered + "/\",\"owner\":\"me\"}}"));
    assertThat(updated.get("updated").toString()).contains("location").contains("owner");
    assertThat(stored("echo")).doesNotContainKey("location").containsEntry("owner", "me");
    assertThat(loadedLocation("echo")).isEqualTo(answered);

    // Removing it from a namespace that has none changes nothing either.
    ok(server.send("POST", api + "/namespaces/echo/properties", "{\"removals\":[\"location\"]}"));
    assertThat(loadedLocation("echo")).isEqualTo(answered);

    // Another location is still an override, refused while the namespace holds a table.
    HttpResponse<String> moved =
        server.send(
            "POST",
            api + "/namespaces/echo/properties",
            "{\"updates\":{\"location\":\"" + base + "/moved\"}}");
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(403);
    assertThat(stored("echo")).doesNotContainKey("location");
  }

  /** An explicit location taken away sends an empty namespace back to its default. */
  @Test
  void removingAnExplicitLocationReturnsToTheDefault() throws Exception {
    ok(
        server.send(
            "POST",
            api + "/namespaces",
            "{\"namespace\":[\"back\"],\"properties\":{\"location\":\"" + base + "/away\"}}"));
    ok(server.send("POST", api + "/namespaces/back/properties", "{\"removals\":[\"location\"]}"));
    assertThat(stored("back")).doesNotContainKey("location");
    assertThat(loadedLocation("back")).isEqualTo(base + "/back");
  }

  private static String loadedLocation(String encodedNamespace) throws Exception {
    return ok(server.send("GET", api + "/namespaces/" + encodedNamespace, null))
        .get("properties")
        .get("location")
        .asText();
  }

  private static Map<String, String> stored(String... levels) {
    return server
        .server()
        .store()
        .loadNamespace(catalog, new NamespacePath(List.of(levels)))
        .orElseThrow();
  }

  private static String table(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + AuthorizationMatrixTest.SCHEMA + "}";
  }

  private static JsonNode ok(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  private static String stripSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
