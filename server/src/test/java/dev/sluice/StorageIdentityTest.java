package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Catalog;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.Event;
import dev.sluice.api.Grant;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  private static final JsonNodeFactory OBJECTS = JsonNodeFactory.instance;
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
      admin.grant(catalog, "meta", Grant.onCatalog("CATALOG_MANAGE_METADATA"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String fileCatalog() {
    String a = root.resolve("a").toUri().toString();
    ObjectNode storage = OBJECTS.objectNode().put("storageType", "FILE");
    storage.putArray("allowedLocations").add(a).add(root.resolve("b").toUri().toString());
    return Admin.json(
        new CreateCatalogRequest(
            Catalog.of("files", Map.of("default-base-location", a), storage), null));
  }

  private static String s3Catalog() {
    return Admin.json(
        new CreateCatalogRequest(
            Catalog.of(
                "s3cat",
                Map.of("default-base-location", "s3://bkt/wh"),
                s3Storage("https://sts.example.com")),
            null));
  }

  private static ObjectNode s3Storage(String stsEndpoint) {
    ObjectNode storage = OBJECTS.objectNode().put("storageType", "S3");
    storage.putArray("allowedLocations").add("s3://bkt/wh");
    return storage
        .put("roleArn", "arn:aws:iam::1:role/r")
        .put("externalId", EXTERNAL_ID)
        .put("region", "us-east-1")
        .put("stsEndpoint", stsEndpoint)
        .put("credentialSource", "static1");
  }

  private static Catalog catalog(String name) throws Exception {
    HttpResponse<String> answer = server.send("GET", M + "/catalogs/" + name, null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return Admin.read(answer, Catalog.class);
  }

  /** {@code catalog}'s properties with {@code key} set to {@code value}. */
  private static Map<String, String> with(Catalog catalog, String key, String value) {
    Map<String, String> properties = new LinkedHashMap<>(catalog.properties());
    properties.put(key, value);
    return properties;
  }

  private static HttpResponse<String> update(String token, String name, UpdateCatalogRequest body)
      throws Exception {
    return update(token, name, Admin.json(body));
  }

  private static HttpResponse<String> updateStorage(String token, String name, ObjectNode storage)
      throws Exception {
    return update(token, name, new UpdateCatalogRequest(null, null, storage));
  }

  private static HttpResponse<String> updateProperties(
      String token, String name, Map<String, String> properties) throws Exception {
    return update(token, name, new UpdateCatalogRequest(null, properties, null));
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
    Catalog before = catalog("s3cat");
    ObjectNode wider = s3Storage("https://sts.example.com");
    wider.putArray("allowedLocations").add("s3://bkt");
    for (ObjectNode storage :
        List.of(
            wider,
            s3Storage("https://sts.example.com").put("roleArn", "arn:aws:iam::1:role/admin"),
            s3Storage("https://attacker.example.com"),
            s3Storage("https://sts.example.com")
                .put(
                    "readPolicyTemplate",
                    "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                        + "\"Action\":\"s3:*\",\"Resource\":\"*\"}]}"),
            s3Storage("https://sts.example.com").put("credentialSource", "other"))) {
      HttpResponse<String> refused = updateStorage(metadataAdminToken, "s3cat", storage);
      assertThat(refused.statusCode()).as(storage + " -> " + refused.body()).isIn(400, 403);
      assertThat(catalog("s3cat")).isEqualTo(before);
    }
    assertError(
        updateStorage(metadataAdminToken, "s3cat", s3Storage("https://other.example.com")),
        403,
        "service_admin");
  }

  @Test
  void aMetadataAdminMayEditOrdinaryPropertiesAndResendTheSameStorage() throws Exception {
    Catalog current = catalog("files");
    HttpResponse<String> updated =
        update(
            metadataAdminToken,
            "files",
            new UpdateCatalogRequest(
                null, with(current, "owner", "data-team"), current.storageConfigInfo()));
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(catalog("files").properties().get("owner")).isEqualTo("data-team");
  }

  @Test
  void allowUnstructuredLocationsIsTheServiceAdminsToSet() throws Exception {
    Map<String, String> properties = with(catalog("files"), "allowUnstructuredLocations", "true");
    assertError(updateProperties(metadataAdminToken, "files", properties), 403, "service_admin");
    assertThat(catalog("files").properties()).doesNotContainKey("allowUnstructuredLocations");
    Map<String, String> yes = new LinkedHashMap<>(properties);
    yes.put("allowUnstructuredLocations", "yes");
    assertError(
        updateProperties(server.rootToken(), "files", yes), 400, "allowUnstructuredLocations");
    assertThat(updateProperties(server.rootToken(), "files", properties).statusCode())
        .isEqualTo(200);
    assertThat(catalog("files").properties().get("allowUnstructuredLocations")).isEqualTo("true");
    properties.remove("allowUnstructuredLocations");
    assertThat(updateProperties(server.rootToken(), "files", properties).statusCode())
        .isEqualTo(200);
  }

  @Test
  void theBaseLocationIsTheServiceAdminsToMove() throws Exception {
    Catalog before = catalog("files");
    Map<String, String> properties =
        with(before, "default-base-location", root.resolve("b").toUri().toString());
    assertError(updateProperties(metadataAdminToken, "files", properties), 403, "service_admin");
    assertThat(catalog("files")).isEqualTo(before);
  }

  @Test
  void storageTypeNeverChangesEvenForTheServiceAdmin() throws Exception {
    Catalog before = catalog("files");
    ObjectNode s3 = OBJECTS.objectNode().put("storageType", "S3");
    s3.putArray("allowedLocations").add("s3://bkt/wh");
    s3.put("roleArn", "arn:aws:iam::1:role/r")
        .put("region", "us-east-1")
        .put("credentialSource", "static1");
    assertError(
        update(
            server.rootToken(),
            "files",
            new UpdateCatalogRequest(null, Map.of("default-base-location", "s3://bkt/wh"), s3)),
        400,
        "storageType");
    assertThat(catalog("files")).isEqualTo(before);
  }

  @Test
  void allowedLocationsCannotShrinkUnderATable() throws Exception {
    String wh = root.resolve("narrow").toUri().toString();
    assertThat(
            server
                .postCatalog(
                    "narrow", wh, Map.of("storageType", "FILE", "allowedLocations", List.of(wh)))
                .statusCode())
        .isEqualTo(201);
    String ns = "/api/catalog/v1/narrow/namespaces";
    assertThat(server.send("POST", ns, "{\"namespace\": [\"keep\"]}").statusCode()).isEqualTo(200);
    HttpResponse<String> table =
        server.send(
            "POST",
            ns + "/keep/tables",
            "{\"name\": \"t\", \"schema\": {\"type\": \"struct\","
                + " \"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": \"id\", \"required\": false, \"type\": \"long\"}]}}");
    assertThat(table.statusCode()).as(table.body()).isEqualTo(200);
    Catalog before = catalog("narrow");
    String smaller = root.resolve("narrow").resolve("elsewhere").toUri().toString();
    ObjectNode storage = OBJECTS.objectNode().put("storageType", "FILE");
    storage.putArray("allowedLocations").add(smaller);
    UpdateCatalogRequest narrowed =
        new UpdateCatalogRequest(null, Map.of("default-base-location", smaller), storage);
    assertError(update(server.rootToken(), "narrow", narrowed), 400, "a table or view lies at");
    assertThat(catalog("narrow")).isEqualTo(before);
    // Dropping the table frees the way.
    assertThat(server.send("DELETE", ns + "/keep/tables/t", null).statusCode()).isEqualTo(204);
    HttpResponse<String> ok = update(server.rootToken(), "narrow", narrowed);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertThat(catalog("narrow").storageConfigInfo().at("/allowedLocations/0").asText())
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
    Catalog before = catalog("s3cat");
    HttpResponse<String> refused = updateStorage(server.rootToken(), "s3cat", s3Storage(endpoint));
    assertError(refused, 400, "stsEndpoint");
    assertThat(catalog("s3cat")).isEqualTo(before);
  }

  @Test
  void everyChangeIsAuditedWithOldAndNewValuesAndNoSecret() throws Exception {
    HttpResponse<String> changed =
        updateStorage(server.rootToken(), "s3cat", s3Storage("https://sts.eu.example.com"));
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    assertThat(changed.body()).doesNotContain("not-a-real-secret");
    List<Event> events = new Admin(server).events("catalog=s3cat&pageSize=100").events();
    Event change = null;
    for (Event event : events) {
      if (event.action().equals("changeCatalogStorage")) {
        change = event;
        break;
      }
    }
    assertThat(change).as(events.toString()).isNotNull();
    String text = Admin.json(change);
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
