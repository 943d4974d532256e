package dev.sluice.cli;

import dev.sluice.api.Grant;
import dev.sluice.api.Grants;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;

/**
 * {@code sluice privileges --catalog C --catalog-role R list|catalog|namespace|table|view}: the
 * privileges a catalog role grants. As in the Polaris CLI, the role is named before the verb.
 * {@code sluice privileges --catalog C effective --principal P ...}: what a principal holds, with
 * no catalog role named ({@link ExplainPrivileges}).
 */
@Command(
    name = "privileges",
    description =
        "List, grant and revoke a catalog role's privileges; show a principal's effective ones.",
    subcommands = {
      PrivilegesCommand.ListGrants.class,
      CatalogPrivileges.class,
      NamespacePrivileges.class,
      TablePrivileges.class,
      ViewPrivileges.class,
      ExplainPrivileges.class
    })
public final class PrivilegesCommand extends CommandGroup {
  // Inherited, so that both the Polaris order (before the verb) and the end of the line work.
  // Required, but checked by hand: picocli would otherwise refuse "privileges list --help".
  @Option(
      names = "--catalog",
      scope = ScopeType.INHERIT,
      paramLabel = "CATALOG",
      description = "Catalog the role belongs to (required)")
  String catalog;

  @Option(
      names = "--catalog-role",
      scope = ScopeType.INHERIT,
      paramLabel = "ROLE",
      description = "Catalog role whose privileges to manage (required)")
  String catalogRole;

  String grantsPath() {
    return ApiPath.of("catalogs", catalog, "catalog-roles", catalogRole, "grants");
  }

  /** The {@code privileges} command above a subcommand, however deep, with its options checked. */
  static PrivilegesCommand enclosing(CommandSpec spec) {
    for (CommandSpec s = spec.parent(); s != null; s = s.parent()) {
      if (s.userObject() instanceof PrivilegesCommand privileges) {
        privileges.requireRole(spec);
        return privileges;
      }
    }
    throw new IllegalStateException(spec.qualifiedName() + " is not under the privileges command");
  }

  /**
   * The {@code --catalog} of the {@code privileges} command above, checked: for {@code effective}.
   */
  static String enclosingCatalog(CommandSpec spec) {
    for (CommandSpec s = spec.parent(); s != null; s = s.parent()) {
      if (s.userObject() instanceof PrivilegesCommand privileges) {
        if (privileges.catalog == null || privileges.catalog.isBlank()) {
          throw new ParameterException(
              spec.commandLine(), "Missing required option: '--catalog=CATALOG'");
        }
        return privileges.catalog;
      }
    }
    throw new IllegalStateException(spec.qualifiedName() + " is not under the privileges command");
  }

  private void requireRole(CommandSpec leaf) {
    List<String> missing = new ArrayList<>();
    if (catalog == null || catalog.isBlank()) {
      missing.add("'--catalog=CATALOG'");
    }
    if (catalogRole == null || catalogRole.isBlank()) {
      missing.add("'--catalog-role=ROLE'");
    }
    if (!missing.isEmpty()) {
      throw new ParameterException(
          leaf.commandLine(), "Missing required options: " + String.join(", ", missing));
    }
  }

  @Command(name = "list", description = "List the catalog role's grants.")
  static final class ListGrants extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.listAll(enclosing(spec).grantsPath(), Grants.class),
          (out, grants) -> {
            TextTable table = new TextTable("TYPE", "SECURABLE", "PRIVILEGE");
            for (Grant grant : grants) {
              table.row(grant.type(), securable(grant), grant.privilege());
            }
            Lists.print(out, table, "no grants");
          });
    }

    /** a.b for a namespace, a.b.t for a table or view, "" for the catalog itself. */
    static String securable(Grant grant) {
      List<String> parts = new ArrayList<>();
      if (grant.namespace() != null) {
        parts.addAll(grant.namespace());
      }
      for (String name : Arrays.asList(grant.tableName(), grant.viewName())) {
        if (name != null) {
          parts.add(name);
        }
      }
      return String.join(".", parts);
    }
  }
}
