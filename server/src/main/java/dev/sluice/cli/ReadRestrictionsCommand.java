package dev.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.api.ReadRestriction;
import dev.sluice.api.TableReadRestrictions;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice tables read-restrictions list|set|remove --catalog C --namespace N TABLE [ROLE]}: a
 * table's read restrictions per principal role (a row filter, hidden and masked columns), through
 * the management API (CATALOG_MANAGE_ACCESS on the catalog, or the service admin).
 */
@Command(
    name = "read-restrictions",
    description =
        "List, set or remove the read restrictions (row filter, hidden and masked columns) a"
            + " principal role has on a table.",
    subcommands = {
      ReadRestrictionsCommand.ListRestrictions.class,
      ReadRestrictionsCommand.Set.class,
      ReadRestrictionsCommand.Remove.class
    })
final class ReadRestrictionsCommand extends CommandGroup {
  private static final ObjectMapper JSON = new ObjectMapper();

  abstract static class OnTable extends TablesCommand.InNamespace {
    @Parameters(index = "0", paramLabel = "TABLE", description = "Table name")
    String table;

    String path(String... more) {
      List<String> segments =
          new ArrayList<>(
              List.of(
                  "catalogs",
                  catalog,
                  "namespaces",
                  String.join("\u001f", namespace.levels()),
                  "tables",
                  table,
                  "read-restrictions"));
      segments.addAll(List.of(more));
      return ApiPath.of(segments.toArray(String[]::new));
    }
  }

  abstract static class OnRole extends OnTable {
    @Parameters(index = "1", paramLabel = "ROLE", description = "Principal role")
    String role;
  }

  @Command(name = "list", description = "Show each principal role's restriction on the table.")
  static final class ListRestrictions extends OnTable {
    @Override
    void run(ManagementClient client, Console console) {
      console.show(
          client.fetch(path(), TableReadRestrictions.class),
          (out, listed) -> {
            TextTable rows = new TextTable("ROLE", "ROW FILTER", "HIDDEN", "MASKED");
            for (ReadRestriction r : listed.restrictions()) {
              rows.row(
                  r.principalRole(),
                  r.rowFilter() == null ? "-" : r.rowFilter().toString(),
                  r.hiddenColumns().isEmpty() ? "-" : String.join(",", r.hiddenColumns()),
                  masked(r));
            }
            Lists.print(out, rows, "no read restrictions");
          });
    }
  }

  @Command(
      name = "set",
      description = "Set (or replace) a principal role's read restriction on the table.")
  static final class Set extends OnRole {
    @Option(
        names = "--row-filter",
        paramLabel = "JSON",
        description =
            "An Iceberg expression in the REST spec's JSON, e.g."
                + " '{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"}'")
    String rowFilter;

    @Option(
        names = "--hide",
        paramLabel = "COLUMN",
        description = "A column removed from the schema the role is shown (repeatable)")
    List<String> hidden = new ArrayList<>();

    @Option(
        names = "--mask",
        paramLabel = "COLUMN=ACTION",
        description =
            "A column and its mask: mask-alphanum, mask-to-fixed-value, replace-with-null,"
                + " show-first-4, show-last-4, truncate-to-year, truncate-to-month, sha-256-global,"
                + " sha-256-query-local (repeatable)")
    Map<String, String> masked = new LinkedHashMap<>();

    @Override
    void run(ManagementClient client, Console console) {
      JsonNode filter = null;
      if (rowFilter != null) {
        try {
          filter = JSON.readTree(rowFilter);
        } catch (JsonProcessingException e) {
          throw new ParameterException(
              spec.commandLine(), "--row-filter is not JSON: " + e.getOriginalMessage());
        }
      }
      console.show(
          client.put(
              path(role), Bodies.readRestriction(filter, hidden, masked), ReadRestriction.class),
          (out, r) -> {
            out.println(
                "set the read restriction of principal role "
                    + r.principalRole()
                    + " on table "
                    + namespace
                    + "."
                    + table
                    + " of catalog "
                    + catalog);
            print(out, r);
          });
    }
  }

  @Command(name = "remove", description = "Remove a principal role's read restriction.")
  static final class Remove extends OnRole {
    @Mixin Confirmation confirmation;

    @Override
    void run(ManagementClient client, Console console) {
      String what =
          "the read restriction of principal role "
              + role
              + " on table "
              + namespace
              + "."
              + table
              + " of catalog "
              + catalog;
      confirmation.require("remove " + what);
      console.show(client.delete(path(role)), out -> out.println("removed " + what));
    }
  }

  static void print(PrintWriter out, ReadRestriction r) {
    out.println("  row filter: " + (r.rowFilter() == null ? "-" : r.rowFilter().toString()));
    out.println(
        "  hidden:     "
            + (r.hiddenColumns().isEmpty() ? "-" : String.join(",", r.hiddenColumns())));
    out.println("  masked:     " + masked(r));
  }

  private static String masked(ReadRestriction r) {
    if (r.maskedColumns().isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    r.maskedColumns().forEach((column, action) -> parts.add(column + "=" + action));
    return String.join(",", parts);
  }
}
