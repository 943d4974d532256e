package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice catalogs verify NAME}: runs the storage self-check and prints one row per check;
 * exits 1 when the verdict is fail, so scripts and CI can gate on it.
 */
@Command(
    name = "verify",
    description =
        "Prove on the real store that the catalog's vended credentials are scoped to their table"
            + " (exit status 1 when a check fails).")
final class VerifyCatalog extends AdminCommand {
  private static final String WHERE_TO_FIX = " Where to fix: ";

  @Parameters(index = "0", paramLabel = "NAME", description = "Catalog name")
  String name;

  @Option(
      names = "--other-location",
      paramLabel = "LOC",
      description =
          "A location in another bucket the catalog's role can see: both credentials must be"
              + " refused there")
  String otherLocation;

  @Override
  void run(ManagementClient client, Console console) {
    JsonNode report =
        client.post(ApiPath.of("catalogs", name, "verify"), Bodies.verify(otherLocation));
    console.show(report, out -> print(out, report));
    if (!"pass".equals(report.path("verdict").asText())) {
      throw new AdminFailure(
          "catalog "
              + name
              + " failed the storage self-check ("
              + report.path("failed").asInt()
              + " failed)");
    }
  }

  static void print(PrintWriter out, JsonNode report) {
    out.println(
        "catalog "
            + report.path("catalog").asText()
            + " ("
            + report.path("storageType").asText()
            + "): "
            + report.path("verdict").asText().toUpperCase(java.util.Locale.ROOT)
            + ", "
            + report.path("passed").asInt()
            + " passed, "
            + report.path("failed").asInt()
            + " failed, "
            + report.path("skipped").asInt()
            + " skipped");
    TextTable table = new TextTable("CHECK", "EXPECTED", "OBSERVED", "RESULT");
    for (JsonNode check : Lists.items(report, "checks")) {
      table.row(
          check.path("name").asText(),
          check.path("expected").asText(),
          check.path("observed").asText(),
          check.path("outcome").asText().toUpperCase(java.util.Locale.ROOT));
    }
    table.print(out);
    // Rows share their advice on where to fix: each row says what it saw, the advice once.
    java.util.Set<String> fixes = new java.util.LinkedHashSet<>();
    for (JsonNode check : Lists.items(report, "checks")) {
      if (!check.path("pass").asBoolean() && check.hasNonNull("explanation")) {
        String explanation = check.path("explanation").asText();
        int fix = explanation.indexOf(WHERE_TO_FIX);
        if (fix >= 0) {
          fixes.add(explanation.substring(fix + 1));
          explanation = explanation.substring(0, fix);
        }
        out.println(
            check.path("outcome").asText()
                + " "
                + check.path("name").asText()
                + ": "
                + explanation);
      }
    }
    fixes.forEach(out::println);
    out.println(
        "probe prefix "
            + report.path("probePrefix").asText()
            + ", cleanup "
            + report.path("cleanup").asText());
  }
}
