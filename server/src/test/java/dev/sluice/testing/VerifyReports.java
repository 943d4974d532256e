package dev.sluice.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reading a storage self-check report ({@code POST …/catalogs/{c}/verify}) in tests. */
public final class VerifyReports {
  private VerifyReports() {}

  /** The report's check names, in order. */
  public static List<String> names(JsonNode report) {
    List<String> names = new ArrayList<>();
    report.get("checks").forEach(c -> names.add(c.get("name").asText()));
    return names;
  }

  /** The report's row named {@code name}; fails the test when there is none. */
  public static JsonNode row(JsonNode report, String name) {
    for (JsonNode check : report.get("checks")) {
      if (check.get("name").asText().equals(name)) {
        return check;
      }
    }
    throw new AssertionError("no row " + name + " in " + report);
  }
}
