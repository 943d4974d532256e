package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrincipalRolesCommandTest {
  private static final String ROLES =
      "{\"roles\":[{\"name\":\"loader\",\"properties\":{},\"createTimestamp\":1},"
          + "{\"name\":\"reader\",\"properties\":{},\"createTimestamp\":2}]}";

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
    String created = "{\"name\":\"loader\",\"properties\":{},\"entityVersion\":1}";
    server.answer("POST", "/principal-roles", 201, created);

    Cli.Result result = Cli.run(server, "principal-roles", "create", "loader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "POST",
        "/principal-roles",
        "{\"principalRole\":{\"name\":\"loader\",\"properties\":{}}}");
    assertThat(result.out()).isEqualTo("created principal role loader\n");
    assertThat(Cli.json(server, "principal-roles", "create", "loader").json())
        .isEqualTo(FakeServer.json(created));
  }

  @Test
  void listAll() {
    server.answer("GET", "/principal-roles", 200, ROLES);

    Cli.Result result = Cli.run(server, "principal-roles", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principal-roles", null);
    assertThat(result.out()).isEqualTo("NAME\nloader\nreader\n");
    assertThat(Cli.json(server, "principal-roles", "list").json())
        .isEqualTo(FakeServer.json(ROLES));
  }

  @Test
  void listThoseOfAPrincipal() {
    server.answer("GET", "/principals/etl%20job/principal-roles", 200, ROLES);

    Cli.Result result = Cli.run(server, "principal-roles", "list", "--principal", "etl job");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principals/etl%20job/principal-roles", null);
    assertThat(result.out()).isEqualTo("NAME\nloader\nreader\n");
  }

  @Test
  void delete() {
    server.answer("DELETE", "/principal-roles/loader", 204, null);

    Cli.Result result = Cli.run(server, "principal-roles", "delete", "loader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/principal-roles/loader", null);
    assertThat(result.out()).isEqualTo("deleted principal role loader\n");
  }

  @Test
  void grantToAPrincipal() {
    server.answer("PUT", "/principals/etl/principal-roles", 201, null);

    Cli.Result result = Cli.run(server, "principal-roles", "grant", "--principal", "etl", "loader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "PUT",
        "/principals/etl/principal-roles",
        "{\"principalRole\":{\"name\":\"loader\"}}");
    assertThat(result.out()).isEqualTo("granted principal role loader to principal etl\n");
    assertThat(Cli.json(server, "principal-roles", "grant", "--principal", "etl", "loader").out())
        .isEmpty();
  }

  @Test
  void revokeFromAPrincipal() {
    server.answer("DELETE", "/principals/etl/principal-roles/loader", 204, null);

    Cli.Result result =
        Cli.run(server, "principal-roles", "revoke", "--principal", "etl", "loader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/principals/etl/principal-roles/loader", null);
    assertThat(result.out()).isEqualTo("revoked principal role loader from principal etl\n");
  }

  @Test
  void grantNeedsAPrincipal() {
    Cli.Result result = Cli.run(server, "principal-roles", "grant", "loader");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("--principal");
    assertThat(server.tokenRequests()).isEmpty();
  }

  @Test
  void actAsListShowsTheTargets() {
    server.answer(
        "GET",
        "/principal-roles/trino%20engines/act-as",
        200,
        "{\"targets\":[\"analysts\",\"finance\"]}");

    Cli.Result result = Cli.run(server, "principal-roles", "act-as", "list", "trino engines");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principal-roles/trino%20engines/act-as", null);
    assertThat(result.out()).isEqualTo("TARGET\nanalysts\nfinance\n");
    assertThat(Cli.json(server, "principal-roles", "act-as", "list", "trino engines").json())
        .isEqualTo(FakeServer.json("{\"targets\":[\"analysts\",\"finance\"]}"));
  }

  @Test
  void actAsListSaysWhenThereAreNone() {
    server.answer("GET", "/principal-roles/engines/act-as", 200, "{\"targets\":[]}");

    Cli.Result result = Cli.run(server, "principal-roles", "act-as", "list", "engines");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("principal role engines may act for no principal role\n");
  }

  @Test
  void actAsGrantPutsWithoutABody() {
    server.answer("PUT", "/principal-roles/engines/act-as/analysts", 204, null);

    Cli.Result result =
        Cli.run(server, "principal-roles", "act-as", "grant", "engines", "analysts");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "PUT", "/principal-roles/engines/act-as/analysts", null);
    assertThat(result.out())
        .isEqualTo("principal role engines may act for principal role analysts\n");
  }

  @Test
  void actAsRevokeDeletes() {
    server.answer("DELETE", "/principal-roles/engines/act-as/analysts", 204, null);

    Cli.Result result =
        Cli.run(server, "principal-roles", "act-as", "revoke", "engines", "analysts", "--yes");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/principal-roles/engines/act-as/analysts", null);
    assertThat(result.out())
        .isEqualTo("principal role engines may no longer act for principal role analysts\n");
  }

  @Test
  void actAsRefusalsAreTheServersMessage() {
    server.answer(
        "PUT",
        "/principal-roles/engines/act-as/service_admin",
        400,
        "{\"error\":{\"message\":\"Principal role service_admin cannot be an act-as target: a"
            + " delegated token never carries it\",\"type\":\"BadRequestException\",\"code\":400}}");

    Cli.Result result =
        Cli.run(server, "principal-roles", "act-as", "grant", "engines", "service_admin");

    assertThat(result.exit()).isNotZero();
    assertThat(result.err()).contains("cannot be an act-as target");
  }

  @Test
  void actAsGrantNeedsBothRoles() {
    Cli.Result result = Cli.run(server, "principal-roles", "act-as", "grant", "engines");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("TARGET");
    assertThat(server.tokenRequests()).isEmpty();
  }
}
