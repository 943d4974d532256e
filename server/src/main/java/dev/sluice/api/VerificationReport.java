package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The storage self-check's report: a verdict ({@code pass}, {@code fail}, or {@code unavailable}
 * with a {@code message} when the check could not run at a create), one row per check, and a report
 * of its own for each namespace storage identity ({@code namespaces}; the verdict fails when one of
 * them fails, the counts are the catalog's own rows). No secret.
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
    String message,
    List<NamespaceReport> namespaces) {
  public VerificationReport {
    checks = Fields.copyOrNull(checks);
    namespaces = Fields.copyOrNull(namespaces);
  }

  /** A self-check that could not run: the catalog stays, the operator reads why. */
  public static VerificationReport unavailable(String catalog, String message) {
    return new VerificationReport(
        catalog, null, "unavailable", null, null, null, null, null, null, message, null);
  }

  /** The self-check of one namespace's storage identity, under the namespace's location. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NamespaceReport(
      List<String> namespace,
      String verdict,
      Long passed,
      Long failed,
      Long skipped,
      String probePrefix,
      String cleanup,
      List<CheckResult> checks) {
    public NamespaceReport {
      namespace = Fields.copyOrNull(namespace);
      checks = Fields.copyOrNull(checks);
    }
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
