package dev.sluice.cli;

import dev.sluice.api.EffectivePrivileges;
import dev.sluice.api.EffectivePrivileges.HeldPrivilege;
import dev.sluice.api.EffectivePrivileges.PrivilegePath;
import dev.sluice.api.Grant;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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
final class ExplainPrivileges extends AdminCommand {
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
    console.show(
        client.fetch(
            ApiPath.of("catalogs", catalog, "principals", principal, "effective-privileges")
                + query,
            EffectivePrivileges.class),
        (out, effective) -> {
          TextTable table = new TextTable("PRIVILEGE", "PRINCIPAL ROLE", "CATALOG ROLE", "GRANTED");
          for (HeldPrivilege held : effective.privileges()) {
            for (PrivilegePath via : held.via()) {
              table.row(
                  text(held.privilege()),
                  text(via.principalRole()),
                  text(via.catalogRole()),
                  granted(via.grant()));
            }
          }
          Lists.print(
              out, table, "principal " + principal + " holds no privilege on this securable");
        });
  }

  /** {@code P on catalog}, {@code P on namespace a.b}, {@code P on table a.b.t}. */
  private static String granted(Grant grant) {
    if (grant == null) {
      return " on ";
    }
    String parts = PrivilegesCommand.ListGrants.securable(grant);
    return grant.privilege()
        + " on "
        + (parts.isEmpty() ? grant.type() : grant.type() + " " + parts);
  }

  /** As the server sent it; a missing value shows empty. */
  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
