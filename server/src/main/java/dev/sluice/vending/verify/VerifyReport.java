package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The answer of a storage self-check: one row per check, where it probed, whether the probe prefix
 * was cleaned up, and a report of its own for each namespace storage identity ({@code identities}).
 * The verdict passes only when no check failed and at least one ran, and every identity's report
 * passes; skipped checks are counted apart and never as passes. The counts are the catalog's own
 * rows.
 */
public record VerifyReport(
    String catalog,
    String storageType,
    String probePrefix,
    List<Check> checks,
    String cleanup,
    List<IdentityReport> identities) {
  /** The self-check of one namespace's storage identity, run under the namespace's location. */
  public record IdentityReport(List<String> namespace, VerifyReport report) {
    public IdentityReport {
      namespace = List.copyOf(namespace);
      requireNonNull(report, "report");
    }
  }

  /** A report without namespace identities. */
  public VerifyReport(
      String catalog, String storageType, String probePrefix, List<Check> checks, String cleanup) {
    this(catalog, storageType, probePrefix, checks, cleanup, List.of());
  }

  /** This report with the reports of the catalog's namespace identities. */
  public VerifyReport withIdentities(List<IdentityReport> reports) {
    return new VerifyReport(catalog, storageType, probePrefix, checks, cleanup, reports);
  }

  public enum Verdict {
    PASS,
    FAIL
  }

  public VerifyReport {
    requireNonNull(catalog, "catalog");
    requireNonNull(storageType, "storageType");
    requireNonNull(probePrefix, "probePrefix");
    checks = List.copyOf(checks);
    requireNonNull(cleanup, "cleanup");
    identities = List.copyOf(identities);
  }

  public Verdict verdict() {
    boolean anyFailed = checks.stream().anyMatch(c -> c.outcome() == Check.Outcome.FAIL);
    boolean identityFailed =
        identities.stream().anyMatch(i -> i.report().verdict() == Verdict.FAIL);
    return anyFailed || passed() == 0 || identityFailed ? Verdict.FAIL : Verdict.PASS;
  }

  public long passed() {
    return count(Check.Outcome.PASS);
  }

  public long failed() {
    return count(Check.Outcome.FAIL);
  }

  public long skipped() {
    return count(Check.Outcome.SKIPPED);
  }

  private long count(Check.Outcome outcome) {
    return checks.stream().filter(c -> c.outcome() == outcome).count();
  }
}
