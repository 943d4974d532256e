package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Reading the {@code {"<field>": [...]}} envelopes of list responses, and printing them. */
final class Lists {
  private Lists() {}

  /** The array under {@code field}; a missing or non-array field is an unexpected answer. */
  static List<JsonNode> items(JsonNode response, String field) {
    JsonNode array = response == null ? null : response.get(field);
    if (array == null || !array.isArray()) {
      throw new AdminFailure("unexpected response from the server: no \"" + field + "\" list");
    }
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  static void print(PrintWriter out, TextTable table, String whenEmpty) {
    if (table.isEmpty()) {
      out.println(whenEmpty);
    } else {
      table.print(out);
    }
  }
}
