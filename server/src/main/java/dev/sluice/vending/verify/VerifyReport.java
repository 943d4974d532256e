package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The answer of a storage self-check: one row per check, where it probed, whether the probe prefix
 * was cleaned up. The verdict passes only when no check failed and at least one ran; skipped checks
 * are counted apart and never as passes.
 */
public record VerifyReport(
    String catalog, String storageType, String probePrefix, List<Check> checks, String cleanup) {
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
  }

  public Verdict verdict() {
    boolean anyFailed = checks.stream().anyMatch(c -> c.outcome() == Check.Outcome.FAIL);
    return anyFailed || passed() == 0 ? Verdict.FAIL : Verdict.PASS;
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
