package dev.sluice.cli;

import dev.sluice.api.Grant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... view grant|revoke --namespace a.b --view NAME PRIVILEGE}. */
@Command(
    name = "view",
    description = "Grant or revoke a privilege on a view.",
    subcommands = {ViewPrivileges.GrantPrivilege.class, ViewPrivileges.RevokePrivilege.class})
final class ViewPrivileges extends CommandGroup {

  abstract static class Change extends PrivilegeChange {
    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Namespace of the view, dot-separated (a.b)")
    Namespace namespace;

    @Option(names = "--view", required = true, paramLabel = "NAME", description = "View name")
    String view;

    Change(boolean revoke) {
      super(revoke);
    }

    @Override
    Grant grant(String privilege) {
      return Grant.onView(namespace.levels(), view, privilege);
    }

    @Override
    String securable() {
      return "view " + namespace + "." + view;
    }
  }

  @Command(name = "grant", description = "Grant a view privilege.")
  static final class GrantPrivilege extends Change {
    GrantPrivilege() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a view privilege.")
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
