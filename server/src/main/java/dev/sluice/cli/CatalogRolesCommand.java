package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.GrantCatalogRoleRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice catalog-roles create|list|delete|grant|revoke}. */
@Command(
    name = "catalog-roles",
    description = "Manage catalog roles and which principal roles hold them.",
    subcommands = {
      CatalogRolesCommand.Create.class,
      CatalogRolesCommand.ListRoles.class,
      CatalogRolesCommand.Delete.class,
      CatalogRolesCommand.Grant.class,
      CatalogRolesCommand.Revoke.class
    })
public final class CatalogRolesCommand extends CommandGroup {

  @Command(name = "create", description = "Create a catalog role.")
  static final class Create extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "Catalog the role belongs to")
    String catalog;

    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog role name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode created =
          client.post(
              ApiPath.of("catalogs", catalog, "catalog-roles"), Bodies.newCatalogRole(name));
      console.show(
          created, out -> out.println("created catalog role " + name + " in catalog " + catalog));
    }
  }

  @Command(
      name = "list",
      description = "List a catalog's roles, or those of them a principal role holds.")
  static final class ListRoles extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "Catalog whose roles to list")
    String catalog;

    @Option(
        names = "--principal-role",
        paramLabel = "ROLE",
        description = "Only the catalog roles granted to this principal role")
    String principalRole;

    @Override
    void run(ManagementClient client, Console console) {
      String path =
          principalRole == null
              ? ApiPath.of("catalogs", catalog, "catalog-roles")
              : ApiPath.of("principal-roles", principalRole, "catalog-roles", catalog);
      RoleLists.show(client, console, path, "no catalog roles");
    }
  }

  @Command(name = "delete", description = "Delete a catalog role.")
  static final class Delete extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "Catalog the role belongs to")
    String catalog;

    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog role name")
    String name;

    @Option(
        names = "--force",
        description =
            "Delete it even when it is the catalog's last role holding CATALOG_MANAGE_ACCESS"
                + " (then only the service admin can manage the catalog's roles and grants)")
    boolean force;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("delete catalog role " + name + " from catalog " + catalog);
      JsonNode response =
          client.delete(
              ApiPath.of("catalogs", catalog, "catalog-roles", name)
                  + (force ? "?force=true" : ""));
      console.show(
          response,
          out -> out.println("deleted catalog role " + name + " from catalog " + catalog));
    }
  }

  @Command(name = "grant", description = "Grant a catalog role to a principal role.")
  static final class Grant extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "Catalog the role belongs to")
    String catalog;

    @Option(
        names = "--principal-role",
        required = true,
        paramLabel = "ROLE",
        description = "Principal role to grant to")
    String principalRole;

    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog role name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response =
          client.put(
              ApiPath.of("principal-roles", principalRole, "catalog-roles", catalog),
              GrantCatalogRoleRequest.of(name));
      console.show(
          response,
          out ->
              out.println(
                  "granted catalog role "
                      + name
                      + " (catalog "
                      + catalog
                      + ") to principal role "
                      + principalRole));
    }
  }

  @Command(name = "revoke", description = "Revoke a catalog role from a principal role.")
  static final class Revoke extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "Catalog the role belongs to")
    String catalog;

    @Option(
        names = "--principal-role",
        required = true,
        paramLabel = "ROLE",
        description = "Principal role to revoke from")
    String principalRole;

    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog role name")
    String name;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require(
          "revoke catalog role "
              + name
              + " (catalog "
              + catalog
              + ") from principal role "
              + principalRole);
      JsonNode response =
          client.delete(
              ApiPath.of("principal-roles", principalRole, "catalog-roles", catalog, name));
      console.show(
          response,
          out ->
              out.println(
                  "revoked catalog role "
                      + name
                      + " (catalog "
                      + catalog
                      + ") from principal role "
                      + principalRole));
    }
  }
}
