package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice namespaces list|create|get|drop --catalog C}: through the Iceberg REST API, as an
 * Iceberg client would, never asking for storage credentials; {@code storage-identity} through the
 * management API ({@link NamespaceStorageIdentityCommand}).
 */
@Command(
    name = "namespaces",
    description = "List, create, show and drop a catalog's namespaces (Iceberg REST API).",
    subcommands = {
      NamespacesCommand.ListNamespaces.class,
      NamespacesCommand.Create.class,
      NamespacesCommand.Get.class,
      NamespacesCommand.Drop.class,
      NamespaceStorageIdentityCommand.class
    })
public final class NamespacesCommand extends CommandGroup {

  /** {@code --catalog}, required by every verb. */
  abstract static class InCatalog extends AdminCommand {
    @Option(
        names = "--catalog",
        required = true,
        paramLabel = "CATALOG",
        description = "The catalog (the Iceberg client's warehouse)")
    String catalog;
  }

  /** A namespace as an argument. */
  abstract static class OneNamespace extends InCatalog {
    @Parameters(
        index = "0",
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Namespace, dot-separated (a.b)")
    Namespace namespace;
  }

  @Command(name = "list", description = "List namespaces (top level, or under --parent).")
  static final class ListNamespaces extends InCatalog {
    @Option(
        names = "--parent",
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Only the children of this namespace (a.b)")
    Namespace parent;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response =
          client.icebergList(IcebergPaths.of(client, catalog).namespaces(parent), "namespaces");
      console.show(
          response,
          out -> {
            TextTable table = new TextTable("NAMESPACE");
            for (JsonNode namespace : Lists.items(response, "namespaces")) {
              table.row(dotted(namespace));
            }
            Lists.print(out, table, "no namespaces");
          });
    }
  }

  @Command(name = "create", description = "Create a namespace.")
  static final class Create extends OneNamespace {
    @Option(
        names = "--property",
        paramLabel = "KEY=VALUE",
        description = "A namespace property (repeatable), e.g. location=s3://bucket/path")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode created =
          client.iceberg(
              "POST",
              IcebergPaths.of(client, catalog).namespaces(),
              Bodies.newNamespace(namespace.levels(), properties));
      console.show(
          created, out -> out.println("created namespace " + namespace + " in catalog " + catalog));
    }
  }

  @Command(name = "get", description = "Show a namespace and its properties.")
  static final class Get extends OneNamespace {
    @Override
    void run(ManagementClient client, Console console) {
      JsonNode loaded =
          client.iceberg("GET", IcebergPaths.of(client, catalog).namespace(namespace), null);
      console.show(loaded, out -> Details.print(out, loaded));
    }
  }

  @Command(name = "drop", description = "Drop an empty namespace.")
  static final class Drop extends OneNamespace {
    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("drop namespace " + namespace + " of catalog " + catalog);
      JsonNode response =
          client.iceberg("DELETE", IcebergPaths.of(client, catalog).namespace(namespace), null);
      console.show(
          response,
          out -> out.println("dropped namespace " + namespace + " of catalog " + catalog));
    }
  }

  /** {@code ["a","b"]} as {@code a.b}. */
  static String dotted(JsonNode levels) {
    List<String> parts = new ArrayList<>();
    levels.forEach(level -> parts.add(level.asText()));
    return String.join(".", parts);
  }
}
