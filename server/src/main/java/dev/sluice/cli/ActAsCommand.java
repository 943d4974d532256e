package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.ActAsTargets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice principal-roles act-as list|grant|revoke}: PRINCIPAL_ACT_AS, the principal roles a
 * role's holders (engines) may act for with delegated tokens of their users (the service admin's).
 */
@Command(
    name = "act-as",
    description =
        "Show, grant or revoke the principal roles a principal role's holders may act for"
            + " (PRINCIPAL_ACT_AS: delegated tokens for users).",
    subcommands = {
      ActAsCommand.ListTargets.class,
      ActAsCommand.Grant.class,
      ActAsCommand.Revoke.class
    })
final class ActAsCommand extends CommandGroup {

  static String path(String role) {
    return ApiPath.of("principal-roles", role, "act-as");
  }

  static String path(String role, String target) {
    return ApiPath.of("principal-roles", role, "act-as", target);
  }

  @Command(name = "list", description = "List the principal roles a principal role may act for.")
  static final class ListTargets extends AdminCommand {
    @Parameters(index = "0", paramLabel = "ROLE", description = "The acting principal role")
    String role;

    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.fetch(path(role), ActAsTargets.class),
          (out, answer) -> {
            TextTable table = new TextTable("TARGET");
            answer.targets().forEach(table::row);
            Lists.print(out, table, "principal role " + role + " may act for no principal role");
          });
    }
  }

  @Command(
      name = "grant",
      description =
          "Let holders of ROLE act for users through TARGET: a delegated token activates the user's"
              + " roles among the targets (never service_admin).")
  static final class Grant extends AdminCommand {
    @Parameters(index = "0", paramLabel = "ROLE", description = "The acting principal role")
    String role;

    @Parameters(index = "1", paramLabel = "TARGET", description = "The principal role acted for")
    String target;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response = client.put(path(role, target), null);
      console.show(
          response,
          out -> out.println("principal role " + role + " may act for principal role " + target));
    }
  }

  @Command(name = "revoke", description = "Stop holders of ROLE acting for users through TARGET.")
  static final class Revoke extends AdminCommand {
    @Parameters(index = "0", paramLabel = "ROLE", description = "The acting principal role")
    String role;

    @Parameters(index = "1", paramLabel = "TARGET", description = "The principal role acted for")
    String target;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require(
          "revoke act-as from principal role " + role + " for principal role " + target);
      JsonNode response = client.delete(path(role, target));
      console.show(
          response,
          out ->
              out.println(
                  "principal role " + role + " may no longer act for principal role " + target));
    }
  }
}
