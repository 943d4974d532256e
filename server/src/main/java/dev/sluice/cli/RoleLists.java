package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** Text rendering of a {@code {"roles": [...]}} answer, shared by both kinds of role. */
final class RoleLists {
  private RoleLists() {}

  static void print(PrintWriter out, JsonNode response, String whenEmpty) {
    TextTable table = new TextTable("NAME");
    for (JsonNode role : Lists.items(response, "roles")) {
      table.row(role.path("name").asText());
    }
    Lists.print(out, table, whenEmpty);
  }
}
