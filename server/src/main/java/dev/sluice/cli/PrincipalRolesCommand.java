package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.GrantPrincipalRoleRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice principal-roles create|list|delete|grant|revoke|act-as}. */
@Command(
    name = "principal-roles",
    description = "Manage principal roles and which principals hold them.",
    subcommands = {
      PrincipalRolesCommand.Create.class,
      PrincipalRolesCommand.ListRoles.class,
      PrincipalRolesCommand.Delete.class,
      PrincipalRolesCommand.Grant.class,
      PrincipalRolesCommand.Revoke.class,
      ActAsCommand.class
    })
public final class PrincipalRolesCommand extends CommandGroup {

  @Command(name = "create", description = "Create a principal role.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal role name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode created = client.post(ApiPath.of("principal-roles"), Bodies.newPrincipalRole(name));
      console.show(created, out -> out.println("created principal role " + name));
    }
  }

  @Command(name = "list", description = "List principal roles, or those a principal holds.")
  static final class ListRoles extends AdminCommand {
    @Option(
        names = "--principal",
        paramLabel = "PRINCIPAL",
        description = "Only the roles granted to this principal")
    String principal;

    @Override
    void run(ManagementClient client, Console console) {
      String path =
          principal == null
              ? ApiPath.of("principal-roles")
              : ApiPath.of("principals", principal, "principal-roles");
      RoleLists.show(client, console, path, "no principal roles");
    }
  }

  @Command(name = "delete", description = "Delete a principal role.")
  static final class Delete extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Principal role name")
    String name;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("delete principal role " + name);
      JsonNode response = client.delete(ApiPath.of("principal-roles", name));
      console.show(response, out -> out.println("deleted principal role " + name));
    }
  }

  @Command(name = "grant", description = "Grant a principal role to a principal.")
  static final class Grant extends AdminCommand {
    @Option(
        names = "--principal",
        required = true,
        paramLabel = "PRINCIPAL",
        description = "Principal to grant the role to")
    String principal;

    @Parameters(index = "0", paramLabel = "NAME", description = "Principal role name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response =
          client.put(
              ApiPath.of("principals", principal, "principal-roles"),
              GrantPrincipalRoleRequest.of(name));
      console.show(
          response,
          out -> out.println("granted principal role " + name + " to principal " + principal));
    }
  }

  @Command(name = "revoke", description = "Revoke a principal role from a principal.")
  static final class Revoke extends AdminCommand {
    @Option(
        names = "--principal",
        required = true,
        paramLabel = "PRINCIPAL",
        description = "Principal to revoke the role from")
    String principal;

    @Parameters(index = "0", paramLabel = "NAME", description = "Principal role name")
    String name;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("revoke principal role " + name + " from principal " + principal);
      JsonNode response =
          client.delete(ApiPath.of("principals", principal, "principal-roles", name));
      console.show(
          response,
          out -> out.println("revoked principal role " + name + " from principal " + principal));
    }
  }
}
