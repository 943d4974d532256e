package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice privileges --catalog C effective --principal P --type T [--namespace a.b] [--name
 * N]}: the privileges a principal holds on one securable, each with the principal role, catalog
 * role and grant that give it ({@code GET …/catalogs/C/principals/P/effective-privileges}).
 */
@Command(
    name = "effective",
    description =
        "Show the privileges a principal holds on a securable, and the role chain giving each.")
final class EffectivePrivileges extends AdminCommand {
  @Option(
      names = "--principal",
      required = true,
      paramLabel = "PRINCIPAL",
      description = "The principal")
  String principal;

  @Option(
      names = "--type",
      required = true,
      paramLabel = "TYPE",
      description = "catalog, namespace, table or view")
  String type;

  @Option(
      names = "--namespace",
      paramLabel = "NAMESPACE",
      converter = Namespace.Converter.class,
      description = "Namespace, dot-separated (a.b); for a namespace, table or view")
  Namespace namespace;

  @Option(names = "--name", paramLabel = "NAME", description = "The table or view")
  String name;

  @Override
  void run(ManagementClient client, Console console) {
    String catalog = PrivilegesCommand.enclosingCatalog(spec);
    StringBuilder query = new StringBuilder("?type=").append(encode(type.toLowerCase(Locale.ROOT)));
    if (namespace != null) {
      query.append("&namespace=").append(encode(IcebergPaths.joined(namespace.levels())));
    }
    if (name != null) {
      query.append("&name=").append(encode(name));
    }
    JsonNode response =
        client.get(
            ApiPath.of("catalogs", catalog, "principals", principal, "effective-privileges")
                + query);
    console.show(
        response,
        out -> {
          TextTable table = new TextTable("PRIVILEGE", "PRINCIPAL ROLE", "CATALOG ROLE", "GRANTED");
          for (JsonNode held : Lists.items(response, "privileges")) {
            for (JsonNode via : held.path("via")) {
              JsonNode grant = via.path("grant");
              table.row(
                  held.path("privilege").asText(),
                  via.path("principalRole").asText(),
                  via.path("catalogRole").asText(),
                  grant.path("privilege").asText() + " on " + securable(grant));
            }
          }
          Lists.print(
              out, table, "principal " + principal + " holds no privilege on this securable");
        });
  }

  /** {@code catalog}, {@code namespace a.b}, {@code table a.b.t}. */
  private static String securable(JsonNode grant) {
    List<String> parts = new ArrayList<>();
    grant.path("namespace").forEach(level -> parts.add(level.asText()));
    for (String field : List.of("tableName", "viewName")) {
      if (grant.path(field).isTextual()) {
        parts.add(grant.get(field).asText());
      }
    }
    String type = grant.path("type").asText();
    return parts.isEmpty() ? type : type + " " + String.join(".", parts);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
