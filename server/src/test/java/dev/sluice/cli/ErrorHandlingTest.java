package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ErrorHandlingTest {
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
  void aServerErrorIsOneLineOnStderrAndExitOne() {
    server.answer(
        "POST",
        "/catalogs",
        403,
        "{\"error\":{\"message\":\"Principal 'etl' is not authorized for CREATE_CATALOG\",\"type\":\"ForbiddenException\",\"code\":403}}");

    Cli.Result result =
        Cli.run(
            server,
            "catalogs",
            "create",
            "sales",
            "--storage-type",
            "FILE",
            "--default-base-location",
            "file:/d");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo("error: Principal 'etl' is not authorized for CREATE_CATALOG (HTTP 403)\n");
  }

  @Test
  void errorsGoToStderrInJsonModeToo() {
    server.answer(
        "GET",
        "/catalogs/nope",
        404,
        "{\"error\":{\"message\":\"Catalog not found: nope\",\"type\":\"NotFoundException\",\"code\":404}}");

    Cli.Result result = Cli.json(server, "catalogs", "get", "nope");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("error: Catalog not found: nope (HTTP 404)\n");
  }

  @Test
  void rejectedClientCredentialsShowTheOAuthDescriptionAndStop() {
    server.answerToken(
        401, "{\"error\":\"invalid_client\",\"error_description\":\"Bad client credentials\"}");

    Cli.Result result = Cli.run(server, "principals", "list");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "error: Bad client credentials: check the client id and secret (--client-id/"
                + "--client-secret, SLUICE_CLIENT_ID/SLUICE_CLIENT_SECRET, or the --profile in use)"
                + " (HTTP 401)\n");
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void anOAuthErrorWithoutDescriptionShowsItsCode() {
    server.answerToken(400, "{\"error\":\"invalid_scope\"}");

    assertThat(Cli.run(server, "principals", "list").err())
        .isEqualTo("error: invalid_scope (HTTP 400)\n");
  }

  @Test
  void aNonJsonErrorBodyIsShownShortened() {
    server.answer("GET", "/catalogs", 502, "<html>\n<body>Bad   gateway</body>\n</html>");

    assertThat(Cli.run(server, "catalogs", "list").err())
        .isEqualTo("error: <html> <body>Bad gateway</body> </html> (HTTP 502)\n");
  }

  @Test
  void anUnreachableServerIsExitOne() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli.Result result =
        Cli.raw(
            "catalogs",
            "list",
            "--base-url",
            "http://127.0.0.1:" + port,
            "--client-id",
            Cli.CLIENT_ID,
            "--client-secret",
            Cli.CLIENT_SECRET);

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).startsWith("error: cannot reach http://127.0.0.1:" + port + ": ");
    assertThat(result.err()).doesNotContain(Cli.CLIENT_SECRET);
  }

  @Test
  void missingCredentialsAreAUsageError() {
    Cli.Result noId =
        Cli.raw(
            "catalogs",
            "list",
            "--base-url",
            server.baseUrl(),
            "--client-id=",
            "--client-secret",
            "x");
    Cli.Result noSecret =
        Cli.raw(
            "catalogs",
            "list",
            "--base-url",
            server.baseUrl(),
            "--client-id",
            "x",
            "--client-secret=");

    assertThat(noId.exit()).isEqualTo(2);
    assertThat(noId.err())
        .contains("Missing client id: pass --client-id, set SLUICE_CLIENT_ID or use a --profile");
    assertThat(noSecret.exit()).isEqualTo(2);
    assertThat(noSecret.err()).contains("Missing client secret");
    assertThat(server.tokenRequests()).isEmpty();
  }

  @Test
  void aBadBaseUrlOrOutputIsAUsageError() {
    assertThat(
            Cli.raw(
                    "catalogs",
                    "list",
                    "--base-url",
                    "127.0.0.1:8181",
                    "--client-id",
                    "x",
                    "--client-secret",
                    "y")
                .exit())
        .isEqualTo(2);
    Cli.Result badOutput = Cli.run(server, "catalogs", "list", "--output", "yaml");
    assertThat(badOutput.exit()).isEqualTo(2);
    assertThat(badOutput.err()).contains("expected text or json");
  }

  @Test
  void aTrailingSlashOnTheBaseUrlIsIgnored() {
    server.answer("GET", "/catalogs", 200, "{\"catalogs\":[]}");

    Cli.Result result =
        Cli.raw(
            "catalogs",
            "list",
            "--base-url",
            server.baseUrl() + "/",
            "--client-id",
            "x",
            "--client-secret",
            "y");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.onlyCall().path()).isEqualTo("/catalogs");
  }

  @Test
  void outputFormatIsCaseInsensitive() {
    server.answer("GET", "/catalogs", 200, "{\"catalogs\":[]}");

    assertThat(Cli.run(server, "catalogs", "list", "--output", "JSON").json())
        .isEqualTo(FakeServer.json("{\"catalogs\":[]}"));
  }
}
