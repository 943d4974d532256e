package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.sluice.api.CreateCatalogRoleRequest;
import dev.sluice.api.CreatePrincipalRequest;
import dev.sluice.api.CreatePrincipalRoleRequest;
import dev.sluice.api.EntitySpec;
import dev.sluice.api.Events;
import dev.sluice.api.Grant;
import dev.sluice.api.GrantCatalogRoleRequest;
import dev.sluice.api.GrantPrincipalRoleRequest;
import dev.sluice.api.GrantRequest;
import dev.sluice.api.ManagementJson;
import dev.sluice.api.PrincipalWithCredentials;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * Management-API calls as root, asserting success, for setting up authorization tests. Bodies are
 * the contract's records ({@code dev.sluice.api}); answers are read back into them strictly, so a
 * field the server sends that the contract lacks fails the test.
 */
public final class Admin {
  private static final String M = "/api/management/v1";
  private final TestServer server;

  public Admin(TestServer server) {
    this.server = server;
  }

  private HttpResponse<String> ok(String method, String path, Object body) throws Exception {
    String json = body == null ? null : body instanceof String s ? s : json(body);
    HttpResponse<String> response = server.send(method, M + path, json);
    assertThat(response.statusCode())
        .as(method + " " + path + " -> " + response.body())
        .isBetween(200, 204);
    return response;
  }

  /** {@code body} as the JSON the contract gives it. */
  public static String json(Object body) {
    try {
      return ManagementJson.strict().writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An answer read strictly as the contract's {@code type}. */
  public static <T> T read(HttpResponse<String> response, Class<T> type) {
    try {
      return ManagementJson.strict().readValue(response.body(), type);
    } catch (JsonProcessingException e) {
      throw new AssertionError("Not a " + type.getSimpleName() + ": " + response.body(), e);
    }
  }

  /**
   * Creates a principal holding {@code principalRole} (created too); returns {clientId, secret}.
   */
  public String[] principal(String name, String principalRole) throws Exception {
    PrincipalWithCredentials created =
        read(
            ok("POST", "/principals", new CreatePrincipalRequest(EntitySpec.named(name))),
            PrincipalWithCredentials.class);
    if (principalRole != null) {
      if (server.send("GET", M + "/principal-roles/" + principalRole, null).statusCode() == 404) {
        ok(
            "POST",
            "/principal-roles",
            new CreatePrincipalRoleRequest(EntitySpec.named(principalRole)));
      }
      ok(
          "PUT",
          "/principals/" + name + "/principal-roles",
          GrantPrincipalRoleRequest.of(principalRole));
    }
    return new String[] {created.credentials().clientId(), created.credentials().clientSecret()};
  }

  /** Creates a catalog role and grants it to a principal role. */
  public void catalogRole(String catalog, String catalogRole, String principalRole)
      throws Exception {
    ok(
        "POST",
        "/catalogs/" + catalog + "/catalog-roles",
        new CreateCatalogRoleRequest(EntitySpec.named(catalogRole)));
    ok(
        "PUT",
        "/principal-roles/" + principalRole + "/catalog-roles/" + catalog,
        GrantCatalogRoleRequest.of(catalogRole));
  }

  /** A create-principal body: {@code {"principal": {"name": name}}}. */
  public static String principalJson(String name) {
    return json(new CreatePrincipalRequest(EntitySpec.named(name)));
  }

  /** A create-principal-role body. */
  public static String principalRoleJson(String name) {
    return json(new CreatePrincipalRoleRequest(EntitySpec.named(name)));
  }

  /** A create-catalog-role body. */
  public static String catalogRoleJson(String name) {
    return json(new CreateCatalogRoleRequest(EntitySpec.named(name)));
  }

  /** The body granting principal role {@code name} to a principal. */
  public static String grantPrincipalRoleJson(String name) {
    return json(GrantPrincipalRoleRequest.of(name));
  }

  /** The body granting catalog role {@code name} to a principal role. */
  public static String grantCatalogRoleJson(String name) {
    return json(GrantCatalogRoleRequest.of(name));
  }

  /** A grant (or revoke) body. */
  public static String grantJson(Grant grant) {
    return json(new GrantRequest(grant));
  }

  /** GET {@code /events?query} as root, read strictly. */
  public Events events(String query) throws Exception {
    return read(ok("GET", "/events" + (query.isEmpty() ? "" : "?" + query), null), Events.class);
  }

  /** A grant request's JSON: {@code type} catalog, namespace, table or view. */
  public static String grantJson(
      String type, List<String> namespace, String name, String privilege) {
    Grant grant =
        switch (type) {
          case "table" -> Grant.onTable(namespace, name, privilege);
          case "view" -> Grant.onView(namespace, name, privilege);
          default -> new Grant(type, namespace, null, null, privilege);
        };
    return json(new GrantRequest(grant));
  }

  public void grant(String catalog, String catalogRole, Grant grant) throws Exception {
    grant(catalog, catalogRole, grantJson(grant));
  }

  public void grant(String catalog, String catalogRole, String grantJson) throws Exception {
    ok("PUT", "/catalogs/" + catalog + "/catalog-roles/" + catalogRole + "/grants", grantJson);
  }

  public void revoke(String catalog, String catalogRole, Grant grant) throws Exception {
    revoke(catalog, catalogRole, grantJson(grant));
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
