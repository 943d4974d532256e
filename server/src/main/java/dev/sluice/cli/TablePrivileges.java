package dev.sluice.cli;

import dev.sluice.api.Grant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... table grant|revoke --namespace a.b --table NAME PRIVILEGE}. */
@Command(
    name = "table",
    description = "Grant or revoke a privilege on a table.",
    subcommands = {TablePrivileges.GrantPrivilege.class, TablePrivileges.RevokePrivilege.class})
final class TablePrivileges extends CommandGroup {

  abstract static class Change extends PrivilegeChange {
    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Namespace of the table, dot-separated (a.b)")
    Namespace namespace;

    @Option(names = "--table", required = true, paramLabel = "NAME", description = "Table name")
    String table;

    Change(boolean revoke) {
      super(revoke);
    }

    @Override
    Grant grant(String privilege) {
      return Grant.onTable(namespace.levels(), table, privilege);
    }

    @Override
    String securable() {
      return "table " + namespace + "." + table;
    }
  }

  @Command(name = "grant", description = "Grant a table privilege.")
  static final class GrantPrivilege extends Change {
    GrantPrivilege() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a table privilege.")
  static final class RevokePrivilege extends Change {
    @Mixin Revocation revocation;

    RevokePrivilege() {
      super(true);
    }

    @Override
    Revocation revocation() {
      return revocation;
    }
  }
}
