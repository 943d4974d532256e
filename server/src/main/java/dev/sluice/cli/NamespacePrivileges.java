package dev.sluice.cli;

import dev.sluice.api.Grant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... namespace grant|revoke --namespace a.b PRIVILEGE}. */
@Command(
    name = "namespace",
    description = "Grant or revoke a privilege on a namespace.",
    subcommands = {
      NamespacePrivileges.GrantPrivilege.class,
      NamespacePrivileges.RevokePrivilege.class
    })
final class NamespacePrivileges extends CommandGroup {

  abstract static class Change extends PrivilegeChange {
    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Namespace, dot-separated (a.b)")
    Namespace namespace;

    Change(boolean revoke) {
      super(revoke);
    }

    @Override
    Grant grant(String privilege) {
      return Grant.onNamespace(namespace.levels(), privilege);
    }

    @Override
    String securable() {
      return "namespace " + namespace;
    }
  }

  @Command(name = "grant", description = "Grant a namespace privilege.")
  static final class GrantPrivilege extends Change {
    GrantPrivilege() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a namespace privilege.")
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
