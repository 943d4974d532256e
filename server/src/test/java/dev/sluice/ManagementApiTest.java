package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
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

  @Test
  void catalogLifecycle() throws Exception {
    String base = server.dataDir().resolve("m1").toUri().toString();
    HttpResponse<String> created =
        server.send("POST", CATALOGS, catalogJson("m1", base, "\"" + base + "\""));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode body = TestServer.json(created.body());
    assertThat(body.get("name").asText()).isEqualTo("m1");
    assertThat(body.get("type").asText()).isEqualTo("INTERNAL");
    assertThat(body.get("properties").get("default-base-location").asText()).isEqualTo(base);
    assertThat(body.get("storageConfigInfo").get("storageType").asText()).isEqualTo("FILE");
    assertThat(body.get("entityVersion").asLong()).isEqualTo(1);

    assertThat(
            server.send("POST", CATALOGS, catalogJson("m1", base, "\"" + base + "\"")).statusCode())
        .isEqualTo(409);
    assertThat(
            TestServer.json(server.send("GET", CATALOGS + "/m1", null).body()).get("name").asText())
        .isEqualTo("m1");
    JsonNode list = TestServer.json(server.send("GET", CATALOGS, null).body()).get("catalogs");
    assertThat(list.findValuesAsText("name")).contains("m1");

    HttpResponse<String> updated =
        server.send(
            "PUT",
            CATALOGS + "/m1",
            "{\"currentEntityVersion\": 1, \"properties\": {\"default-base-location\": \""
                + base
                + "\", \"owner\": \"data\"}}");
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(TestServer.json(updated.body()).get("entityVersion").asLong()).isEqualTo(2);
    assertThat(TestServer.json(updated.body()).get("properties").get("owner").asText())
        .isEqualTo("data");
    // A writer holding the old version is refused.
    HttpResponse<String> stale =
        server.send(
            "PUT",
            CATALOGS + "/m1",
            "{\"currentEntityVersion\": 1, \"properties\": {\"default-base-location\": \""
                + base
                + "\"}}");
    assertThat(stale.statusCode()).isEqualTo(409);
    assertThat(
            TestServer.json(server.send("GET", CATALOGS + "/m1", null).body())
                .get("properties")
                .get("owner")
                .asText())
        .isEqualTo("data");

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
    JsonNode types = TestServer.json(answer.body()).get("storageTypes");
    assertThat(types.findValuesAsText("storageType"))
        .containsExactlyInAnyOrder("FILE", "S3", "R2", "GCS", "AZURE");
    JsonNode s3 = null;
    for (JsonNode type : types) {
      if (type.get("storageType").asText().equals("S3")) {
        s3 = type.get("fields");
      }
    }
    assertThat(s3).isNotNull();
    assertThat(s3.findValuesAsText("key"))
        .startsWith("region", "roleArn", "endpoint")
        .contains("durationSeconds", "delegation");
    assertThat(s3.get(1).get("label").asText()).isEqualTo("Role ARN");
    assertThat(s3.get(1).get("hint").asText()).contains("AssumeRole");
    assertThat(s3.findValuesAsText("kind")).contains("text", "boolean", "number", "list");
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
    HttpResponse<String> created =
        server.send("POST", CATALOGS, catalogJson("seg", allowed, "\"" + allowed + "\""));
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
