package dev.sluice;

import static dev.sluice.AuthorizationMatrixTest.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replay answers the first attempt's table, for the caller's grants now (issue 32, finding 4). A
 * create replayed with its Idempotency-Key after its metadata file was gone used to fall back to
 * loading the table as it is now, authorized only by TABLE_CREATE: the creator saw a table it
 * cannot load, re-created by someone else after a purge or grown by other writers' commits.
 */
class ReplayConfinementTest {
  private static final String M = "/api/management/v1";
  private static TestServer server;
  private static String base;
  private static String creator;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    Admin admin = new Admin(server);
    String catalog = server.createCatalog("replay");
    base = "/api/catalog/v1/" + catalog;
    ok(server.send("POST", base + "/namespaces", "{\"namespace\": [\"ns\"]}"));
    String[] credentials = admin.principal("maker", "makers");
    admin.catalogRole(catalog, "creators", "makers");
    // Creates tables, and nothing else: may not load them, nor read their data.
    admin.grant(
        catalog, "creators", Admin.grantJson("namespace", List.of("ns"), null, "TABLE_CREATE"));
    creator = server.token(credentials[0], credentials[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static HttpResponse<String> ok(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return response;
  }

  private static HttpResponse<String> create(String token, String key, String body)
      throws Exception {
    return server.sendAs(
        token,
        "POST",
        base + "/namespaces/ns/tables",
        body,
        key == null ? Map.of() : Map.of("Idempotency-Key", key));
  }

  private static String createBody(String name, String properties) {
    return "{\"name\": \""
        + name
        + "\", \"schema\": "
        + SCHEMA
        + ", \"properties\": {"
        + properties
        + "}}";
  }

  @Test
  void aReplayAfterAPurgeAndARecreateAnswersTheCreatorsTableNotTheNewOne() throws Exception {
    String key = IdempotencyKeyTest.newKey();
    JsonNode first =
        TestServer.json(ok(create(creator, key, createBody("purged", "\"mine\": \"1\""))).body());
    String uuid = first.get("metadata").get("table-uuid").asText();
    assertThat(
            server.sendAs(creator, "GET", base + "/namespaces/ns/tables/purged", null).statusCode())
        .as("the creator may not load it")
        .isEqualTo(403);

    // Someone else purges it (the metadata file goes) and creates another table of that name.
    ok(server.send("DELETE", base + "/namespaces/ns/tables/purged?purgeRequested=true", null));
    ok(create(server.rootToken(), null, createBody("purged", "\"secret\": \"theirs\"")));

    HttpResponse<String> replay = create(creator, key, createBody("purged", "\"mine\": \"1\""));
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
    assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    JsonNode replayed = TestServer.json(replay.body());
    assertThat(replayed.get("metadata").get("table-uuid").asText()).isEqualTo(uuid);
    assertThat(replay.body()).doesNotContain("theirs");
    assertThat(replayed.path("storage-credentials")).isEmpty();
  }

  @Test
  void aReplayAfterOtherWritersCommitsAnswersTheTableAsCreated() throws Exception {
    String key = IdempotencyKeyTest.newKey();
    // The table keeps one previous metadata file: the first one goes with the second commit.
    String properties =
        "\"write.metadata.delete-after-commit.enabled\": \"true\","
            + " \"write.metadata.previous-versions-max\": \"1\"";
    JsonNode first =
        TestServer.json(ok(create(creator, key, createBody("grown", properties))).body());
    String firstFile = first.get("metadata-location").asText();
    for (int i = 0; i < 3; i++) {
      ok(
          server.send(
              "POST",
              base + "/namespaces/ns/tables/grown",
              "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
                  + " \"updates\": {\"grown\": \"by-others-"
                  + i
                  + "\"}}]}"));
    }
    assertThat(java.nio.file.Files.exists(java.nio.file.Path.of(java.net.URI.create(firstFile))))
        .as("the first metadata file was expired")
        .isFalse();

    HttpResponse<String> replay = create(creator, key, createBody("grown", properties));
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
    assertThat(replay.body()).doesNotContain("by-others");
    assertThat(TestServer.json(replay.body()).get("metadata-location").asText())
        .isEqualTo(firstFile);
  }

  @Test
  void aReplayWhoseAnswerIsGoneIsA422NotTheTableAsItIsNow() throws Exception {
    // An answer too large to keep whole keeps only its file's name; with the file gone there is
    // nothing of the first attempt to give.
    String key = IdempotencyKeyTest.newKey();
    String big = "\"padding\": \"" + "x".repeat(300 * 1024) + "\"";
    String body = createBody("large", big);
    String firstFile =
        TestServer.json(ok(create(creator, key, body)).body()).get("metadata-location").asText();
    ok(server.send("DELETE", base + "/namespaces/ns/tables/large?purgeRequested=true", null));
    assertThat(java.nio.file.Files.exists(java.nio.file.Path.of(java.net.URI.create(firstFile))))
        .isFalse();
    ok(create(server.rootToken(), null, createBody("large", "\"secret\": \"theirs\"")));

    HttpResponse<String> replay = create(creator, key, body);
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(422);
    assertThat(replay.body()).doesNotContain("theirs").contains("no longer available");
  }
}
