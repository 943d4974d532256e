package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Catalog;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.api.NamespaceStorageIdentity;
import dev.sluice.api.SetStorageIdentityRequest;
import dev.sluice.store.NamespacePath;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A namespace's storage identity through the management API, without a store behind it (the RGW bed
 * test, {@code NamespaceRoleRgwTest}, proves what the identities vend): the service admin's alone
 * (a catalog's own admins get 403 and change nothing), checked by the catalog's backend (400s
 * naming the key, the credential source, or the storage type that takes none), resolved to the
 * nearest namespace, every set and clear audited with the external id redacted, in events and in
 * the log, and gone with its namespace.
 */
class NamespaceStorageIdentityTest {
  private static final String M = "/api/management/v1";
  private static final String EXTERNAL_ID = "ext-id-of-finance-9c41";
  private static final String ROLE_A = "arn:aws:iam::111111111111:role/Finance";
  private static final String ROLE_B = "arn:aws:iam::111111111111:role/Payroll";
  private static TestServer server;
  private static String stewardToken;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("static1", "AKIDEXAMPLE", "not-a-real-secret")
                .andS3Static("static2", "AKIDOTHER", "not-a-real-secret-2")
                .toYaml());
    Admin admin = new Admin(server);
    ObjectNode storage = JsonNodeFactory.instance.objectNode().put("storageType", "S3");
    storage.putArray("allowedLocations").add("s3://bkt/wh");
    storage
        .put("roleArn", "arn:aws:iam::111111111111:role/Catalog")
        .put("region", "us-east-1")
        .put("stsEndpoint", "https://sts.example.com")
        .put("credentialSource", "static1");
    HttpResponse<String> created =
        server.send(
            "POST",
            M + "/catalogs",
            Admin.json(
                new CreateCatalogRequest(
                    Catalog.of("lake", Map.of("default-base-location", "s3://bkt/wh"), storage),
                    null)));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String files = Files.createTempDirectory("sluice-ns-identity").toUri().toString();
    assertThat(
            server
                .postCatalog(
                    "files",
                    files,
                    Map.of("storageType", "FILE", "allowedLocations", List.of(files)))
                .statusCode())
        .isEqualTo(201);
    for (String catalog : List.of("lake", "files")) {
      for (String ns : List.of("[\"finance\"]", "[\"finance\", \"payroll\"]", "[\"sales\"]")) {
        HttpResponse<String> made =
            server.send(
                "POST",
                "/api/catalog/v1/" + catalog + "/namespaces",
                "{\"namespace\": " + ns + "}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
      }
    }
    // The catalog's own admins, with every catalog and namespace privilege: still not enough.
    String[] steward = admin.principal("steward", "stewards");
    admin.catalogRole("lake", "owners", "stewards");
    for (String privilege :
        List.of(
            "CATALOG_MANAGE_ACCESS",
            "CATALOG_MANAGE_CONTENT",
            "CATALOG_MANAGE_METADATA",
            "CATALOG_WRITE_PROPERTIES")) {
      admin.grant("lake", "owners", Grant.onCatalog(privilege));
    }
    stewardToken = server.token(steward[0], steward[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String path(String catalog, String namespace) {
    return M + "/catalogs/" + catalog + "/namespaces/" + namespace + "/storage-identity";
  }

  private static String body(String json) throws Exception {
    return Admin.json(new SetStorageIdentityRequest((ObjectNode) TestServer.json(json)));
  }

  private static HttpResponse<String> set(String token, String catalog, String ns, String json)
      throws Exception {
    return server.sendAs(token, "PUT", path(catalog, ns), body(json));
  }

  private static NamespaceStorageIdentity get(String catalog, String ns) throws Exception {
    HttpResponse<String> answer = server.send("GET", path(catalog, ns), null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return Admin.read(answer, NamespaceStorageIdentity.class);
  }

  private static void assertError(HttpResponse<String> response, int status, String messagePart)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(status);
    assertThat(error.get("message").asText()).contains(messagePart);
  }

  @Test
  void onlyTheServiceAdminMaySeeSetOrClearAnIdentity() throws Exception {
    String role = "{\"roleArn\": \"" + ROLE_A + "\"}";
    assertThat(set(server.rootToken(), "lake", "sales", role).statusCode()).isEqualTo(200);
    NamespaceStorageIdentity before = get("lake", "sales");
    String other = "{\"roleArn\": \"arn:aws:iam::111111111111:role/Steward\"}";
    assertError(set(stewardToken, "lake", "sales", other), 403, "service_admin");
    assertError(set(stewardToken, "lake", "finance", other), 403, "service_admin");
    // Refused before the body is read, whether the namespace exists or not.
    assertError(
        server.sendAs(stewardToken, "PUT", path("lake", "nowhere"), "{not json"),
        403,
        "service_admin");
    assertError(server.sendAs(stewardToken, "GET", path("lake", "sales"), null), 403, "");
    assertError(server.sendAs(stewardToken, "DELETE", path("lake", "sales"), null), 403, "");
    assertThat(get("lake", "sales")).isEqualTo(before);
    assertThat(get("lake", "finance").source()).isEqualTo("catalog");

    // A service admin whose role is taken away is refused on the very next call.
    Admin admin = new Admin(server);
    String[] ops = admin.principal("ops", "service_admin");
    String opsToken = server.token(ops[0], ops[1]);
    assertThat(server.sendAs(opsToken, "GET", path("lake", "sales"), null).statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send("DELETE", M + "/principals/ops/principal-roles/service_admin", null)
                .statusCode())
        .isEqualTo(204);
    String narrowed = server.token(ops[0], ops[1]);
    assertError(set(narrowed, "lake", "sales", other), 403, "service_admin");
    assertThat(get("lake", "sales")).isEqualTo(before);
    assertThat(server.send("DELETE", path("lake", "sales"), null).statusCode()).isEqualTo(204);
  }

  @Test
  void theNearestNamespaceWithAnIdentityVendsForItsTables() throws Exception {
    assertThat(
            set(server.rootToken(), "lake", "finance", "{\"roleArn\": \"" + ROLE_A + "\"}")
                .statusCode())
        .isEqualTo(200);
    NamespaceStorageIdentity own = get("lake", "finance");
    assertThat(own.source()).isEqualTo("namespace");
    assertThat(own.storageIdentity().get("roleArn").asText()).isEqualTo(ROLE_A);
    NamespaceStorageIdentity inherited = get("lake", "finance%1Fpayroll");
    assertThat(inherited.source()).isEqualTo("ancestor");
    assertThat(inherited.definedOn()).containsExactly("finance");
    assertThat(inherited.namespace()).containsExactly("finance", "payroll");
    assertThat(
            set(
                    server.rootToken(),
                    "lake",
                    "finance%1Fpayroll",
                    "{\"roleArn\": \"" + ROLE_B + "\", \"credentialSource\": \"static2\"}")
                .statusCode())
        .isEqualTo(200);
    NamespaceStorageIdentity payroll = get("lake", "finance%1Fpayroll");
    assertThat(payroll.source()).isEqualTo("namespace");
    assertThat(payroll.storageIdentity().get("credentialSource").asText()).isEqualTo("static2");
    assertThat(server.send("DELETE", path("lake", "finance%1Fpayroll"), null).statusCode())
        .isEqualTo(204);
    assertError(server.send("DELETE", path("lake", "finance%1Fpayroll"), null), 404, "no storage");
    assertThat(get("lake", "finance%1Fpayroll").source()).isEqualTo("ancestor");
    assertThat(server.send("DELETE", path("lake", "finance"), null).statusCode()).isEqualTo(204);
    assertThat(get("lake", "finance%1Fpayroll").source()).isEqualTo("catalog");
  }

  @Test
  void whatTheBackendRefusesIsABadRequestNamingIt() throws Exception {
    String root = server.rootToken();
    assertError(
        set(
            root,
            "lake",
            "sales",
            "{\"roleArn\": \"" + ROLE_A + "\", \"credentialSource\": \"nope\"}"),
        400,
        "storageIdentity.credentialSource: unknown credential source 'nope'");
    assertError(
        set(root, "lake", "sales", "{\"roleArn\": \"" + ROLE_A + "\", \"region\": \"eu-west-1\"}"),
        400,
        "Unknown field: storageIdentity.region");
    assertError(set(root, "lake", "sales", "{\"externalId\": \"x\"}"), 400, "roleArn is required");
    assertError(set(root, "lake", "sales", "{}"), 400, "storageIdentity must be a JSON object");
    assertError(
        server.sendAs(root, "PUT", path("lake", "sales"), "{\"storageIdentity\": 5}"),
        400,
        "storageIdentity");
    HttpResponse<String> unwrapped =
        server.sendAs(root, "PUT", path("lake", "sales"), "{\"roleArn\": \"" + ROLE_A + "\"}");
    assertError(unwrapped, 400, "Missing field: storageIdentity");
    assertThat(TestServer.json(unwrapped.body()).get("error").get("message").asText())
        .isEqualTo("Missing field: storageIdentity");
    assertError(
        set(root, "files", "sales", "{\"roleArn\": \"" + ROLE_A + "\"}"),
        400,
        "storageType FILE does not take a storage identity");
    assertError(set(root, "lake", "nowhere", "{\"roleArn\": \"" + ROLE_A + "\"}"), 404, "nowhere");
    assertError(set(root, "nocat", "sales", "{\"roleArn\": \"" + ROLE_A + "\"}"), 404, "nocat");
    assertError(server.send("GET", path("lake", "nowhere"), null), 404, "nowhere");
    assertThat(get("lake", "sales").source()).isEqualTo("catalog");
  }

  @Test
  void everySetAndClearIsAuditedAndLoggedWithTheExternalIdRedacted() throws Exception {
    String identity = "{\"roleArn\": \"" + ROLE_A + "\", \"externalId\": \"" + EXTERNAL_ID + "\"}";
    try (LogCapture log = new LogCapture()) {
      HttpResponse<String> set = set(server.rootToken(), "lake", "sales", identity);
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
      // Shown to the service admin as the catalog's storageConfigInfo is shown to its readers.
      assertThat(get("lake", "sales").storageIdentity().get("externalId").asText())
          .isEqualTo(EXTERNAL_ID);
      assertThat(server.send("DELETE", path("lake", "sales"), null).statusCode()).isEqualTo(204);
      String logged = String.join("\n", log.messages());
      assertThat(logged).contains("storage identity changed").contains(ROLE_A);
      assertThat(logged).doesNotContain(EXTERNAL_ID).doesNotContain("not-a-real-secret");
    }
    List<Event> changes =
        new Admin(server)
            .events("catalog=lake&pageSize=200").events().stream()
                .filter(e -> e.action().equals("changeNamespaceStorageIdentity"))
                .filter(e -> Admin.json(e).contains("sales"))
                .toList();
    assertThat(changes).hasSizeGreaterThanOrEqualTo(2);
    String text = Admin.json(changes);
    assertThat(text).contains(ROLE_A).contains("<redacted>").contains("\\\"after\\\":null");
    assertThat(text).doesNotContain(EXTERNAL_ID).doesNotContain("not-a-real-secret");
  }

  @Test
  void droppingTheNamespaceDropsItsIdentity() throws Exception {
    String ns = "/api/catalog/v1/lake/namespaces";
    assertThat(server.send("POST", ns, "{\"namespace\": [\"tmp\"]}").statusCode()).isEqualTo(200);
    assertThat(
            set(server.rootToken(), "lake", "tmp", "{\"roleArn\": \"" + ROLE_A + "\"}")
                .statusCode())
        .isEqualTo(200);
    assertThat(server.send("DELETE", ns + "/tmp", null).statusCode()).isEqualTo(204);
    assertThat(server.server().store().namespaceIdentities().identities("lake"))
        .doesNotContainKey(NamespacePath.of("tmp"));
    assertThat(server.send("POST", ns, "{\"namespace\": [\"tmp\"]}").statusCode()).isEqualTo(200);
    assertThat(get("lake", "tmp").source()).isEqualTo("catalog");
  }
}
