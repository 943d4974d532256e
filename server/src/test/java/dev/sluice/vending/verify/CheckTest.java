package dev.sluice.vending.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.vending.verify.Check.Expect;
import dev.sluice.vending.verify.Check.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdict logic: only what the store proved passes; a refusal it did not make is explained. */
class CheckTest {
  private static Check judge(Expect expected, Observed observed) {
    return Check.judge("probe", expected, observed, "it could read b. Fix the role", "broken");
  }

  @Test
  void theStoreDoingWhatIsExpectedPasses() {
    assertThat(judge(Expect.ALLOWED, Observed.allowed()).outcome()).isEqualTo(Outcome.PASS);
    Check refused = judge(Expect.REFUSED, Observed.refused(403, "AccessDenied"));
    assertThat(refused.outcome()).isEqualTo(Outcome.PASS);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.code()).isEqualTo("AccessDenied");
    assertThat(refused.observed()).isEqualTo("refused (HTTP 403 AccessDenied)");
    assertThat(judge(Expect.REFUSED, Observed.refused(401, null)).passed()).isTrue();
  }

  @Test
  void aNegativeCheckTheStoreAllowedFailsAsMisScoped() {
    Check check = judge(Expect.REFUSED, Observed.allowed());
    assertThat(check.outcome()).isEqualTo(Outcome.FAIL);
    assertThat(check.passed()).isFalse();
    assertThat(check.observed()).isEqualTo("allowed");
    assertThat(check.explanation()).isEqualTo("MIS-SCOPED: it could read b. Fix the role");
  }

  @Test
  void anOperationTheStoreLacksIsSkippedWithItsReasonNeverPassed() {
    for (Expect expected : Expect.values()) {
      Check check =
          judge(expected, Observed.unsupported(400, null, "an emulator without List Paths"));
      assertThat(check.outcome()).isEqualTo(Outcome.SKIPPED);
      assertThat(check.passed()).isFalse();
      assertThat(check.status()).isEqualTo(400);
      assertThat(check.observed())
          .isEqualTo("unsupported (HTTP 400: an emulator without List Paths)");
      assertThat(check.explanation()).isEqualTo("not applicable: an emulator without List Paths");
    }
  }

  @Test
  void aNotFoundIsNoRefusal() {
    // 404: the store authorized the request and found nothing; that proves the opposite.
    Check check = judge(Expect.REFUSED, Observed.missing(404, "NoSuchKey"));
    assertThat(check.outcome()).isEqualTo(Outcome.FAIL);
    assertThat(check.explanation()).startsWith("MIS-SCOPED: the store answered 404");
    assertThat(judge(Expect.ALLOWED, Observed.missing(404, null)).outcome())
        .isEqualTo(Outcome.FAIL);
  }

  @Test
  void anythingElseIsInconclusiveAndFails() {
    for (Expect expected : Expect.values()) {
      Check check = judge(expected, Observed.error(500, "InternalError", "the store failed"));
      assertThat(check.outcome()).isEqualTo(Outcome.FAIL);
      assertThat(check.explanation()).startsWith("inconclusive");
      Check transport = judge(expected, Observed.error(0, null, "SdkClientException"));
      assertThat(transport.outcome()).isEqualTo(Outcome.FAIL);
      assertThat(transport.observed()).isEqualTo("error (no answer: SdkClientException)");
    }
  }

  @Test
  void aRefusedPositiveCheckFailsAsBrokenAccess() {
    Check check = judge(Expect.ALLOWED, Observed.refused(403, null));
    assertThat(check.outcome()).isEqualTo(Outcome.FAIL);
    assertThat(check.explanation()).isEqualTo("broken");
  }

  @Test
  void theVerdictPassesOnlyWithoutFailuresAndWithSomethingProven() {
    Check pass = judge(Expect.REFUSED, Observed.refused(403, null));
    Check fail = judge(Expect.REFUSED, Observed.allowed());
    Check skipped = Check.skipped("expiry", Expect.REFUSED, "skipped: minimum session 900 s");
    assertThat(report(List.of(pass, skipped)).verdict()).isEqualTo(VerifyReport.Verdict.PASS);
    assertThat(report(List.of(pass, fail, skipped)).verdict()).isEqualTo(VerifyReport.Verdict.FAIL);
    // Skipped rows are never passes: a report of only skipped rows proves nothing.
    VerifyReport onlySkipped = report(List.of(skipped));
    assertThat(onlySkipped.verdict()).isEqualTo(VerifyReport.Verdict.FAIL);
    assertThat(onlySkipped.passed()).isZero();
    assertThat(onlySkipped.skipped()).isEqualTo(1);
    assertThat(skipped.passed()).isFalse();
    assertThat(report(List.of()).verdict()).isEqualTo(VerifyReport.Verdict.FAIL);
    VerifyReport mixed = report(List.of(pass, fail, skipped));
    assertThat(List.of(mixed.passed(), mixed.failed(), mixed.skipped()))
        .containsExactly(1L, 1L, 1L);
  }

  private static VerifyReport report(List<Check> checks) {
    return new VerifyReport("c", "S3", "s3://b/wh/sluice-verify-x/", checks, "done");
  }
}
