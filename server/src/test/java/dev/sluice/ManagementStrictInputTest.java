package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.Catalog;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.testing.Admin;
import dev.sluice.testing.ErrorShape;
import dev.sluice.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The management API reads bodies by its contract: a field it does not have, a missing required
 * field, a value of the wrong type or a repeated key is a 400 in Iceberg's ErrorResponse shape that
 * names the field, also inside {@code storageConfigInfo} (where a misspelled key used to be
 * ignored), and nothing is created. The OpenAPI document is served without a token.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ManagementStrictInputTest {
  private static final String M = "/api/management/v1";
  private TestServer server;
  private String warehouse;

  @BeforeAll
  void start() throws Exception {
    server = TestServer.startH2();
    warehouse = server.dataDir().resolve("wh").toUri().toString();
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private String catalog(String name, String storageExtra, String catalogExtra) {
    return "{\"catalog\": {\"name\": \""
        + name
        + "\", \"type\": \"INTERNAL\", \"properties\": {\"default-base-location\": \""
        + warehouse
        + "\"}, \"storageConfigInfo\": {\"storageType\": \"FILE\""
        + storageExtra
        + "}"
        + catalogExtra
        + "}}";
  }

  private HttpResponse<String> refused(String method, String path, String body, String message)
      throws Exception {
    HttpResponse<String> response = server.send(method, M + path, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(
            ErrorShape.icebergProblem(
                400, response.headers().firstValue("Content-Type").orElse(null), response.body()))
        .as(response.body())
        .isNull();
    assertThat(ErrorShape.hasStackTrace(response.body())).isFalse();
    assertThat(response.body()).contains("BadRequestException");
    assertThat(response.body()).contains(message);
    return response;
  }

  @Test
  void unknownMissingAndMistypedFieldsAreRefusedByName() throws Exception {
    refused(
        "POST", "/catalogs", catalog("c1", "", ", \"nmae\": \"x\""), "Unknown field: catalog.nmae");
    refused(
        "POST",
        "/catalogs",
        catalog("c2", ", \"allowedLocation\": []", ""),
        "Unknown field: storageConfigInfo.allowedLocation");
    refused(
        "POST",
        "/catalogs",
        "{\"catalog\": {\"type\": \"INTERNAL\", \"storageConfigInfo\": {\"storageType\": \"FILE\"}}}",
        "Missing field: catalog.name");
    refused("POST", "/catalogs", "{\"catalog\": {\"name\": 7}}", "Invalid field catalog.name");
    refused("POST", "/catalogs", catalog("c3", "", "") + " {}", "Invalid JSON body");
    refused(
        "POST",
        "/catalogs",
        "{\"catalog\": {\"name\": \"a\", \"name\": \"b\", \"storageConfigInfo\": {}}}",
        "Duplicate field");
    refused(
        "POST",
        "/catalogs",
        "{\"verify\": \"yes\", " + catalog("c4", "", "").substring(1),
        "Invalid field verify");
    refused(
        "POST",
        "/principals",
        "{\"principal\": {\"name\": \"p\", \"secret\": \"x\"}}",
        "Unknown field: principal.secret");
    refused(
        "POST", "/principal-roles", "{\"principalRole\": {}}", "Missing field: principalRole.name");
    refused("POST", "/principal-roles", "[]", "Invalid request");
    // A body without its wrapper names the wrapper once.
    refused("POST", "/principal-roles", "{}", "Missing field: principalRole\"");
    // Nothing was created by any of them.
    assertThat(server.send("GET", M + "/catalogs", null).body()).doesNotContain("\"c1\"", "\"c2\"");
    assertThat(server.send("GET", M + "/principals/p", null).statusCode()).isEqualTo(404);
  }

  @Test
  void aMisspelledStorageKeyIsRefusedNamingItAndTheKeysItsTypeTakes() throws Exception {
    HttpResponse<String> response =
        server.postCatalog(
            "s3typo",
            warehouse,
            java.util.Map.of(
                "storageType", "S3",
                "allowedLocations", java.util.List.of("s3://b/w"),
                "regoin", "us-east-1"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
    assertThat(response.body())
        .contains("Unknown field: storageConfigInfo.regoin")
        .contains("storageType S3 takes")
        .contains("region");
    // An update that replaces the storage configuration is checked the same way.
    String name = server.createCatalog("strict");
    refused(
        "PUT",
        "/catalogs/" + name,
        "{\"storageConfigInfo\": {\"storageType\": \"FILE\", \"allowedLocations\": [\""
            + warehouse
            + "\"], \"endpoint\": \"http://x\"}}",
        "Unknown field: storageConfigInfo.endpoint");
    refused("PUT", "/catalogs/" + name, "{\"propertys\": {}}", "Unknown field: propertys");
    // An unknown privilege is answered with the ones there are.
    refused(
        "PUT",
        "/catalogs/" + name + "/catalog-roles/catalog_admin/grants",
        "{\"grant\": {\"type\": \"catalog\", \"privilege\": \"TABLE_READ\"}}",
        "Unknown privilege: TABLE_READ (one of [CATALOG_MANAGE_ACCESS");
    refused(
        "PUT",
        "/catalogs/" + name + "/catalog-roles/catalog_admin/grants",
        "{\"grant\": {\"type\": \"catalog\", \"tableName\": \"t\", \"privilege\": \"TABLE_READ_DATA\"}}",
        "Invalid field grant.tableName: a catalog grant has none");
    // A properties-only update is not held to the storage keys again.
    Catalog current = Admin.read(server.send("GET", M + "/catalogs/" + name, null), Catalog.class);
    java.util.Map<String, String> properties = new java.util.HashMap<>(current.properties());
    properties.put("a", "b");
    HttpResponse<String> update =
        server.send(
            "PUT",
            M + "/catalogs/" + name,
            Admin.json(new UpdateCatalogRequest(current.entityVersion(), properties, null)));
    assertThat(update.statusCode()).as(update.body()).isEqualTo(200);
  }

  @Test
  void theOpenApiDocumentIsServedWithoutAToken() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> yaml =
        client.send(
            HttpRequest.newBuilder(URI.create(server.baseUrl() + M + "/openapi.yaml")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(yaml.statusCode()).isEqualTo(200);
    assertThat(yaml.headers().firstValue("Content-Type").orElse("")).startsWith("application/yaml");
    assertThat(yaml.body()).startsWith("openapi: 3.0.3").contains("operationId: createCatalog");
    HttpResponse<String> json =
        client.send(
            HttpRequest.newBuilder(URI.create(server.baseUrl() + M + "/openapi.json")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(TestServer.json(json.body()).path("paths").has("/catalogs")).isTrue();
  }
}
