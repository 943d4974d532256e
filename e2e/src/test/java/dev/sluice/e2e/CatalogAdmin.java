package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Management and REST calls as root that the tests on the RGW bed share: an S3 catalog on the test
 * bucket, a read-only principal, a table's REST path.
 */
final class CatalogAdmin {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MANAGEMENT = "/api/management/v1";

  private CatalogAdmin() {}

  /**
   * The body of {@code POST /api/management/v1/catalogs} for the S3 catalog {@code warehouse} on
   * {@code bucket} of the RGW bed {@code rgw}, allowed and based at {@code s3://bucket/wh}, its
   * credentials from the server's source {@code rgw}; {@code delegation} (none: the server's
   * default) lists the access delegation modes it offers.
   */
  static ObjectNode rgwS3Catalog(
      Map<String, String> rgw, String bucket, String warehouse, String... delegation) {
    return rgwS3Catalog(rgw, "s3://" + bucket + "/wh", warehouse, 900, delegation);
  }

  /** As above, allowed and based at {@code location}, its credentials lasting {@code seconds}. */
  static ObjectNode rgwS3Catalog(
      Map<String, String> rgw,
      String location,
      String warehouse,
      int seconds,
      String... delegation) {
    ObjectNode catalog = JSON.createObjectNode().put("name", warehouse).put("type", "INTERNAL");
    catalog.putObject("properties").put("default-base-location", location);
    catalog.set("storageConfigInfo", rgwS3Storage(rgw, location, seconds, delegation));
    ObjectNode body = JSON.createObjectNode();
    body.set("catalog", catalog);
    return body;
  }

  /**
   * The {@code storageConfigInfo} of such a catalog: the RGW bed's role, region and endpoint, path
   * style, the server's credential source {@code rgw}.
   */
  static ObjectNode rgwS3Storage(
      Map<String, String> rgw, String location, int seconds, String... delegation) {
    ObjectNode storage =
        JSON.createObjectNode()
            .put("storageType", "S3")
            .put("roleArn", rgw.get("SLUICE_TEST_RGW_ROLE_ARN"))
            .put("region", rgw.get("SLUICE_TEST_RGW_REGION"))
            .put("endpoint", rgw.get("SLUICE_TEST_RGW_ENDPOINT"))
            .put("pathStyleAccess", true)
            .put("credentialSource", "rgw")
            .put("durationSeconds", seconds);
    storage.putArray("allowedLocations").add(location);
    if (delegation.length > 0) {
      ArrayNode modes = storage.putArray("delegation");
      for (String mode : delegation) {
        modes.add(mode);
      }
    }
    return storage;
  }

  /** A management call that must succeed, returning the response body. */
  interface Calls {
    String ok(String method, String path, String body);
  }

  /**
   * Principal role {@code role} held by {@code principal}, with a catalog role of the same name in
   * {@code warehouse} holding {@code grants} (grant JSON: {@link #catalogGrant}, {@link
   * #namespaceGrant}).
   */
  static void roleWithGrants(
      Calls calls, String warehouse, String role, String principal, List<String> grants) {
    String m = "/api/management/v1";
    String principalRole = "{\"principalRole\":{\"name\":\"" + role + "\"}}";
    String catalogRole = "{\"catalogRole\":{\"name\":\"" + role + "\"}}";
    calls.ok("POST", m + "/principal-roles", principalRole);
    calls.ok("PUT", m + "/principals/" + principal + "/principal-roles", principalRole);
    String catalogRoles = m + "/catalogs/" + warehouse + "/catalog-roles";
    calls.ok("POST", catalogRoles, catalogRole);
    calls.ok("PUT", m + "/principal-roles/" + role + "/catalog-roles/" + warehouse, catalogRole);
    for (String grant : grants) {
      calls.ok("PUT", catalogRoles + "/" + role + "/grants", "{\"grant\":" + grant + "}");
    }
  }

  static String catalogGrant(String privilege) {
    return "{\"type\":\"catalog\",\"privilege\":\"" + privilege + "\"}";
  }

  static String namespaceGrant(String namespace, String privilege) {
    return "{\"type\":\"namespace\",\"namespace\":[\""
        + namespace
        + "\"],\"privilege\":\""
        + privilege
        + "\"}";
  }

  /** A management call as root that must succeed; returns the response body. */
  static String ok(SluiceServerProcess server, String method, String path, String body) {
    HttpResponse<String> response = server.send(method, path, server.fetchToken(), body);
    assertThat(response.statusCode())
        .as("%s %s %s answered: %s", method, path, body, response.body())
        .isBetween(200, 204);
    return response.body();
  }

  /**
   * A new principal {@code reader} whose only grant is TABLE_READ_DATA on {@code namespace} of
   * {@code warehouse} (through the principal role {@code readers} and the catalog role {@code
   * read_only}); returns {clientId, clientSecret}.
   */
  static String[] readOnlyPrincipal(
      SluiceServerProcess server, String warehouse, String namespace) {
    String m = MANAGEMENT;
    JsonNode created =
        json(ok(server, "POST", m + "/principals", "{\"principal\":{\"name\":\"reader\"}}"));
    ok(server, "POST", m + "/principal-roles", "{\"principalRole\":{\"name\":\"readers\"}}");
    ok(
        server,
        "PUT",
        m + "/principals/reader/principal-roles",
        "{\"principalRole\":{\"name\":\"readers\"}}");
    ok(
        server,
        "POST",
        m + "/catalogs/" + warehouse + "/catalog-roles",
        "{\"catalogRole\":{\"name\":\"read_only\"}}");
    ok(
        server,
        "PUT",
        m + "/principal-roles/readers/catalog-roles/" + warehouse,
        "{\"catalogRole\":{\"name\":\"read_only\"}}");
    ok(
        server,
        "PUT",
        m + "/catalogs/" + warehouse + "/catalog-roles/read_only/grants",
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\""
            + namespace
            + "\"],\"privilege\":\"TABLE_READ_DATA\"}}");
    JsonNode credentials = created.path("credentials");
    return new String[] {
      credentials.path("clientId").asText(), credentials.path("clientSecret").asText()
    };
  }

  /**
   * The REST path of the table {@code namespace.table} in {@code warehouse}. The catalog's URL
   * prefix is what {@code GET /v1/config} answers root with; it does not depend on the caller.
   */
  static String tablePath(
      SluiceServerProcess server, String warehouse, String namespace, String table) {
    HttpResponse<String> config =
        server.send(
            "GET",
            "/api/catalog/v1/config?warehouse="
                + URLEncoder.encode(warehouse, StandardCharsets.UTF_8),
            server.fetchToken(),
            null);
    assertThat(config.statusCode()).as("GET /v1/config: %s", config.body()).isEqualTo(200);
    String prefix = json(config.body()).path("overrides").path("prefix").asText(null);
    return "/api/catalog/v1/"
        + (prefix == null ? "" : URLEncoder.encode(prefix, StandardCharsets.UTF_8) + "/")
        + "namespaces/"
        + namespace
        + "/tables/"
        + table;
  }

  /** {@code body} as JSON; an assertion error naming it when it is not. */
  static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + body, e);
    }
  }
}
