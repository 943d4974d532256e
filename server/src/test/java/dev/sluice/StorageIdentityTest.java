package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where a catalog's credentials come from and where its tables may live is the service admin's to
 * change: a catalog metadata admin may edit ordinary properties, never storageConfigInfo or
 * allowUnstructuredLocations; storageType never changes; allowedLocations cannot shrink under a
 * table; endpoints are http(s) only; every change is audited, redacted.
 */
class StorageIdentityTest {
  private static final String M = "/api/management/v1";
  private static final String EXTERNAL_ID = "ext-id-that-is-a-secret-3f9a";
  private static TestServer server;
  private static String metadataAdminToken;
  private static Path root;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("static1", "AKIDEXAMPLE", "not-a-real-secret").toYaml());
    root = Files.createTempDirectory("sluice-storage-identity");
    Admin admin = new Admin(server);
    String[] credentials = admin.principal("meta_admin", "meta_admins");
    metadataAdminToken = server.token(credentials[0], credentials[1]);
    for (String catalog : List.of("files", "s3cat")) {
      HttpResponse<String> created =
          server.send(
              "POST", M + "/catalogs", catalog.equals("files") ? fileCatalog() : s3Catalog());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      admin.catalogRole(catalog, "meta", "meta_admins");
      admin.grant(
          catalog, "meta", Admin.grantJson("catalog", null, null, "CATALOG_MANAGE_METADATA"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String fileCatalog() {
    return "{\"catalog\": {\"name\": \"files\", \"type\": \"INTERNAL\", \"properties\": {\"default-base-location\": \""
        + root.resolve("a").toUri()
        + "\"}, \"storageConfigInfo\": {\"storageType\": \"FILE\", \"allowedLocations\": [\""
        + root.resolve("a").toUri()
        + "\", \""
        + root.resolve("b").toUri()
        + "\"]}}}";
  }

  private static String s3Catalog() {
    return "{\"catalog\": {\"name\": \"s3cat\", \"type\": \"INTERNAL\", \"properties\": {\"default-base-location\": \"s3://bkt/wh\"},"
        + " \"storageConfigInfo\": "
        + s3Storage("https://sts.example.com")
        + "}}";
  }

  private static String s3Storage(String stsEndpoint) {
    return "{\"storageType\": \"S3\", \"allowedLocations\": [\"s3://bkt/wh\"], \"roleArn\": \"arn:aws:iam::1:role/r\","
        + " \"externalId\": \""
        + EXTERNAL_ID
        + "\", \"region\": \"us-east-1\", \"stsEndpoint\": \""
        + stsEndpoint
        + "\","
        + " \"credentialSource\": \"static1\"}";
  }

  private static JsonNode catalog(String name) throws Exception {
    return TestServer.json(server.send("GET", M + "/catalogs/" + name, null).body());
  }

  private static HttpResponse<String> update(String token, String name, String body)
      throws Exception {
    return server.sendAs(token, "PUT", M + "/catalogs/" + name, body);
  }

  private static void assertError(HttpResponse<String> response, int status, String messagePart)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error.get("code").asInt()).isEqualTo(status);
    assertThat(error.get("message").asText()).contains(messagePart);
  }

  @Test
  void aMetadataAdminCannotWidenAllowedLocationsChangeTheRoleOrTemplatesOrEndpoints()
      throws Exception {
    JsonNode before = catalog("s3cat");
    for (String storage :
        List.of(
            s3Storage("https://sts.example.com").replace("s3://bkt/wh", "s3://bkt"),
            s3Storage("https://sts.example.com").replace("role/r", "role/admin"),
            s3Storage("https://attacker.example.com"),
            s3Storage("https://sts.example.com")
                .replace(
                    "}",
                    ", \"readPolicyTemplate\": "
                        + "\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[{\\\"Effect\\\":\\\"Allow\\\",\\\"Action\\\":\\\"s3:*\\\",\\\"Resource\\\":\\\"*\\\"}]}\"}"),
            s3Storage("https://sts.example.com").replace("static1", "other"))) {
      HttpResponse<String> refused =
          update(metadataAdminToken, "s3cat", "{\"storageConfigInfo\": " + storage + "}");
      assertThat(refused.statusCode()).as(storage + " -> " + refused.body()).isIn(400, 403);
      assertThat(catalog("s3cat")).isEqualTo(before);
    }
    assertError(
        update(
            metadataAdminToken,
            "s3cat",
            "{\"storageConfigInfo\": " + s3Storage("https://other.example.com") + "}"),
        403,
        "service_admin");
  }

  @Test
  void aMetadataAdminMayEditOrdinaryPropertiesAndResendTheSameStorage() throws Exception {
    JsonNode current = catalog("files");
    ObjectNode properties =
        ((ObjectNode) current.get("properties")).deepCopy().put("owner", "data-team");
    String body =
        "{\"properties\": "
            + properties
            + ", \"storageConfigInfo\": "
            + current.get("storageConfigInfo")
            + "}";
    HttpResponse<String> updated = update(metadataAdminToken, "files", body);
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(catalog("files").at("/properties/owner").asText()).isEqualTo("data-team");
  }

  @Test
  void allowUnstructuredLocationsIsTheServiceAdminsToSet() throws Exception {
    JsonNode current = catalog("files");
    ObjectNode properties =
        ((ObjectNode) current.get("properties"))
            .deepCopy()
            .put("allowUnstructuredLocations", "true");
    assertError(
        update(metadataAdminToken, "files", "{\"properties\": " + properties + "}"),
        403,
        "service_admin");
    assertThat(catalog("files").at("/properties/allowUnstructuredLocations").isMissingNode())
        .isTrue();
    assertError(
        update(
            server.rootToken(),
            "files",
            "{\"properties\": "
                + properties.deepCopy().put("allowUnstructuredLocations", "yes")
                + "}"),
        400,
        "allowUnstructuredLocations");
    assertThat(
            update(server.rootToken(), "files", "{\"properties\": " + properties + "}")
                .statusCode())
        .isEqualTo(200);
    assertThat(catalog("files").at("/properties/allowUnstructuredLocations").asText())
        .isEqualTo("true");
    ((ObjectNode) properties).remove("allowUnstructuredLocations");
    assertThat(
            update(server.rootToken(), "files", "{\"properties\": " + properties + "}")
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void theBaseLocationIsTheServiceAdminsToMove() throws Exception {
    JsonNode before = catalog("files");
    ObjectNode properties =
        ((ObjectNode) before.get("properties"))
            .deepCopy()
            .put("default-base-location", root.resolve("b").toUri().toString());
    assertError(
        update(metadataAdminToken, "files", "{\"properties\": " + properties + "}"),
        403,
        "service_admin");
    assertThat(catalog("files")).isEqualTo(before);
  }

  @Test
  void storageTypeNeverChangesEvenForTheServiceAdmin() throws Exception {
    JsonNode before = catalog("files");
    assertError(
        update(
            server.rootToken(),
            "files",
            "{\"storageConfigInfo\": {\"storageType\": \"S3\", \"allowedLocations\":"
                + " [\"s3://bkt/wh\"], \"roleArn\": \"arn:aws:iam::1:role/r\", \"region\": \"us-east-1\", \"credentialSource\": \"static1\"},"
                + " \"properties\": {\"default-base-location\": \"s3://bkt/wh\"}}"),
        400,
        "storageType");
    assertThat(catalog("files")).isEqualTo(before);
  }

  @Test
  void allowedLocationsCannotShrinkUnderATable() throws Exception {
    Path wh = root.resolve("narrow");
    String created =
        "{\"catalog\": {\"name\": \"narrow\", \"type\": \"INTERNAL\", \"properties\": {\"default-base-location\": \""
            + wh.toUri()
            + "\"}, \"storageConfigInfo\": {\"storageType\": \"FILE\", \"allowedLocations\": [\""
            + wh.toUri()
            + "\"]}}}";
    assertThat(server.send("POST", M + "/catalogs", created).statusCode()).isEqualTo(201);
    String ns = "/api/catalog/v1/narrow/namespaces";
    assertThat(server.send("POST", ns, "{\"namespace\": [\"keep\"]}").statusCode()).isEqualTo(200);
    HttpResponse<String> table =
        server.send(
            "POST",
            ns + "/keep/tables",
            "{\"name\": \"t\", \"schema\": {\"type\": \"struct\","
                + " \"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": \"id\", \"required\": false, \"type\": \"long\"}]}}");
    assertThat(table.statusCode()).as(table.body()).isEqualTo(200);
    JsonNode before = catalog("narrow");
    String smaller = wh.resolve("elsewhere").toUri().toString();
    String narrowed =
        "{\"properties\": {\"default-base-location\": \""
            + smaller
            + "\"},"
            + " \"storageConfigInfo\": {\"storageType\": \"FILE\", \"allowedLocations\": [\""
            + smaller
            + "\"]}}";
    assertError(update(server.rootToken(), "narrow", narrowed), 400, "a table or view lies at");
    assertThat(catalog("narrow")).isEqualTo(before);
    // Dropping the table frees the way.
    assertThat(server.send("DELETE", ns + "/keep/tables/t", null).statusCode()).isEqualTo(204);
    HttpResponse<String> ok = update(server.rootToken(), "narrow", narrowed);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertThat(catalog("narrow").at("/storageConfigInfo/allowedLocations/0").asText())
        .isEqualTo(smaller);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "file:///etc",
        "ftp://sts.example.com",
        "gopher://x",
        "http://user:pw@sts.example.com",
        "https://sts.example.com/?x=1",
        "https://sts.example.com/#f",
        "//sts.example.com",
        "sts.example.com",
        "http:///nohost"
      })
  void endpointsMustBeHttpUrls(String endpoint) throws Exception {
    JsonNode before = catalog("s3cat");
    HttpResponse<String> refused =
        update(server.rootToken(), "s3cat", "{\"storageConfigInfo\": " + s3Storage(endpoint) + "}");
    assertError(refused, 400, "stsEndpoint");
    assertThat(catalog("s3cat")).isEqualTo(before);
  }

  @Test
  void everyChangeIsAuditedWithOldAndNewValuesAndNoSecret() throws Exception {
    HttpResponse<String> changed =
        update(
            server.rootToken(),
            "s3cat",
            "{\"storageConfigInfo\": " + s3Storage("https://sts.eu.example.com") + "}");
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    assertThat(changed.body()).doesNotContain("not-a-real-secret");
    JsonNode events =
        TestServer.json(server.send("GET", M + "/events?catalog=s3cat&pageSize=100", null).body())
            .get("events");
    JsonNode change = null;
    for (JsonNode event : events) {
      if (event.get("action").asText().equals("changeCatalogStorage")) {
        change = event;
        break;
      }
    }
    assertThat(change).as(events.toString()).isNotNull();
    String text = change.toString();
    assertThat(text)
        .contains("https://sts.example.com")
        .contains("https://sts.eu.example.com")
        .contains("<redacted>")
        .contains(TestServer.CLIENT_ID.equals("test-root") ? "root" : "");
    assertThat(text).doesNotContain(EXTERNAL_ID).doesNotContain("not-a-real-secret");
  }

  @Test
  void aMalformedStorageConfigIsABadRequest() throws Exception {
    assertError(
        update(metadataAdminToken, "files", "{\"storageConfigInfo\": 5}"),
        400,
        "storageConfigInfo");
  }
}
