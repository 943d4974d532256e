package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrincipalsCommandTest {
  private static final String CREATED =
      """
      {"principal":{"name":"etl","id":"p-1","clientId":"cid-etl","properties":{},"createTimestamp":1},
       "credentials":{"clientId":"cid-etl","clientSecret":"NEW-SECRET-1"}}""";
  private static final String ROTATED =
      """
      {"principal":{"name":"etl","id":"p-1","clientId":"cid-etl","properties":{},"createTimestamp":1},
       "credentials":{"clientId":"cid-etl","clientSecret":"NEW-SECRET-2"}}""";

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
  void createPrintsTheNewCredentialsOnce() {
    server.answer("POST", "/principals", 201, CREATED);

    Cli.Result result = Cli.run(server, "principals", "create", "etl");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(
        server.onlyCall(),
        "POST",
        "/principals",
        "{\"principal\":{\"name\":\"etl\",\"properties\":{}}}");
    assertThat(result.out())
        .isEqualTo(
            """
        created principal etl
        client id: cid-etl
        client secret: NEW-SECRET-1
        (the secret is shown only this once: store it now)
        """);

    assertThat(Cli.json(server, "principals", "create", "etl").json())
        .isEqualTo(FakeServer.json(CREATED));
  }

  @Test
  void createGrantsEachPrincipalRoleWithTheSameToken() {
    server
        .answer("POST", "/principals", 201, CREATED)
        .answer("PUT", "/principals/etl/principal-roles", 201, null);

    Cli.Result result =
        Cli.run(
            server,
            "principals",
            "create",
            "etl",
            "--principal-role",
            "loader",
            "--principal-role",
            "reader");

    assertThat(result.exit()).as(result.err()).isZero();
    List<FakeServer.Request> calls = server.calls();
    assertThat(calls).hasSize(3);
    assertCall(
        calls.get(1),
        "PUT",
        "/principals/etl/principal-roles",
        "{\"principalRole\":{\"name\":\"loader\"}}");
    assertCall(
        calls.get(2),
        "PUT",
        "/principals/etl/principal-roles",
        "{\"principalRole\":{\"name\":\"reader\"}}");
    assertThat(server.tokenRequests()).hasSize(1);
    assertThat(result.out())
        .endsWith(
            """
        granted principal role loader to principal etl
        granted principal role reader to principal etl
        """);
  }

  @Test
  void createInJsonModeStaysOneDocumentWhenGranting() {
    server
        .answer("POST", "/principals", 201, CREATED)
        .answer("PUT", "/principals/etl/principal-roles", 201, null);

    Cli.Result result =
        Cli.json(server, "principals", "create", "etl", "--principal-role", "loader");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(result.json()).isEqualTo(FakeServer.json(CREATED));
  }

  @Test
  void aFailedGrantAfterCreateStillShowsTheCredentials() {
    server
        .answer("POST", "/principals", 201, CREATED)
        .answer(
            "PUT",
            "/principals/etl/principal-roles",
            404,
            "{\"error\":{\"message\":\"Principal role not found: lodaer\",\"type\":\"NotFoundException\",\"code\":404}}");

    Cli.Result result =
        Cli.run(server, "principals", "create", "etl", "--principal-role", "lodaer");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).contains("client secret: NEW-SECRET-1");
    assertThat(result.err()).isEqualTo("error: Principal role not found: lodaer (HTTP 404)\n");
  }

  @Test
  void listPrintsNamesAndClientIds() {
    String list =
        "{\"principals\":[{\"name\":\"root\",\"id\":\"p-0\",\"clientId\":\"cid-root\",\"createTimestamp\":1},"
            + "{\"name\":\"etl\",\"id\":\"p-1\",\"clientId\":\"cid-etl\",\"createTimestamp\":2}]}";
    server.answer("GET", "/principals", 200, list);

    Cli.Result result = Cli.run(server, "principals", "list");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principals", null);
    assertThat(result.out())
        .isEqualTo(
            """
        NAME  CLIENT ID
        root  cid-root
        etl   cid-etl
        """);
    assertThat(Cli.json(server, "principals", "list").json()).isEqualTo(FakeServer.json(list));
  }

  @Test
  void getNeverPrintsASecretEvenIfTheServerSentOne() {
    String principal =
        "{\"name\":\"etl\",\"clientId\":\"cid-etl\",\"clientSecret\":\"LEAKED\",\"properties\":{\"team\":\"data\"}}";
    server.answer("GET", "/principals/etl", 200, principal);

    Cli.Result result = Cli.run(server, "principals", "get", "etl");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "GET", "/principals/etl", null);
    assertThat(result.out()).isEqualTo("name: etl\nclientId: cid-etl\nproperties.team: data\n");
    assertThat(Cli.json(server, "principals", "get", "etl").json())
        .isEqualTo(FakeServer.json(principal));
  }

  @Test
  void delete() {
    server.answer("DELETE", "/principals/etl", 204, null);

    Cli.Result result = Cli.run(server, "principals", "delete", "etl");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/principals/etl", null);
    assertThat(result.out()).isEqualTo("deleted principal etl\n");
    assertThat(Cli.json(server, "principals", "delete", "etl").out()).isEmpty();
  }

  @Test
  void rotateCredentialsPrintsTheNewSecret() {
    server.answer("POST", "/principals/etl/rotate", 200, ROTATED);

    Cli.Result result = Cli.run(server, "principals", "rotate-credentials", "etl");

    assertThat(result.exit()).as(result.err()).isZero();
    assertCall(server.onlyCall(), "POST", "/principals/etl/rotate", null);
    assertThat(result.out())
        .isEqualTo(
            """
        rotated credentials for principal etl
        client id: cid-etl
        client secret: NEW-SECRET-2
        (the secret is shown only this once: store it now)
        """);
    assertThat(Cli.json(server, "principals", "rotate-credentials", "etl").json())
        .isEqualTo(FakeServer.json(ROTATED));
  }

  @Test
  void aCreateAnswerWithoutCredentialsIsAnError() {
    server.answer(
        "POST",
        "/principals",
        201,
        "{\"principal\":{\"name\":\"etl\",\"id\":\"p-1\",\"clientId\":\"cid-etl\",\"createTimestamp\":1}}");

    Cli.Result result = Cli.run(server, "principals", "create", "etl");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).isEqualTo("error: the server's response carries no credentials\n");
  }
}
