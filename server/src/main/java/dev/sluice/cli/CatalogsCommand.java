package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.Catalog;
import dev.sluice.api.Catalogs;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.api.VerificationReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code sluice catalogs create|update|list|get|delete|verify|import}. */
@Command(
    name = "catalogs",
    description = "Manage catalogs.",
    subcommands = {
      CatalogsCommand.Create.class,
      CatalogsCommand.Update.class,
      CatalogsCommand.ListCatalogs.class,
      CatalogsCommand.Get.class,
      CatalogsCommand.Delete.class,
      VerifyCatalog.class,
      ImportCatalog.class
    })
public final class CatalogsCommand extends CommandGroup {
  static final String DEFAULT_BASE_LOCATION = "default-base-location";

  @Command(
      name = "create",
      description =
          "Create a catalog (any storage type: FILE, S3, R2, GCS, AZURE); --type external"
              + " federates a remote Iceberg REST catalog.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
    String name;

    @Option(
        names = "--default-base-location",
        required = true,
        paramLabel = "LOC",
        description = "Where new namespaces and tables go")
    String defaultBaseLocation;

    @Option(
        names = "--property",
        paramLabel = "KEY=VALUE",
        description = "A catalog property (repeatable)")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
        names = "--verify",
        description = "Run the storage self-check right after creating (exit 1 when it fails)")
    boolean verify;

    @Mixin StorageOptions storage;

    @Mixin RemoteOptions remote;

    @Override
    void run(ManagementClient client, Console console) {
      ConnectionConfigInfo connection = remote.connection(spec);
      Map<String, String> props = new LinkedHashMap<>();
      props.put(DEFAULT_BASE_LOCATION, defaultBaseLocation);
      // The dedicated option is the one that counts: a stray --property must not override it.
      properties.forEach(props::putIfAbsent);
      ObjectNode info = storage.apply(Bodies.object(), spec);
      if (!info.path("storageType").isTextual()) {
        throw new ParameterException(
            spec.commandLine(),
            "Missing storage type: pass --storage-type or a storageType in "
                + StorageOptions.STORAGE_CONFIG);
      }
      if (!info.has("allowedLocations")) {
        info.putArray("allowedLocations");
      }
      Answer<Catalog> created =
          client.post(
              ApiPath.of("catalogs"),
              Bodies.newCatalog(name, props, info, connection, verify),
              Catalog.class);
      // Read in json mode too when the self-check ran: the exit status follows its verdict.
      VerificationReport report =
          verify && created.document() != null ? created.value().verification() : null;
      console.show(
          created,
          (out, catalog) -> {
            out.println("created catalog " + name);
            VerificationReport shown = catalog == null ? null : catalog.verification();
            if (shown != null && shown.checks() != null) {
              VerifyCatalog.print(out, shown);
            } else if (shown != null) {
              out.println(
                  "storage self-check "
                      + Objects.toString(shown.verdict(), "")
                      + ": "
                      + Objects.toString(shown.message(), ""));
            }
          });
      if (report != null && !"pass".equals(report.verdict())) {
        throw new AdminFailure(
            "catalog "
                + name
                + " was created but did not pass the storage self-check ("
                + report.verdict()
                + ")");
      }
    }
  }

  @Command(
      name = "update",
      description =
          "Change a catalog's properties or storage configuration (what was read is sent back"
              + " with its entity version: a concurrent change is refused with 409).")
  static final class Update extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
    String name;

    @Option(
        names = "--property",
        paramLabel = "KEY=VALUE",
        description = "Set a catalog property (repeatable)")
    Map<String, String> set = new LinkedHashMap<>();

    @Option(
        names = "--remove-property",
        paramLabel = "KEY",
        description = "Remove a catalog property (repeatable)")
    List<String> remove = new ArrayList<>();

    @Option(
        names = "--default-base-location",
        paramLabel = "LOC",
        description = "Where new namespaces and tables go")
    String defaultBaseLocation;

    @Mixin StorageOptions storage;

    @Override
    void run(ManagementClient client, Console console) {
      if (set.isEmpty() && remove.isEmpty() && defaultBaseLocation == null && !storage.given()) {
        throw new ParameterException(
            spec.commandLine(),
            "Nothing to change: pass --property, --remove-property, --default-base-location, "
                + StorageOptions.STORAGE_CONFIG
                + " or a storage flag");
      }
      Catalog current = client.get(ApiPath.of("catalogs", name), Catalog.class);
      Map<String, String> properties = null;
      if (!set.isEmpty() || !remove.isEmpty() || defaultBaseLocation != null) {
        properties = new LinkedHashMap<>(current.properties());
        properties.putAll(set);
        remove.forEach(properties::remove);
        if (defaultBaseLocation != null) {
          properties.put(DEFAULT_BASE_LOCATION, defaultBaseLocation);
        }
      }
      ObjectNode info = null;
      if (storage.given()) {
        info = storage.apply(current.storageConfigInfo().deepCopy(), spec);
      }
      JsonNode updated =
          client.put(
              ApiPath.of("catalogs", name),
              Bodies.catalogUpdate(current.entityVersion(), properties, info));
      console.show(updated, out -> out.println("updated catalog " + name));
    }
  }

  @Command(name = "list", description = "List catalogs.")
  static final class ListCatalogs extends AdminCommand {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.listAll(ApiPath.of("catalogs"), Catalogs.class),
          (out, catalogs) -> {
            // The REMOTE column only when some catalog is federated.
            boolean remote = catalogs.stream().anyMatch(c -> c.connectionConfigInfo() != null);
            TextTable table =
                remote
                    ? new TextTable("NAME", "TYPE", "STORAGE", "DEFAULT BASE LOCATION", "REMOTE")
                    : new TextTable("NAME", "TYPE", "STORAGE", "DEFAULT BASE LOCATION");
            for (Catalog catalog : catalogs) {
              List<String> cells = new ArrayList<>();
              cells.add(catalog.name());
              cells.add(Objects.toString(catalog.type(), ""));
              cells.add(catalog.storageConfigInfo().path("storageType").asText());
              cells.add(catalog.properties().getOrDefault(DEFAULT_BASE_LOCATION, ""));
              if (remote) {
                cells.add(
                    catalog.connectionConfigInfo() == null
                        ? ""
                        : catalog.connectionConfigInfo().uri());
              }
              table.row(cells.toArray(String[]::new));
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

    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      confirmation.require("delete catalog " + name);
      JsonNode response = client.delete(ApiPath.of("catalogs", name));
      console.show(response, out -> out.println("deleted catalog " + name));
    }
  }
}
