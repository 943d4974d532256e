package dev.sluice.e2e;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

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
    ok(
        "POST",
        M + "/catalogs",
        CatalogAdmin.rgwS3Catalog(bed.rgw(), location, name, seconds).toString());
  }

  /** Changes how long the catalog's credentials last (the rest of its storage stays as made). */
  void setCredentialSeconds(String name, String dir, int seconds) throws Exception {
    JsonNode current = JSON.readTree(ok("GET", M + "/catalogs/" + name, null));
    ObjectNode body =
        JSON.createObjectNode().put("currentEntityVersion", current.path("entityVersion").asLong());
    body.set(
        "storageConfigInfo",
        CatalogAdmin.rgwS3Storage(bed.rgw(), "s3://" + bed.bucket() + "/" + dir, seconds));
    ok("PUT", M + "/catalogs/" + name, body.toString());
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
    return CatalogAdmin.ok(server, method, path, body);
  }
}
