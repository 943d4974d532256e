package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code privileges ... catalog grant|revoke PRIVILEGE}: privileges on the catalog itself. */
@Command(
    name = "catalog",
    description = "Grant or revoke a privilege on the catalog itself.",
    subcommands = {CatalogPrivileges.Grant.class, CatalogPrivileges.Revoke.class})
final class CatalogPrivileges extends CommandGroup {

  abstract static class Change extends PrivilegeChange {
    Change(boolean revoke) {
      super(revoke);
    }

    @Override
    void describe(ObjectNode grant) {
      grant.put("type", "catalog");
    }

    @Override
    String securable() {
      return "catalog " + PrivilegesCommand.enclosing(spec).catalog;
    }
  }

  @Command(name = "grant", description = "Grant a catalog privilege.")
  static final class Grant extends Change {
    Grant() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a catalog privilege.")
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
