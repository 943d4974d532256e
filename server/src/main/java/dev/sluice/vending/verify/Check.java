package dev.sluice.vending.verify;

import static java.util.Objects.requireNonNull;

/**
 * One row of a storage self-check: what was tried, what the store must do (allow or refuse), what
 * it did, and the outcome. A negative check the store allowed is a failure whose explanation says
 * what is mis-scoped and where to fix it; anything that proves neither allow nor refuse is a
 * failure too (inconclusive), and a check that could not run is skipped, never a pass.
 */
public record Check(
    String name,
    Expect expected,
    String observed,
    Outcome outcome,
    int status,
    String code,
    String explanation) {
  public enum Expect {
    ALLOWED,
    REFUSED
  }

  public enum Outcome {
    PASS,
    FAIL,
    SKIPPED
  }

  public Check {
    requireNonNull(name, "name");
    requireNonNull(expected, "expected");
    requireNonNull(observed, "observed");
    requireNonNull(outcome, "outcome");
  }

  public boolean passed() {
    return outcome == Outcome.PASS;
  }

  /** A check that did not run ({@code why}: the reason, shown in place of an observation). */
  public static Check skipped(String name, Expect expected, String why) {
    return new Check(name, expected, "not run", Outcome.SKIPPED, 0, null, why);
  }

  /** A check that could not be performed at all (a set-up step failed): a failure. */
  public static Check failed(String name, Expect expected, String observed, String why) {
    return new Check(name, expected, observed, Outcome.FAIL, 0, null, why);
  }

  /**
   * Judges one observation. {@code misScoped} explains a refusal the store did not make (what the
   * credential could do that it must not, and where to fix it); {@code brokenAccess} explains an
   * allowed request the store refused (engines cannot use what they are given).
   */
  public static Check judge(
      String name, Expect expected, Observed observed, String misScoped, String brokenAccess) {
    Outcome outcome;
    String explanation = null;
    switch (observed.kind()) {
      case ALLOWED -> {
        outcome = expected == Expect.ALLOWED ? Outcome.PASS : Outcome.FAIL;
        if (outcome == Outcome.FAIL) {
          explanation = "MIS-SCOPED: " + misScoped;
        }
      }
      case REFUSED -> {
        outcome = expected == Expect.REFUSED ? Outcome.PASS : Outcome.FAIL;
        if (outcome == Outcome.FAIL) {
          explanation = brokenAccess;
        }
      }
      case MISSING -> {
        // A 404 means the store authorized the request and then found nothing: for a refusal
        // this proves the opposite; for an allowed request on an object the check wrote, it is
        // broken.
        outcome = Outcome.FAIL;
        explanation =
            expected == Expect.REFUSED
                ? "MIS-SCOPED: the store answered 404 instead of refusing, so it authorized the"
                    + " request: "
                    + misScoped
                : "the store answered 404 for an object the check had written";
      }
      case UNSUPPORTED -> {
        // Never a pass: the store could not show what it would do.
        outcome = Outcome.SKIPPED;
        explanation =
            "not applicable: "
                + (observed.detail() == null
                    ? "the store does not implement this operation"
                    : observed.detail());
      }
      default -> {
        outcome = Outcome.FAIL;
        explanation =
            "inconclusive: the store neither allowed nor refused, so nothing is proven"
                + (observed.detail() == null ? "" : " (" + observed.detail() + ")");
      }
    }
    return new Check(
        name,
        expected,
        observed.describe(),
        outcome,
        observed.status(),
        observed.code(),
        explanation);
  }
}
