package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice catalogs create|list|get|delete|verify}. */
@Command(
    name = "catalogs",
    description = "Manage catalogs.",
    subcommands = {
      CatalogsCommand.Create.class,
      CatalogsCommand.ListCatalogs.class,
      CatalogsCommand.Get.class,
      CatalogsCommand.Delete.class,
      VerifyCatalog.class
    })
public final class CatalogsCommand extends CommandGroup {
  static final String DEFAULT_BASE_LOCATION = "default-base-location";

  @Command(name = "create", description = "Create an internal catalog.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
    String name;

    @Option(
        names = "--storage-type",
        required = true,
        paramLabel = "TYPE",
        description = "Storage type, e.g. FILE or S3")
    String storageType;

    @Option(
        names = "--default-base-location",
        required = true,
        paramLabel = "LOC",
        description = "Where new namespaces and tables go")
    String defaultBaseLocation;

    @Option(
        names = "--allowed-location",
        paramLabel = "LOC",
        description = "A location tables may use (repeatable; the server adds the base location)")
    List<String> allowedLocations = new ArrayList<>();

    @Option(
        names = "--property",
        paramLabel = "KEY=VALUE",
        description = "A catalog property (repeatable)")
    Map<String, String> properties = new LinkedHashMap<>();

    @Override
    void run(ManagementClient client, Console console) {
      ObjectNode catalog = Bodies.object();
      catalog.put("name", name).put("type", "INTERNAL");
      ObjectNode props = catalog.putObject("properties");
      props.put(DEFAULT_BASE_LOCATION, defaultBaseLocation);
      properties.forEach(
          (key, value) -> {
            // The dedicated option is the one that counts: a stray --property must not override it.
            if (!DEFAULT_BASE_LOCATION.equals(key)) {
              props.put(key, value);
            }
          });
      ObjectNode storage = catalog.putObject("storageConfigInfo");
      storage.put("storageType", storageType.toUpperCase(Locale.ROOT));
      ArrayNode allowed = storage.putArray("allowedLocations");
      allowedLocations.forEach(allowed::add);
      ObjectNode body = Bodies.object();
      body.set("catalog", catalog);
      JsonNode created = client.post(ApiPath.of("catalogs"), body);
      console.show(created, out -> out.println("created catalog " + name));
    }
  }

  @Command(name = "list", description = "List catalogs.")
  static final class ListCatalogs extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response = client.list(ApiPath.of("catalogs"), "catalogs");
      console.show(
          response,
          out -> {
            TextTable table = new TextTable("NAME", "TYPE", "STORAGE", "DEFAULT BASE LOCATION");
            for (JsonNode catalog : Lists.items(response, "catalogs")) {
              table.row(
                  catalog.path("name").asText(),
                  catalog.path("type").asText(),
                  catalog.path("storageConfigInfo").path("storageType").asText(),
                  catalog.path("properties").path(DEFAULT_BASE_LOCATION).asText());
            }
            Lists.print(out, table, "no catalogs");
          });
    }
  }

  @Command(name = "get", description = "Show one catalog.")
  static final class Get extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode catalog = client.get(ApiPath.of("catalogs", name));
      console.show(catalog, out -> Details.print(out, catalog));
    }
  }

  @Command(name = "delete", description = "Delete an empty catalog.")
  static final class Delete extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
    String name;

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode response = client.delete(ApiPath.of("catalogs", name));
      console.show(response, out -> out.println("deleted catalog " + name));
    }
  }
}
