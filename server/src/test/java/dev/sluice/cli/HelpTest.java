package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BuildInfo;
import dev.sluice.Main;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HelpTest {
  @Test
  void topLevelHelpListsTheAdminCommands() {
    Cli.Result result = Cli.raw("--help");

    assertThat(result.exit()).isZero();
    assertThat(result.out())
        .contains(
            "serve", "catalogs", "principals", "principal-roles", "catalog-roles", "privileges");
  }

  @Test
  void versionIsTheBuildsVersion() {
    Cli.Result result = Cli.raw("--version");
    assertThat(result.exit()).isZero();
    assertThat(result.out().strip()).isEqualTo("sluice " + BuildInfo.version());
    assertThat(BuildInfo.version()).matches("\\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void groupHelpListsItsVerbs() {
    Cli.Result result = Cli.raw("catalogs", "--help");

    assertThat(result.exit()).isZero();
    assertThat(result.out()).contains("Usage: sluice catalogs", "create", "list", "get", "delete");
  }

  @Test
  void everyAdminCommandAnswersHelpWithoutConnecting() {
    List<List<String>> paths = new ArrayList<>();
    collect(new CommandLine(new Main()), new ArrayList<>(), paths);
    assertThat(paths).hasSizeGreaterThan(25);
    for (List<String> path : paths) {
      List<String> args = new ArrayList<>(path);
      args.add("--help");
      Cli.Result result = Cli.raw(args.toArray(String[]::new));
      assertThat(result.exit()).as(String.join(" ", args) + ": " + result.err()).isZero();
      assertThat(result.out()).startsWith("Usage: sluice " + String.join(" ", path));
    }
  }

  @Test
  void leafHelpShowsConnectionOptions() {
    Cli.Result result = Cli.raw("privileges", "table", "grant", "--help");

    assertThat(result.out())
        .contains(
            "--base-url",
            "--client-id",
            "--client-secret",
            "--output",
            "--catalog-role",
            "--namespace",
            "--table",
            "PRIVILEGE");
  }

  @Test
  void aGroupWithoutAVerbIsAUsageError() {
    Cli.Result result = Cli.raw("principal-roles");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err())
        .contains("Missing subcommand: one of create, list, delete, grant, revoke");
  }

  private static void collect(CommandLine command, List<String> prefix, List<List<String>> out) {
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              if (prefix.isEmpty() && name.equals("serve")) {
                return;
              }
              List<String> path = new ArrayList<>(prefix);
              path.add(name);
              out.add(path);
              collect(sub, path, out);
            });
  }
}
