package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... namespace grant|revoke --namespace a.b PRIVILEGE}. */
@Command(
    name = "namespace",
    description = "Grant or revoke a privilege on a namespace.",
    subcommands = {NamespacePrivileges.Grant.class, NamespacePrivileges.Revoke.class})
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
    void describe(ObjectNode grant) {
      grant.put("type", "namespace").set("namespace", namespace.toJson());
    }

    @Override
    String securable() {
      return "namespace " + namespace;
    }
  }

  @Command(name = "grant", description = "Grant a namespace privilege.")
  static final class Grant extends Change {
    Grant() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a namespace privilege.")
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
