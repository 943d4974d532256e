package dev.sluice.cli;

import dev.sluice.api.Role;
import dev.sluice.api.Roles;
import java.io.PrintWriter;
import java.util.List;

/** Text rendering of a {@code {"roles": [...]}} answer, shared by both kinds of role. */
final class RoleLists {
  private RoleLists() {}

  /** Lists the roles under {@code path}, every page, as json or as a table. */
  static void show(ManagementClient client, Console console, String path, String whenEmpty) {
    console.show(client.listAll(path, Roles.class), (out, roles) -> print(out, roles, whenEmpty));
  }

  private static void print(PrintWriter out, List<Role> roles, String whenEmpty) {
    TextTable table = new TextTable("NAME");
    for (Role role : roles) {
      table.row(role.name());
    }
    Lists.print(out, table, whenEmpty);
  }
}
