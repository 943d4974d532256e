package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.api.Grant;
import dev.sluice.api.Grants;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * No admin call locks a catalog's access away: the last catalog role holding CATALOG_MANAGE_ACCESS
 * is neither deleted nor stripped of it without {@code force=true}; and once a catalog has no such
 * role, the service admin still repairs its roles and grants. The root principal and {@code
 * service_admin} are never deleted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CatalogLockOutTest {
  private static final String M = "/api/management/v1";
  private static final String MANAGE = Admin.grantJson(Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
  private TestServer server;
  private String catalog;

  @BeforeAll
  void start() throws Exception {
    server = TestServer.startH2();
    catalog = server.createCatalog("lockout");
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    return server.send(method, M + "/catalogs/" + catalog + path, body);
  }

  private List<Grant> grants(String catalogRole) throws Exception {
    HttpResponse<String> answer = send("GET", "/catalog-roles/" + catalogRole + "/grants", null);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return Admin.read(answer, Grants.class).grants();
  }

  @Test
  void theLastAccessManagerNeedsForceAndTheServiceAdminRepairsACatalogWithNone() throws Exception {
    HttpResponse<String> delete = send("DELETE", "/catalog-roles/catalog_admin", null);
    assertThat(delete.statusCode()).as(delete.body()).isEqualTo(400);
    assertThat(delete.body())
        .contains("BadRequestException")
        .contains("no catalog role holding CATALOG_MANAGE_ACCESS")
        .contains("force=true");
    HttpResponse<String> strip = send("POST", "/catalog-roles/catalog_admin/grants", MANAGE);
    assertThat(strip.statusCode()).as(strip.body()).isEqualTo(400);
    assertThat(send("DELETE", "/catalog-roles/catalog_admin?force=maybe", null).statusCode())
        .isEqualTo(400);
    // Nothing changed: catalog_admin still manages.
    assertThat(grants("catalog_admin")).contains(Grant.onCatalog("CATALOG_MANAGE_ACCESS"));

    // With a second manager, the first may go.
    assertThat(send("POST", "/catalog-roles", Admin.catalogRoleJson("ops")).statusCode())
        .isEqualTo(201);
    assertThat(send("PUT", "/catalog-roles/ops/grants", MANAGE).statusCode()).isEqualTo(201);
    assertThat(send("POST", "/catalog-roles/catalog_admin/grants", MANAGE).statusCode())
        .isEqualTo(201);
    assertThat(send("DELETE", "/catalog-roles/catalog_admin", null).statusCode()).isEqualTo(204);
    // Now ops is the last: refused, then forced.
    assertThat(send("DELETE", "/catalog-roles/ops", null).statusCode()).isEqualTo(400);
    assertThat(send("DELETE", "/catalog-roles/ops?force=true", null).statusCode()).isEqualTo(204);

    // No catalog role manages access now: the service admin still lists, creates and grants.
    HttpResponse<String> roles = send("GET", "/catalog-roles", null);
    assertThat(roles.statusCode()).as(roles.body()).isEqualTo(200);
    assertThat(send("POST", "/catalog-roles", Admin.catalogRoleJson("repaired")).statusCode())
        .isEqualTo(201);
    assertThat(send("PUT", "/catalog-roles/repaired/grants", MANAGE).statusCode()).isEqualTo(201);
    assertThat(
            server
                .send(
                    "PUT",
                    M + "/principal-roles/service_admin/catalog-roles/" + catalog,
                    Admin.grantCatalogRoleJson("repaired"))
                .statusCode())
        .isEqualTo(201);
    assertThat(grants("repaired")).contains(Grant.onCatalog("CATALOG_MANAGE_ACCESS"));
  }

  @Test
  void rootAndServiceAdminAreNeverDeleted() throws Exception {
    assertThat(server.send("DELETE", M + "/principals/root", null).statusCode()).isEqualTo(400);
    HttpResponse<String> role = server.send("DELETE", M + "/principal-roles/service_admin", null);
    assertThat(role.statusCode()).as(role.body()).isEqualTo(400);
    assertThat(server.send("GET", M + "/principals/root", null).statusCode()).isEqualTo(200);
    assertThat(server.send("GET", M + "/principal-roles/service_admin", null).statusCode())
        .isEqualTo(200);
  }
}
