package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The storage self-check's report: a verdict ({@code pass}, {@code fail}, or {@code unavailable}
 * with a {@code message} when the check could not run at a create) and one row per check. No
 * secret.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VerificationReport(
    String catalog,
    String storageType,
    String verdict,
    Long passed,
    Long failed,
    Long skipped,
    String probePrefix,
    String cleanup,
    List<CheckResult> checks,
    String message) {
  public VerificationReport {
    checks = Fields.copyOrNull(checks);
  }

  /** A self-check that could not run: the catalog stays, the operator reads why. */
  public static VerificationReport unavailable(String catalog, String message) {
    return new VerificationReport(
        catalog, null, "unavailable", null, null, null, null, null, null, message);
  }

  /** One check: what was expected, what the store did, and what to fix when it failed. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CheckResult(
      String name,
      String expected,
      String observed,
      String outcome,
      boolean pass,
      Integer status,
      String code,
      String explanation) {}
}
