package dev.sluice.cli;

import dev.sluice.api.VerificationReport;
import dev.sluice.api.VerificationReport.CheckResult;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
    Answer<VerificationReport> answer =
        client.post(
            ApiPath.of("catalogs", name, "verify"),
            Bodies.verify(otherLocation),
            VerificationReport.class);
    console.show(answer, VerifyCatalog::print);
    // Read in json mode too: the exit status follows the verdict either way.
    VerificationReport report = answer.value();
    if (report == null || !"pass".equals(report.verdict())) {
      throw new AdminFailure(
          "catalog "
              + name
              + " failed the storage self-check ("
              + (report == null ? 0 : failedRows(report))
              + " failed)");
    }
  }

  static void print(PrintWriter out, VerificationReport report) {
    printOne(
        out,
        report.catalog(),
        report.storageType(),
        report.verdict(),
        report.passed(),
        report.failed(),
        report.skipped(),
        checks(report),
        report.probePrefix(),
        report.cleanup());
    if (report.namespaces() != null) {
      for (VerificationReport.NamespaceReport ns : report.namespaces()) {
        out.println();
        printOne(
            out,
            text(report.catalog())
                + ", storage identity of namespace "
                + String.join(".", ns.namespace()),
            report.storageType(),
            ns.verdict(),
            ns.passed(),
            ns.failed(),
            ns.skipped(),
            ns.checks() == null ? List.of() : ns.checks(),
            ns.probePrefix(),
            ns.cleanup());
      }
    }
  }

  private static void printOne(
      PrintWriter out,
      String catalog,
      String storageType,
      String verdict,
      Long passed,
      Long failed,
      Long skipped,
      List<CheckResult> checks,
      String probePrefix,
      String cleanup) {
    out.println(
        "catalog "
            + text(catalog)
            + " ("
            + text(storageType)
            + "): "
            + text(verdict).toUpperCase(Locale.ROOT)
            + ", "
            + count(passed)
            + " passed, "
            + count(failed)
            + " failed, "
            + count(skipped)
            + " skipped");
    TextTable table = new TextTable("CHECK", "EXPECTED", "OBSERVED", "RESULT");
    for (CheckResult check : checks) {
      table.row(
          text(check.name()),
          text(check.expected()),
          text(check.observed()),
          text(check.outcome()).toUpperCase(Locale.ROOT));
    }
    table.print(out);
    // Rows share their advice on where to fix: each row says what it saw, the advice once.
    Set<String> fixes = new LinkedHashSet<>();
    for (CheckResult check : checks) {
      if (!check.pass() && check.explanation() != null) {
        String explanation = check.explanation();
        int fix = explanation.indexOf(WHERE_TO_FIX);
        if (fix >= 0) {
          fixes.add(explanation.substring(fix + 1));
          explanation = explanation.substring(0, fix);
        }
        out.println(text(check.outcome()) + " " + text(check.name()) + ": " + explanation);
      }
    }
    fixes.forEach(out::println);
    out.println("probe prefix " + text(probePrefix) + ", cleanup " + text(cleanup));
  }

  /** A report of checks has them; one without (a self-check that could not run) is unexpected. */
  private static List<CheckResult> checks(VerificationReport report) {
    if (report.checks() == null) {
      throw new AdminFailure("unexpected response from the server: no \"checks\" list");
    }
    return report.checks();
  }

  /** Failed rows, the namespace identities' included. */
  private static long failedRows(VerificationReport report) {
    long failed = count(report.failed());
    if (report.namespaces() != null) {
      for (VerificationReport.NamespaceReport ns : report.namespaces()) {
        failed += count(ns.failed());
      }
    }
    return failed;
  }

  private static long count(Long value) {
    return value == null ? 0 : value;
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }
}
