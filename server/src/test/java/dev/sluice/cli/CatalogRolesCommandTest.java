package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CatalogRolesCommandTest {
  private static final String ROLES =
      "{\"roles\":[{\"name\":\"sales_reader\",\"properties\":{},\"createTimestamp\":1}]}";

  private FakeServer server;

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void create() {
    String created = "{\"name\":\"sales_reader\",\"properties\":{},\"entityVersion\":1}";
    server.answer("POST", "/catalogs/sales/catalog-roles", 201, created);

    Cli.Result result =
        Cli.run(server, "catalog-roles", "create", "--catalog", "sales", "sales_reader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "POST",
        "/catalogs/sales/catalog-roles",
        "{\"catalogRole\":{\"name\":\"sales_reader\",\"properties\":{}}}");
    assertThat(result.out()).isEqualTo("created catalog role sales_reader in catalog sales\n");
    assertThat(
            Cli.json(server, "catalog-roles", "create", "--catalog", "sales", "sales_reader")
                .json())
        .isEqualTo(FakeServer.json(created));
  }

  @Test
  void listACatalogsRoles() {
    server.answer("GET", "/catalogs/sales/catalog-roles", 200, ROLES);

    Cli.Result result = Cli.run(server, "catalog-roles", "list", "--catalog", "sales");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/catalogs/sales/catalog-roles", null);
    assertThat(result.out()).isEqualTo("NAME\nsales_reader\n");
    assertThat(Cli.json(server, "catalog-roles", "list", "--catalog", "sales").json())
        .isEqualTo(FakeServer.json(ROLES));
  }

  @Test
  void listThoseGrantedToAPrincipalRole() {
    server.answer("GET", "/principal-roles/analyst/catalog-roles/sales", 200, ROLES);

    Cli.Result result =
        Cli.run(
            server, "catalog-roles", "list", "--catalog", "sales", "--principal-role", "analyst");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principal-roles/analyst/catalog-roles/sales", null);
    assertThat(result.out()).isEqualTo("NAME\nsales_reader\n");
  }

  @Test
  void emptyList() {
    server.answer("GET", "/catalogs/sales/catalog-roles", 200, "{\"roles\":[]}");

    assertThat(Cli.run(server, "catalog-roles", "list", "--catalog", "sales").out())
        .isEqualTo("no catalog roles\n");
  }

  @Test
  void delete() {
    server.answer("DELETE", "/catalogs/sales/catalog-roles/sales_reader", 204, null);

    Cli.Result result =
        Cli.run(server, "catalog-roles", "delete", "--catalog", "sales", "sales_reader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/catalogs/sales/catalog-roles/sales_reader", null);
    assertThat(result.out()).isEqualTo("deleted catalog role sales_reader from catalog sales\n");
  }

  @Test
  void deleteWithForceSaysSoToTheServer() {
    server.answer("DELETE", "/catalogs/sales/catalog-roles/sales_admin?force=true", 204, null);

    Cli.Result result =
        Cli.run(server, "catalog-roles", "delete", "--catalog", "sales", "--force", "sales_admin");

    assertThat(result.exit()).as(result.err()).isZero();
    FakeServer.Request call = server.onlyCall();
    assertThat(call.query()).isEqualTo("force=true");
    assertCall(call, "DELETE", "/catalogs/sales/catalog-roles/sales_admin", null);
  }

  @Test
  void grantToAPrincipalRole() {
    server.answer("PUT", "/principal-roles/analyst/catalog-roles/sales", 201, null);

    Cli.Result result =
        Cli.run(
            server,
            "catalog-roles",
            "grant",
            "--catalog",
            "sales",
            "--principal-role",
            "analyst",
            "sales_reader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "PUT",
        "/principal-roles/analyst/catalog-roles/sales",
        "{\"catalogRole\":{\"name\":\"sales_reader\"}}");
    assertThat(result.out())
        .isEqualTo("granted catalog role sales_reader (catalog sales) to principal role analyst\n");
  }

  @Test
  void revokeFromAPrincipalRole() {
    server.answer("DELETE", "/principal-roles/analyst/catalog-roles/sales/sales_reader", 204, null);

    Cli.Result result =
        Cli.run(
            server,
            "catalog-roles",
            "revoke",
            "--catalog",
            "sales",
            "--principal-role",
            "analyst",
            "sales_reader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "DELETE",
        "/principal-roles/analyst/catalog-roles/sales/sales_reader",
        null);
    assertThat(result.out())
        .isEqualTo(
            "revoked catalog role sales_reader (catalog sales) from principal role analyst\n");
  }

  @Test
  void everyCatalogRoleCommandNeedsACatalog() {
    Cli.Result result = Cli.run(server, "catalog-roles", "list");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("--catalog");
  }
}
