package dev.sluice.http;

import dev.sluice.api.VerificationReport;
import dev.sluice.vending.verify.Check;
import dev.sluice.vending.verify.VerifyReport;
import java.util.Locale;

/** The storage self-check's report as the contract's {@link VerificationReport}. No secret. */
final class VerifyReportJson {
  private VerifyReportJson() {}

  static VerificationReport render(VerifyReport report) {
    return new VerificationReport(
        report.catalog(),
        report.storageType(),
        lower(report.verdict()),
        report.passed(),
        report.failed(),
        report.skipped(),
        report.probePrefix(),
        report.cleanup(),
        report.checks().stream().map(VerifyReportJson::row).toList(),
        null,
        report.identities().isEmpty()
            ? null
            : report.identities().stream().map(VerifyReportJson::namespace).toList());
  }

  private static VerificationReport.NamespaceReport namespace(VerifyReport.IdentityReport one) {
    VerifyReport report = one.report();
    return new VerificationReport.NamespaceReport(
        one.namespace(),
        lower(report.verdict()),
        report.passed(),
        report.failed(),
        report.skipped(),
        report.probePrefix(),
        report.cleanup(),
        report.checks().stream().map(VerifyReportJson::row).toList());
  }

  private static VerificationReport.CheckResult row(Check check) {
    return new VerificationReport.CheckResult(
        check.name(),
        lower(check.expected()),
        check.observed(),
        lower(check.outcome()),
        check.passed(),
        check.status() > 0 ? check.status() : null,
        check.code(),
        check.explanation() != null && !check.explanation().isEmpty() ? check.explanation() : null);
  }

  private static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
