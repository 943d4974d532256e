package dev.sluice.cli;

import dev.sluice.api.Grant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code privileges ... catalog grant|revoke PRIVILEGE}: privileges on the catalog itself. */
@Command(
    name = "catalog",
    description = "Grant or revoke a privilege on the catalog itself.",
    subcommands = {CatalogPrivileges.GrantPrivilege.class, CatalogPrivileges.RevokePrivilege.class})
final class CatalogPrivileges extends CommandGroup {

  abstract static class Change extends PrivilegeChange {
    Change(boolean revoke) {
      super(revoke);
    }

    @Override
    Grant grant(String privilege) {
      return Grant.onCatalog(privilege);
    }

    @Override
    String securable() {
      return "catalog " + PrivilegesCommand.enclosing(spec).catalog;
    }
  }

  @Command(name = "grant", description = "Grant a catalog privilege.")
  static final class GrantPrivilege extends Change {
    GrantPrivilege() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a catalog privilege.")
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
