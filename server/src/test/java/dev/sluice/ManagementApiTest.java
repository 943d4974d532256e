package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.Catalog;
import dev.sluice.api.Catalogs;
import dev.sluice.api.StorageTypes;
import dev.sluice.api.StorageTypes.FormField;
import dev.sluice.api.StorageTypes.StorageType;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The management API's catalog lifecycle, in Polaris's JSON shape, over real HTTP. */
class ManagementApiTest {
  private static final String CATALOGS = "/api/management/v1/catalogs";
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** A catalog body as raw text, for the malformed and invalid definitions sent on purpose. */
  private static String catalogJson(String name, String base, String allowed) {
    return "{\"catalog\": {\"name\": \""
        + name
        + "\", \"type\": \"INTERNAL\","
        + " \"properties\": {\"default-base-location\": \""
        + base
        + "\"},"
        + " \"storageConfigInfo\": {\"storageType\": \"FILE\", \"allowedLocations\": ["
        + allowed
        + "]}}}";
  }

  /** A FILE catalog {@code name} at {@code base}, allowed only there, posted as root. */
  private static HttpResponse<String> postCatalog(String name, String base) throws Exception {
    return server.postCatalog(
        name, base, Map.of("storageType", "FILE", "allowedLocations", List.of(base)));
  }

  private static Catalog catalog(String name) throws Exception {
    HttpResponse<String> answer = server.send("GET", CATALOGS + "/" + name, null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return Admin.read(answer, Catalog.class);
  }

  @Test
  void catalogLifecycle() throws Exception {
    String base = server.dataDir().resolve("m1").toUri().toString();
    HttpResponse<String> created = postCatalog("m1", base);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    Catalog body = Admin.read(created, Catalog.class);
    assertThat(body.name()).isEqualTo("m1");
    assertThat(body.type()).isEqualTo("INTERNAL");
    assertThat(body.properties().get("default-base-location")).isEqualTo(base);
    assertThat(body.storageConfigInfo().get("storageType").asText()).isEqualTo("FILE");
    assertThat(body.entityVersion()).isEqualTo(1);

    assertThat(postCatalog("m1", base).statusCode()).isEqualTo(409);
    assertThat(catalog("m1").name()).isEqualTo("m1");
    Catalogs list = Admin.read(server.send("GET", CATALOGS, null), Catalogs.class);
    assertThat(list.catalogs()).extracting(Catalog::name).contains("m1");

    HttpResponse<String> updated =
        server.send(
            "PUT",
            CATALOGS + "/m1",
            Admin.json(
                new UpdateCatalogRequest(
                    1L, Map.of("default-base-location", base, "owner", "data"), null)));
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(Admin.read(updated, Catalog.class).entityVersion()).isEqualTo(2);
    assertThat(Admin.read(updated, Catalog.class).properties().get("owner")).isEqualTo("data");
    // A writer holding the old version is refused.
    HttpResponse<String> stale =
        server.send(
            "PUT",
            CATALOGS + "/m1",
            Admin.json(new UpdateCatalogRequest(1L, Map.of("default-base-location", base), null)));
    assertThat(stale.statusCode()).isEqualTo(409);
    assertThat(catalog("m1").properties().get("owner")).isEqualTo("data");

    // Non-empty catalogs cannot be deleted.
    assertThat(
            server
                .send("POST", "/api/catalog/v1/m1/namespaces", "{\"namespace\": [\"ns\"]}")
                .statusCode())
        .isEqualTo(200);
    assertThat(server.send("DELETE", CATALOGS + "/m1", null).statusCode()).isEqualTo(409);
    assertThat(server.send("DELETE", "/api/catalog/v1/m1/namespaces/ns", null).statusCode())
        .isEqualTo(204);
    assertThat(server.send("DELETE", CATALOGS + "/m1", null).statusCode()).isEqualTo(204);
    assertThat(server.send("GET", CATALOGS + "/m1", null).statusCode()).isEqualTo(404);
    assertThat(server.send("DELETE", CATALOGS + "/m1", null).statusCode()).isEqualTo(404);
  }

  /**
   * The storage types and each one's form fields, as the backends declare them: what the console
   * builds its catalog form from. Any authenticated principal may read it; nobody else.
   */
  @Test
  void storageTypesListEachBackendsFormFields() throws Exception {
    String[] nobody = new Admin(server).principal("form_reader", null);
    HttpResponse<String> answer =
        server.sendAs(
            server.token(nobody[0], nobody[1]), "GET", "/api/management/v1/storage-types", null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    List<StorageType> types = Admin.read(answer, StorageTypes.class).storageTypes();
    assertThat(types)
        .extracting(StorageType::storageType)
        .containsExactlyInAnyOrder("FILE", "S3", "R2", "GCS", "AZURE");
    List<FormField> s3 = null;
    for (StorageType type : types) {
      if (type.storageType().equals("S3")) {
        s3 = type.fields();
      }
    }
    assertThat(s3).isNotNull();
    assertThat(s3)
        .extracting(FormField::key)
        .startsWith("region", "roleArn", "endpoint")
        .contains("durationSeconds", "delegation");
    assertThat(s3.get(1).label()).isEqualTo("Role ARN");
    assertThat(s3.get(1).hint()).contains("AssumeRole");
    assertThat(s3).extracting(FormField::kind).contains("text", "boolean", "number", "list");
    assertThat(server.sendAs(null, "GET", "/api/management/v1/storage-types", null).statusCode())
        .isEqualTo(401);
  }

  @Test
  void invalidDefinitionsAre400AndCreateNothing() throws Exception {
    String base = server.dataDir().resolve("m2").toUri().toString();
    String[] bad = {
      "{\"catalog\": {\"name\": \"m2\", \"type\": \"INTERNAL\", \"properties\": {}, \"storageConfigInfo\": {\"storageType\": \"FILE\"}}}",
      "{\"catalog\": {\"name\": \"m2\", \"properties\": {\"default-base-location\": \""
          + base
          + "\"}}}",
      "{\"catalog\": {\"name\": \"m2\", \"properties\": {\"default-base-location\": \""
          + base
          + "\"},"
          + " \"storageConfigInfo\": {\"storageType\": \"NFS\"}}}",
      "{\"catalog\": {\"name\": \"m2\", \"type\": \"EXTERNAL\", \"properties\": {\"default-base-location\": \""
          + base
          + "\"},"
          + " \"storageConfigInfo\": {\"storageType\": \"FILE\"}}}",
      catalogJson("m2", base, "\"file:/somewhere/else\""),
      catalogJson("m2", base, "42"),
      catalogJson("m\u0001x", base, "\"" + base + "\""),
      "{\"catalog\": {\"name\": 5}}",
      "{\"catalog\": \"m2\"}",
      "not json",
    };
    for (String body : bad) {
      HttpResponse<String> response = server.send("POST", CATALOGS, body);
      assertThat(response.statusCode()).as(body + " -> " + response.body()).isEqualTo(400);
      assertThat(TestServer.json(response.body()).get("error").get("type").asText())
          .isIn("BadRequestException", "IllegalArgumentException");
    }
    assertThat(server.send("GET", CATALOGS + "/m2", null).statusCode()).isEqualTo(404);
  }

  @Test
  void allowedLocationsCompareSegmentBySegment() throws Exception {
    String root = server.dataDir().resolve("seg").toUri().toString().replaceAll("/$", "");
    String allowed = root + "/a";
    HttpResponse<String> created = postCatalog("seg", allowed);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> sibling =
        server.send(
            "POST",
            "/api/catalog/v1/seg/namespaces",
            "{\"namespace\": [\"n1\"], \"properties\": {\"location\": \"" + root + "/ab\"}}");
    assertThat(sibling.statusCode()).as(sibling.body()).isEqualTo(403);
    HttpResponse<String> child =
        server.send(
            "POST",
            "/api/catalog/v1/seg/namespaces",
            "{\"namespace\": [\"n2\"], \"properties\": {\"location\": \"" + root + "/a/b\"}}");
    assertThat(child.statusCode()).as(child.body()).isEqualTo(200);
    HttpResponse<String> sameViaShortForm =
        server.send(
            "POST",
            "/api/catalog/v1/seg/namespaces",
            "{\"namespace\": [\"n3\"], \"properties\": {\"location\": \""
                + root.replace("file:///", "file:/")
                + "/a/c\"}}");
    assertThat(sameViaShortForm.statusCode()).as(sameViaShortForm.body()).isEqualTo(200);
  }
}
