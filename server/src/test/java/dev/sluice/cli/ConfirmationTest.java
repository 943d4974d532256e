package dev.sluice.cli;

import static dev.sluice.cli.Calls.assertCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Destructive commands ask first on a terminal, proceed when stdin is not one (scripts), and never
 * ask with {@code --yes}. A terminal is simulated by replacing {@link Confirmation#prompt}.
 */
class ConfirmationTest {
  private FakeServer server;
  private final List<String> asked = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = FakeServer.start();
  }

  @AfterEach
  void stop() {
    Confirmation.prompt = Confirmation.TERMINAL;
    server.close();
  }

  private void terminalAnswers(String answer) {
    Confirmation.prompt =
        new Confirmation.Prompt() {
          @Override
          public boolean interactive() {
            return true;
          }

          @Override
          public String ask(String question) {
            asked.add(question);
            return answer;
          }
        };
  }

  @Test
  void onATerminalNoMeansNothingIsDeleted() {
    terminalAnswers("n");

    Cli.Result result = Cli.run(server, "catalogs", "delete", "sales");

    assertThat(asked).containsExactly("Delete catalog sales? [y/N] ");
    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "error: not confirmed, nothing changed: delete catalog sales (--yes skips the"
                + " question)\n");
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void onATerminalYesDeletesAndEndOfInputIsNo() {
    server.answer("DELETE", "/principals/jane", 204, null);
    terminalAnswers(" Yes ");
    assertThat(Cli.run(server, "principals", "delete", "jane").exit()).isZero();
    assertCall(server.onlyCall(), "DELETE", "/principals/jane", null);

    terminalAnswers(null);
    assertThat(Cli.run(server, "principals", "delete", "jane").exit()).isEqualTo(1);
    assertThat(server.calls()).hasSize(1);
  }

  @Test
  void yesSkipsTheQuestion() {
    server.answer("DELETE", "/principal-roles/analyst", 204, null);
    terminalAnswers("n");

    Cli.Result result = Cli.run(server, "principal-roles", "delete", "analyst", "-y");

    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(asked).isEmpty();
    assertThat(server.calls()).hasSize(1);
  }

  @Test
  void withoutATerminalScriptsProceed() {
    // The default prompt: surefire's stdin is not a terminal.
    server.answer("DELETE", "/catalogs/sales/catalog-roles/r", 204, null);
    assertThat(Cli.run(server, "catalog-roles", "delete", "--catalog", "sales", "r").exit())
        .isZero();
    assertThat(server.calls()).hasSize(1);
  }

  @Test
  void everyDestructiveCommandAsks() {
    terminalAnswers("no");
    List<List<String>> destructive =
        List.of(
            List.of("catalogs", "delete", "c"),
            List.of("principals", "delete", "p"),
            List.of("principal-roles", "delete", "r"),
            List.of("principal-roles", "revoke", "--principal", "p", "r"),
            List.of("catalog-roles", "delete", "--catalog", "c", "r"),
            List.of("catalog-roles", "revoke", "--catalog", "c", "--principal-role", "p", "r"),
            List.of(
                "privileges",
                "--catalog",
                "c",
                "--catalog-role",
                "r",
                "table",
                "revoke",
                "--namespace",
                "a",
                "--table",
                "t",
                "TABLE_READ_DATA"),
            List.of("namespaces", "drop", "--catalog", "c", "a.b"),
            List.of("namespaces", "storage-identity", "clear", "--catalog", "c", "a.b"),
            List.of("tables", "drop", "--catalog", "c", "--namespace", "a", "t"),
            List.of("signing-keys", "retire", "k1"));
    for (List<String> command : destructive) {
      Cli.Result result = Cli.run(server, command.toArray(String[]::new));
      assertThat(result.exit()).as(command + ": " + result.err()).isEqualTo(1);
      assertThat(result.err()).as(command.toString()).contains("not confirmed");
    }
    assertThat(asked).hasSize(destructive.size());
    assertThat(asked)
        .contains(
            "Revoke TABLE_READ_DATA on table a.t from catalog role r? [y/N] ",
            "Drop table a.t of catalog c? [y/N] ",
            "Retire signing key k1 (every token it signed is refused)? [y/N] ");
    // Nothing was sent, not even a token request.
    assertThat(server.calls()).isEmpty();
  }

  @Test
  void revokeWithForceSendsForceTrue() {
    server.answer("POST", "/catalogs/c/catalog-roles/r/grants?force=true", 201, null);
    Cli.Result result =
        Cli.run(
            server,
            "privileges",
            "--catalog",
            "c",
            "--catalog-role",
            "r",
            "catalog",
            "revoke",
            "CATALOG_MANAGE_ACCESS",
            "--force");
    assertThat(result.exit()).as(result.err()).isZero();
    assertThat(server.onlyCall().query()).isEqualTo("force=true");
    assertThat(server.onlyCall().json().at("/grant/privilege").asText())
        .isEqualTo("CATALOG_MANAGE_ACCESS");
  }

  @Test
  void anUnknownPrivilegeListsTheValidOnes() {
    Cli.Result result =
        Cli.run(
            server,
            "privileges",
            "--catalog",
            "c",
            "--catalog-role",
            "r",
            "namespace",
            "grant",
            "--namespace",
            "a",
            "TABLE_READ");
    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .contains("Unknown privilege 'TABLE_READ': one of CATALOG_MANAGE_ACCESS,")
        .contains("TABLE_READ_DATA", "VIEW_FULL_METADATA");
    assertThat(server.calls()).isEmpty();
  }
}
