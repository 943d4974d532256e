package dev.sluice.http;

import dev.sluice.vending.verify.Check;
import dev.sluice.vending.verify.VerifyReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The storage self-check's answer: {@code {catalog, verdict, checks: [...], ...}}. No secret. */
final class VerifyReportJson {
  private VerifyReportJson() {}

  static Map<String, Object> render(VerifyReport report) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("catalog", report.catalog());
    out.put("storageType", report.storageType());
    out.put("verdict", lower(report.verdict()));
    out.put("passed", report.passed());
    out.put("failed", report.failed());
    out.put("skipped", report.skipped());
    out.put("probePrefix", report.probePrefix());
    out.put("cleanup", report.cleanup());
    List<Map<String, Object>> checks = report.checks().stream().map(VerifyReportJson::row).toList();
    out.put("checks", checks);
    return out;
  }

  private static Map<String, Object> row(Check check) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", check.name());
    out.put("expected", lower(check.expected()));
    out.put("observed", check.observed());
    out.put("outcome", lower(check.outcome()));
    out.put("pass", check.passed());
    if (check.status() > 0) {
      out.put("status", check.status());
    }
    if (check.code() != null) {
      out.put("code", check.code());
    }
    if (check.explanation() != null && !check.explanation().isEmpty()) {
      out.put("explanation", check.explanation());
    }
    return out;
  }

  private static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
