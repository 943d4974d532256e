package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... table grant|revoke --namespace a.b --table NAME PRIVILEGE}. */
@Command(
    name = "table",
    description = "Grant or revoke a privilege on a table.",
    subcommands = {TablePrivileges.Grant.class, TablePrivileges.Revoke.class})
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
    void describe(ObjectNode grant) {
      grant.put("type", "table").set("namespace", namespace.toJson());
      grant.put("tableName", table);
    }

    @Override
    String securable() {
      return "table " + namespace + "." + table;
    }
  }

  @Command(name = "grant", description = "Grant a table privilege.")
  static final class Grant extends Change {
    Grant() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a table privilege.")
  static final class Revoke extends Change {
    @Mixin Revocation revocation;

    Revoke() {
      super(true);
    }

    @Override
    Revocation revocation() {
      return revocation;
    }
  }
}
