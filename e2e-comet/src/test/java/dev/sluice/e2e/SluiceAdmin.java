package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;

/**
 * The Comet tests' Sluice side, set up as root through the management API: S3 catalogs on the test
 * bucket of the RGW bed, the reader principal, its roles and grants.
 */
final class SluiceAdmin {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String M = "/api/management/v1";

  private final SluiceServerProcess server;
  private final CometTestBed bed;

  SluiceAdmin(SluiceServerProcess server, CometTestBed bed) {
    this.server = requireNonNull(server, "server");
    this.bed = requireNonNull(bed, "bed");
  }

  /** A catalog on {@code s3://<bucket>/<dir>} whose credentials last {@code seconds}. */
  void createCatalog(String name, String dir, int seconds) {
    String location = "s3://" + bed.bucket() + "/" + dir;
    ObjectNode catalog = JSON.createObjectNode().put("name", name).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", location);
    catalog.set("storageConfigInfo", storage(location, seconds));
    ObjectNode body = JSON.createObjectNode();
    body.set("catalog", catalog);
    ok("POST", M + "/catalogs", body.toString());
  }

  /** Changes how long the catalog's credentials last (the rest of its storage stays as made). */
  void setCredentialSeconds(String name, String dir, int seconds) throws Exception {
    JsonNode current = JSON.readTree(ok("GET", M + "/catalogs/" + name, null));
    ObjectNode body =
        JSON.createObjectNode().put("currentEntityVersion", current.path("entityVersion").asLong());
    body.set("storageConfigInfo", storage("s3://" + bed.bucket() + "/" + dir, seconds));
    ok("PUT", M + "/catalogs/" + name, body.toString());
  }

  private ObjectNode storage(String location, int seconds) {
    ObjectNode storage =
        JSON.createObjectNode()
            .put("storageType", "S3")
            .put("roleArn", bed.env("SLUICE_TEST_RGW_ROLE_ARN"))
            .put("region", bed.env("SLUICE_TEST_RGW_REGION"))
            .put("endpoint", bed.env("SLUICE_TEST_RGW_ENDPOINT"))
            .put("pathStyleAccess", true)
            .put("credentialSource", "rgw")
            .put("durationSeconds", seconds);
    storage.putArray("allowedLocations").add(location);
    return storage;
  }

  /** A principal in a principal role of its own; answers its {@code clientId:secret}. */
  String createPrincipal(String name, String principalRole) throws Exception {
    JsonNode created =
        JSON.readTree(ok("POST", M + "/principals", "{\"principal\":{\"name\":\"" + name + "\"}}"));
    ok("POST", M + "/principal-roles", "{\"principalRole\":{\"name\":\"" + principalRole + "\"}}");
    ok(
        "PUT",
        M + "/principals/" + name + "/principal-roles",
        "{\"principalRole\":{\"name\":\"" + principalRole + "\"}}");
    JsonNode credentials = created.path("credentials");
    return credentials.path("clientId").asText() + ":" + credentials.path("clientSecret").asText();
  }

  /** A catalog role in {@code catalog}, given to {@code principalRole}. */
  void createCatalogRole(String catalog, String catalogRole, String principalRole) {
    String role = "{\"catalogRole\":{\"name\":\"" + catalogRole + "\"}}";
    ok("POST", M + "/catalogs/" + catalog + "/catalog-roles", role);
    ok("PUT", M + "/principal-roles/" + principalRole + "/catalog-roles/" + catalog, role);
  }

  /** Grants (or revokes) TABLE_READ_DATA on {@code ns.table} to the catalog role. */
  void grantRead(String catalog, String catalogRole, String ns, String table, boolean add) {
    ok(
        add ? "PUT" : "POST",
        M + "/catalogs/" + catalog + "/catalog-roles/" + catalogRole + "/grants",
        "{\"grant\":{\"type\":\"table\",\"namespace\":[\""
            + ns
            + "\"],\"tableName\":\""
            + table
            + "\",\"privilege\":\"TABLE_READ_DATA\"}}");
  }

  private String ok(String method, String path, String body) {
    HttpResponse<String> response = server.send(method, path, server.fetchToken(), body);
    assertThat(response.statusCode())
        .as("%s %s %s answered: %s", method, path, body, response.body())
        .isBetween(200, 204);
    return response.body();
  }
}
