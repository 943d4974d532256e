package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice tables list|drop --catalog C --namespace N}: through the Iceberg REST API, never
 * asking for storage credentials. A drop keeps the table's files unless {@code --purge}. {@code
 * tables read-restrictions}: {@link ReadRestrictionsCommand}, through the management API.
 */
@Command(
    name = "tables",
    description =
        "List and drop a namespace's tables (Iceberg REST API); their read restrictions (management"
            + " API).",
    subcommands = {
      TablesCommand.ListTables.class,
      TablesCommand.Drop.class,
      ReadRestrictionsCommand.class
    })
public final class TablesCommand extends CommandGroup {

  abstract static class InNamespace extends NamespacesCommand.InCatalog {
    @Option(
        names = "--namespace",
        required = true,
        paramLabel = "NAMESPACE",
        converter = Namespace.Converter.class,
        description = "Namespace, dot-separated (a.b)")
    Namespace namespace;
  }

  @Command(name = "list", description = "List the tables of a namespace.")
  static final class ListTables extends InNamespace {
    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response =
          client.icebergList(IcebergPaths.of(client, catalog).tables(namespace), "identifiers");
      console.show(
          response,
          out -> {
            TextTable table = new TextTable("NAMESPACE", "TABLE");
            for (JsonNode identifier : Lists.items(response, "identifiers")) {
              table.row(
                  NamespacesCommand.dotted(identifier.path("namespace")),
                  identifier.path("name").asText());
            }
            Lists.print(out, table, "no tables");
          });
    }
  }

  @Command(
      name = "drop",
      description = "Drop a table from the catalog; its files stay unless --purge.")
  static final class Drop extends InNamespace {
    @Parameters(index = "0", paramLabel = "TABLE", description = "Table name")
    String table;

    @Option(names = "--purge", description = "Also delete the table's data and metadata files")
    boolean purge;

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      String what = "table " + namespace + "." + table + " of catalog " + catalog;
      confirmation.require((purge ? "drop and purge " : "drop ") + what);
      JsonNode response =
          client.iceberg(
              "DELETE",
              IcebergPaths.of(client, catalog).table(namespace, table)
                  + (purge ? "?purgeRequested=true" : ""),
              null);
      console.show(response, out -> out.println((purge ? "purged " : "dropped ") + what));
    }
  }
}
