package dev.sluice.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code privileges ... view grant|revoke --namespace a.b --view NAME PRIVILEGE}. */
@Command(
    name = "view",
    description = "Grant or revoke a privilege on a view.",
    subcommands = {ViewPrivileges.Grant.class, ViewPrivileges.Revoke.class})
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
    void describe(ObjectNode grant) {
      grant.put("type", "view").set("namespace", namespace.toJson());
      grant.put("viewName", view);
    }

    @Override
    String securable() {
      return "view " + namespace + "." + view;
    }
  }

  @Command(name = "grant", description = "Grant a view privilege.")
  static final class Grant extends Change {
    Grant() {
      super(false);
    }
  }

  @Command(name = "revoke", description = "Revoke a view privilege.")
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
