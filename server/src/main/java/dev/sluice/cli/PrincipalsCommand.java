package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.GrantPrincipalRoleRequest;
import dev.sluice.api.Principal;
import dev.sluice.api.PrincipalWithCredentials;
import dev.sluice.api.Principals;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice principals create|list|get|delete|rotate-credentials}. */
@Command(
    name = "principals",
    description = "Manage principals (service identities with client credentials).",
    subcommands = {
      PrincipalsCommand.Create.class,
      PrincipalsCommand.ListPrincipals.class,
      PrincipalsCommand.Get.class,
      PrincipalsCommand.Delete.class,
      PrincipalsCommand.RotateCredentials.class
    })
public final class PrincipalsCommand extends CommandGroup {

  @Command(
      name = "create",
      description = "Create a principal and print its client credentials (shown once).")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal name")
    String name;

    @Option(
        names = "--principal-role",
        paramLabel = "ROLE",
        description = "Grant this principal role after creating (repeatable)")
    List<String> principalRoles = new ArrayList<>();

    @Override
    void run(ManagementClient client, Console console) {
      Answer<PrincipalWithCredentials> created =
          client.post(
              ApiPath.of("principals"), Bodies.newPrincipal(name), PrincipalWithCredentials.class);
      // Read in json mode too: an answer without the secret is an error either way.
      Credentials credentials = Credentials.from(created.value());
      // Print the secret before the grants: if a grant fails, the secret must not be lost with it.
      console.show(
          created.document(),
          out -> {
            out.println("created principal " + name);
            credentials.print(out);
          });
      for (String role : principalRoles) {
        // A grant's answer is not part of create's one JSON document: text mode only.
        client.put(
            ApiPath.of("principals", name, "principal-roles"), GrantPrincipalRoleRequest.of(role));
        console.note("granted principal role " + role + " to principal " + name);
      }
    }
  }

  @Command(name = "list", description = "List principals.")
  static final class ListPrincipals extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.listAll(ApiPath.of("principals"), Principals.class),
          (out, principals) -> {
            TextTable table = new TextTable("NAME", "CLIENT ID");
            for (Principal principal : principals) {
              table.row(principal.name(), principal.clientId());
            }
            Lists.print(out, table, "no principals");
          });
    }
  }

  @Command(name = "get", description = "Show one principal (never its secret).")
  static final class Get extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode principal = client.get(ApiPath.of("principals", name));
      console.show(principal, out -> Details.print(out, principal));
    }
  }

  @Command(name = "delete", description = "Delete a principal.")
  static final class Delete extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal name")
    String name;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("delete principal " + name);
      JsonNode response = client.delete(ApiPath.of("principals", name));
      console.show(response, out -> out.println("deleted principal " + name));
    }
  }

  @Command(
      name = "rotate-credentials",
      description =
          "Issue a new client secret for a principal and print it (shown once); the old one stops working.")
  static final class RotateCredentials extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      Answer<PrincipalWithCredentials> rotated =
          client.post(
              ApiPath.of("principals", name, "rotate"), null, PrincipalWithCredentials.class);
      Credentials credentials = Credentials.from(rotated.value());
      console.show(
          rotated.document(),
          out -> {
            out.println("rotated credentials for principal " + name);
            credentials.print(out);
          });
    }
  }
}
