package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.auth.TokenService;
import dev.sluice.testing.TestServer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input over real HTTP: each case asserts the status, the Iceberg error type, and that the
 * catalog is exactly as it was before.
 */
class BadInputTest {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static TestServer server;
  private static Path warehouse;
  private static String catalog;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    warehouse = server.dataDir().resolve("bad-input-wh");
    catalog = server.createCatalog("bad", List.of(warehouse.toUri().toString()), warehouse);
    base = "/api/catalog/v1/" + catalog;
    assertThat(server.send("POST", base + "/namespaces", "{\"namespace\":[\"ns\"]}").statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns/tables",
                    "{\"name\":\"t\",\"schema\":" + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private String before;

  @BeforeEach
  void snapshot() throws Exception {
    before = state();
  }

  /**
   * Everything a bad request could have touched: namespaces, their properties, tables, metadata
   * pointer, files.
   */
  private static String state() throws Exception {
    StringBuilder sb = new StringBuilder();
    sb.append(server.send("GET", base + "/namespaces", null).body());
    sb.append(server.send("GET", base + "/namespaces/ns", null).body());
    sb.append(server.send("GET", base + "/namespaces/ns/tables", null).body());
    sb.append(server.send("GET", base + "/namespaces/ns/views", null).body());
    sb.append(
        TestServer.json(server.send("GET", base + "/namespaces/ns/tables/t", null).body())
            .get("metadata-location"));
    sb.append(server.send("GET", "/api/management/v1/catalogs", null).body());
    try (Stream<Path> files = Files.walk(warehouse)) {
      sb.append(files.map(Path::toString).sorted().toList());
    }
    return sb.toString();
  }

  /** 400s name the exception: Iceberg clients rethrow type IllegalArgumentException as such. */
  private static final String BAD_REQUEST = "BadRequestException|IllegalArgumentException";

  private void assertError(HttpResponse<String> response, int status, String type)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error).as(response.body()).isNotNull();
    assertThat(error.get("code").asInt()).isEqualTo(status);
    assertThat(error.get("type").asText()).matches(type);
    assertThat(error.get("message").asText()).isNotBlank().doesNotContain("\tat ");
    assertThat(state()).isEqualTo(before);
  }

  static Stream<Arguments> malformedBodies() {
    return Stream.of(
        Arguments.of("POST", "/namespaces", "{not json"),
        Arguments.of("POST", "/namespaces", "{\"namespace\": \"not-a-list\"}"),
        Arguments.of("POST", "/namespaces", "{\"namespace\": [1, 2]}"),
        Arguments.of("POST", "/namespaces", "{\"namespace\": [\"x\"], \"properties\": [\"a\"]}"),
        Arguments.of("POST", "/namespaces", "[]"),
        Arguments.of("POST", "/namespaces", ""),
        Arguments.of("POST", "/namespaces", "null"),
        Arguments.of(
            "POST", "/namespaces/ns/tables", "{\"name\": \"t2\", \"schema\": \"a string\"}"),
        Arguments.of("POST", "/namespaces/ns/tables", "{\"name\": 42, \"schema\": " + SCHEMA + "}"),
        Arguments.of("POST", "/namespaces/ns/tables", "{\"schema\": " + SCHEMA + "}"),
        Arguments.of("POST", "/namespaces/ns/tables/t", "{\"requirements\": {}, \"updates\": []}"),
        Arguments.of(
            "POST", "/namespaces/ns/tables/t", "{\"updates\": [{\"action\": \"no-such-action\"}]}"),
        Arguments.of("POST", "/namespaces/ns/properties", "{\"removals\": \"x\"}"),
        Arguments.of("POST", "/tables/rename", "{\"source\": \"ns.t\"}"),
        Arguments.of("POST", "/namespaces/ns/register", "{\"name\": \"r\"}"),
        Arguments.of("POST", "/transactions/commit", "{\"table-changes\": 7}"),
        Arguments.of("POST", "/namespaces/ns/views", "{\"name\": \"v\"}"));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("malformedBodies")
  void malformedOrMistypedBodiesAre400AndChangeNothing(String method, String path, String body)
      throws Exception {
    assertError(server.send(method, base + path, body), 400, BAD_REQUEST);
  }

  static Stream<Arguments> invalidIdentifiers() {
    return Stream.of(
        Arguments.of("/namespaces", "{\"namespace\": [\"bad\\u0001name\"]}"),
        Arguments.of("/namespaces", "{\"namespace\": []}"),
        Arguments.of("/namespaces", "{\"namespace\": [\"\"]}"),
        Arguments.of("/namespaces", "{\"namespace\": [\"" + "x".repeat(300) + "\"]}"),
        Arguments.of("/namespaces/ns/tables", "{\"name\": \"\", \"schema\": " + SCHEMA + "}"),
        Arguments.of(
            "/namespaces/ns/tables", "{\"name\": \"tab\\nle\", \"schema\": " + SCHEMA + "}"),
        Arguments.of(
            "/tables/rename",
            "{\"source\": {\"namespace\": [\"ns\"], \"name\": \"t\"},"
                + " \"destination\": {\"namespace\": [\"ns\"], \"name\": \"bad\\u0000\"}}"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("invalidIdentifiers")
  void invalidIdentifiersAre400AndChangeNothing(String path, String body) throws Exception {
    assertError(server.send("POST", base + path, body), 400, BAD_REQUEST);
  }

  @Test
  void missingInvalidAndExpiredTokensAre401() throws Exception {
    assertError(
        server.sendAs(null, "GET", base + "/namespaces", null), 401, "NotAuthorizedException");
    assertError(
        server.sendAs("not-a-jwt", "GET", base + "/namespaces", null),
        401,
        "NotAuthorizedException");
    assertError(
        server.sendAs(null, "POST", base + "/namespaces", "{\"namespace\": [\"sneaky\"]}"),
        401,
        "NotAuthorizedException");

    // Same key, same principal, but expired an hour ago.
    TokenService past =
        new TokenService(
            server.server().store(),
            Duration.ofMinutes(5),
            Clock.fixed(Instant.now().minusSeconds(3600), ZoneOffset.UTC));
    past.start();
    String expired =
        past.issue("root", "p-expired", TestServer.CLIENT_ID, List.of("PRINCIPAL_ROLE:ALL"), 1);
    assertError(
        server.sendAs(expired, "GET", base + "/namespaces", null), 401, "NotAuthorizedException");

    // A valid token with one signature byte changed.
    String valid = server.rootToken();
    char last = valid.charAt(valid.length() - 2);
    String tampered =
        valid.substring(0, valid.length() - 2)
            + (last == 'A' ? 'B' : 'A')
            + valid.charAt(valid.length() - 1);
    assertError(
        server.sendAs(tampered, "GET", base + "/namespaces", null), 401, "NotAuthorizedException");
    assertError(
        server.sendAs(tampered, "GET", "/api/management/v1/catalogs", null),
        401,
        "NotAuthorizedException");
  }

  @Test
  void wrongClientSecretGetsAnOAuthError() throws Exception {
    HttpResponse<String> response =
        server.sendAs(null, "POST", "/api/catalog/v1/oauth/tokens", null);
    assertThat(response.statusCode()).isEqualTo(400);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> server.token(TestServer.CLIENT_ID, "wrong"))
        .hasMessageContaining("401")
        .hasMessageContaining("invalid_client");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void unknownPrefixAndWarehouseAre404() throws Exception {
    assertError(
        server.send("GET", "/api/catalog/v1/nope/namespaces", null), 404, "NotFoundException");
    assertError(
        server.send("POST", "/api/catalog/v1/nope/namespaces", "{\"namespace\": [\"x\"]}"),
        404,
        "NotFoundException");
    assertError(
        server.send("GET", "/api/catalog/v1/config?warehouse=nope", null),
        404,
        "NotFoundException");
    assertError(server.send("GET", "/api/catalog/v1/config", null), 400, BAD_REQUEST);
    assertError(
        server.send("GET", "/api/catalog/v1/nope/readable-table-locations?bucket=b", null),
        404,
        "NotFoundException");
    assertError(
        server.send("GET", base + "/namespaces/missing/tables", null),
        404,
        "NoSuchNamespaceException");
    assertError(
        server.send("GET", base + "/namespaces/ns/tables/missing", null),
        404,
        "NoSuchTableException");
    assertError(
        server.send("GET", base + "/namespaces/ns/views/missing", null),
        404,
        "NoSuchViewException");
    assertError(
        server.send(
            "POST",
            base + "/namespaces/missing/tables",
            "{\"name\": \"t\", \"schema\": " + SCHEMA + "}"),
        404,
        "NoSuchNamespaceException");
  }

  @Test
  void oversizedBodiesAre413() throws Exception {
    String huge =
        "{\"namespace\": [\"big\"], \"properties\": {\"k\": \""
            + "x".repeat(9 * 1024 * 1024)
            + "\"}}";
    assertError(server.send("POST", base + "/namespaces", huge), 413, "RequestEntityTooLarge");
  }

  /**
   * A body without Content-Length (chunked) is read as it arrives: a small one is the request, one
   * over the limit is a 413 like a declared one.
   */
  @Test
  void chunkedBodiesAreReadAndLimited() throws Exception {
    String small =
        "{\"namespace\": [\"chunked\"], \"properties\": {\"k\": \"" + "v".repeat(5000) + "\"}}";
    HttpResponse<String> created = sendChunked(base + "/namespaces", small);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(server.send("GET", base + "/namespaces/chunked", null).body())
        .contains("v".repeat(5000));
    assertThat(server.send("DELETE", base + "/namespaces/chunked", null).statusCode())
        .isEqualTo(204);

    String huge =
        "{\"namespace\": [\"big\"], \"properties\": {\"k\": \""
            + "x".repeat(9 * 1024 * 1024)
            + "\"}}";
    HttpResponse<String> refused = sendChunked(base + "/namespaces", huge);
    assertThat(refused.statusCode()).isEqualTo(413);
    assertThat(refused.body()).contains("RequestEntityTooLarge");
  }

  /** POST with a body of unknown length: the JDK client sends it chunked. */
  private static HttpResponse<String> sendChunked(String path, String body) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + server.rootToken())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void badPagingIs400() throws Exception {
    assertError(server.send("GET", base + "/namespaces?pageSize=0", null), 400, BAD_REQUEST);
    assertError(server.send("GET", base + "/namespaces?pageSize=abc", null), 400, BAD_REQUEST);
    assertError(
        server.send("GET", base + "/namespaces/ns/tables?pageToken=%25%25%25", null),
        400,
        BAD_REQUEST);
    String locations = base + "/readable-table-locations?bucket=b";
    assertError(server.send("GET", locations + "&pageSize=0", null), 400, BAD_REQUEST);
    assertError(server.send("GET", locations + "&pageToken=%25%25%25", null), 400, BAD_REQUEST);
    assertError(
        server.send("GET", base + "/readable-table-locations", null), 400, "BadRequestException");
    assertError(
        server.send("GET", base + "/readable-table-locations?bucket=a%2Fb", null),
        400,
        "BadRequestException");
  }

  @Test
  void conflictsAre409AndChangeNothing() throws Exception {
    assertError(
        server.send("POST", base + "/namespaces", "{\"namespace\": [\"ns\"]}"),
        409,
        "AlreadyExistsException");
    assertError(
        server.send(
            "POST",
            base + "/namespaces/ns/tables",
            "{\"name\": \"t\", \"schema\": " + SCHEMA + "}"),
        409,
        "AlreadyExistsException");
    assertError(
        server.send("DELETE", base + "/namespaces/ns", null), 409, "NamespaceNotEmptyException");
    assertError(
        server.send("DELETE", "/api/management/v1/catalogs/" + catalog, null),
        409,
        "NamespaceNotEmptyException");
    String staleCommit =
        "{\"requirements\": [{\"type\": \"assert-table-uuid\", \"uuid\": \"00000000-0000-0000-0000-000000000000\"}],"
            + " \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}";
    assertError(
        server.send("POST", base + "/namespaces/ns/tables/t", staleCommit),
        409,
        "CommitFailedException");
  }

  @Test
  void locationsOutsideAllowedLocationsAre403AndWriteNothing() throws Exception {
    String sibling = warehouse.toUri().toString().replaceAll("/$", "") + "-sibling/t3";
    assertError(
        server.send(
            "POST",
            base + "/namespaces/ns/tables",
            "{\"name\": \"t3\", \"location\": \"" + sibling + "\", \"schema\": " + SCHEMA + "}"),
        403,
        "ForbiddenException");
    assertThat(Files.exists(Path.of(sibling.replace("file:", "")))).isFalse();
    String escape =
        "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
            + " \"updates\": {\"write.metadata.path\": \"file:/tmp/elsewhere\"}}]}";
    assertError(
        server.send("POST", base + "/namespaces/ns/tables/t", escape), 403, "ForbiddenException");
    String dotDot = warehouse.toUri() + "ns/../../escape";
    assertError(
        server.send(
            "POST",
            base + "/namespaces/ns/tables",
            "{\"name\": \"t4\", \"location\": \"" + dotDot + "\", \"schema\": " + SCHEMA + "}"),
        403,
        "ForbiddenException");
    assertError(
        server.send(
            "POST",
            base + "/namespaces",
            "{\"namespace\": [\"n2\"], \"properties\": {\"location\": \"file:/etc\"}}"),
        403,
        "ForbiddenException");
  }

  @Test
  void multiTableCommitIsAllOrNothing() throws Exception {
    assertThat(
            server
                .send(
                    "POST",
                    base + "/namespaces/ns/tables",
                    "{\"name\": \"t5\", \"schema\": " + SCHEMA + "}")
                .statusCode())
        .isEqualTo(200);
    before = state();
    String body =
        "{\"table-changes\": ["
            + "{\"identifier\": {\"namespace\": [\"ns\"], \"name\": \"t\"}, \"requirements\": [],"
            + " \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"changed\": \"yes\"}}]},"
            + "{\"identifier\": {\"namespace\": [\"ns\"], \"name\": \"t5\"},"
            + " \"requirements\": [{\"type\": \"assert-table-uuid\", \"uuid\": \"00000000-0000-0000-0000-000000000000\"}],"
            + " \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"changed\": \"yes\"}}]}]}";
    assertError(
        server.send("POST", base + "/transactions/commit", body), 409, "CommitFailedException");
    JsonNode t = TestServer.json(server.send("GET", base + "/namespaces/ns/tables/t", null).body());
    assertThat(t.get("metadata").get("properties").has("changed")).isFalse();
  }

  @Test
  void unsupportedMethodAndUnknownPathAreErrorsNot500() throws Exception {
    assertError(server.send("PATCH", base + "/namespaces", "{}"), 405, "MethodNotAllowed");
    assertError(
        server.send("GET", "/api/catalog/v1/nothing/here/at/all/x/y/z", null), 404, "NotFound");
    assertError(
        server.send("POST", base + "/namespaces/ns/tables/t/plan", "[]"),
        400,
        "BadRequestException");
  }
}
