package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;

/** Management-API calls as root, asserting success, for setting up authorization tests. */
public final class Admin {
  private static final String M = "/api/management/v1";
  private final TestServer server;

  public Admin(TestServer server) {
    this.server = server;
  }

  private HttpResponse<String> ok(String method, String path, String body) throws Exception {
    HttpResponse<String> response = server.send(method, M + path, body);
    assertThat(response.statusCode())
        .as(method + " " + path + " -> " + response.body())
        .isBetween(200, 204);
    return response;
  }

  /**
   * Creates a principal holding {@code principalRole} (created too); returns {clientId, secret}.
   */
  public String[] principal(String name, String principalRole) throws Exception {
    JsonNode created =
        TestServer.json(
                ok("POST", "/principals", "{\"principal\": {\"name\": \"" + name + "\"}}").body())
            .get("credentials");
    if (principalRole != null) {
      if (server.send("GET", M + "/principal-roles/" + principalRole, null).statusCode() == 404) {
        ok(
            "POST",
            "/principal-roles",
            "{\"principalRole\": {\"name\": \"" + principalRole + "\"}}");
      }
      ok(
          "PUT",
          "/principals/" + name + "/principal-roles",
          "{\"principalRole\": {\"name\": \"" + principalRole + "\"}}");
    }
    return new String[] {created.get("clientId").asText(), created.get("clientSecret").asText()};
  }

  /** Creates a catalog role and grants it to a principal role. */
  public void catalogRole(String catalog, String catalogRole, String principalRole)
      throws Exception {
    ok(
        "POST",
        "/catalogs/" + catalog + "/catalog-roles",
        "{\"catalogRole\": {\"name\": \"" + catalogRole + "\"}}");
    ok(
        "PUT",
        "/principal-roles/" + principalRole + "/catalog-roles/" + catalog,
        "{\"catalogRole\": {\"name\": \"" + catalogRole + "\"}}");
  }

  public static String grantJson(
      String type, List<String> namespace, String name, String privilege) {
    StringBuilder sb = new StringBuilder("{\"grant\": {\"type\": \"" + type + "\"");
    if (namespace != null) {
      sb.append(", \"namespace\": [");
      for (int i = 0; i < namespace.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append('"').append(namespace.get(i)).append('"');
      }
      sb.append(']');
    }
    if (type.equals("table")) {
      sb.append(", \"tableName\": \"").append(name).append('"');
    } else if (type.equals("view")) {
      sb.append(", \"viewName\": \"").append(name).append('"');
    }
    return sb.append(", \"privilege\": \"").append(privilege).append("\"}}").toString();
  }

  public void grant(String catalog, String catalogRole, String grantJson) throws Exception {
    ok("PUT", "/catalogs/" + catalog + "/catalog-roles/" + catalogRole + "/grants", grantJson);
  }

  public void revoke(String catalog, String catalogRole, String grantJson) throws Exception {
    ok("POST", "/catalogs/" + catalog + "/catalog-roles/" + catalogRole + "/grants", grantJson);
  }

  /** Revokes without asserting; returns the status (404 when the grant no longer exists). */
  public int tryRevoke(String catalog, String catalogRole, String grantJson) throws Exception {
    return server
        .send(
            "POST",
            M + "/catalogs/" + catalog + "/catalog-roles/" + catalogRole + "/grants",
            grantJson)
        .statusCode();
  }
}
