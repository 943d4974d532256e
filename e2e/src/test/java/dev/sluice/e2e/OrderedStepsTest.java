package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@link OrderedSteps} on tiny stepped classes run through the JUnit Platform Launcher: a failure
 * at step 2 skips steps 3 and 4 (which never run), still fails, and touches neither the class's
 * other tests nor another class's steps. Needs no test bed.
 */
class OrderedStepsTest {

  /** The methods of the fixtures that ran, in order. */
  private static final List<String> RAN = new ArrayList<>();

  @Test
  void aFailedStepSkipsTheLaterStepsOfItsClassOnly() {
    RAN.clear();
    Outcomes outcomes = run(FailsAtStep2.class, AllStepsPass.class);

    assertThat(outcomes.summary.getTestsFoundCount()).isEqualTo(8);
    assertThat(outcomes.summary.getTestsFailedCount()).as("the first failure still fails").isOne();
    assertThat(outcomes.summary.getTestsSucceededCount()).isEqualTo(5);
    assertThat(outcomes.summary.getTestsSkippedCount()).isEqualTo(2);
    assertThat(outcomes.summary.getTestsAbortedCount()).isZero();
    assertThat(outcomes.summary.getFailures())
        .singleElement()
        .satisfies(f -> assertThat(f.getException()).hasMessage("step 2 broke"));

    assertThat(outcomes.of("FailsAtStep2"))
        .containsExactly(
            Map.entry("step1", "SUCCESSFUL"),
            Map.entry("step2", "FAILED"),
            Map.entry("step3", "skipped: earlier step step2 failed"),
            Map.entry("step4", "skipped: earlier step step2 failed"),
            Map.entry("notAStep", "SUCCESSFUL"));
    assertThat(outcomes.of("AllStepsPass"))
        .containsExactly(
            Map.entry("step1", "SUCCESSFUL"),
            Map.entry("step2", "SUCCESSFUL"),
            Map.entry("step3", "SUCCESSFUL"));
    assertThat(RAN)
        .filteredOn(m -> m.startsWith("FailsAtStep2."))
        .as("steps 3 and 4 never ran")
        .containsExactly("FailsAtStep2.step1", "FailsAtStep2.step2", "FailsAtStep2.notAStep");
    assertThat(RAN)
        .filteredOn(m -> m.startsWith("AllStepsPass."))
        .containsExactly("AllStepsPass.step1", "AllStepsPass.step2", "AllStepsPass.step3");
  }

  @Test
  void aFailureOutsideTheStepsSkipsNothing() {
    RAN.clear();
    Outcomes outcomes = run(FailsOutsideTheSteps.class);

    assertThat(outcomes.of("FailsOutsideTheSteps"))
        .containsExactly(
            Map.entry("notAStep", "FAILED"),
            Map.entry("step1", "SUCCESSFUL"),
            Map.entry("step2", "SUCCESSFUL"));
  }

  @Test
  void aRunAfterTheFailureStartsAfresh() {
    RAN.clear();
    run(FailsAtStep2.class);
    Outcomes again = run(FailsAtStep2.class);

    assertThat(again.of("FailsAtStep2"))
        .containsEntry("step2", "FAILED")
        .containsEntry("step3", "skipped: earlier step step2 failed");
    assertThat(RAN).filteredOn(m -> m.equals("FailsAtStep2.step2")).hasSize(2);
  }

  // --- fixtures: not picked up by failsafe on their own (nested classes are excluded) ----------

  @ExtendWith(OrderedSteps.class)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class FailsAtStep2 {
    @Test
    @Order(1)
    void step1() {
      RAN.add("FailsAtStep2.step1");
    }

    @Test
    @Order(2)
    void step2() {
      RAN.add("FailsAtStep2.step2");
      throw new AssertionError("step 2 broke");
    }

    @Test
    @Order(3)
    void step3() {
      RAN.add("FailsAtStep2.step3");
    }

    @Test
    @Order(4)
    void step4() {
      RAN.add("FailsAtStep2.step4");
    }

    @Test
    @Order(5)
    void notAStep() {
      RAN.add("FailsAtStep2.notAStep");
    }
  }

  @ExtendWith(OrderedSteps.class)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class AllStepsPass {
    @Test
    @Order(1)
    void step1() {
      RAN.add("AllStepsPass.step1");
    }

    @Test
    @Order(2)
    void step2() {
      RAN.add("AllStepsPass.step2");
    }

    @Test
    @Order(3)
    void step3() {
      RAN.add("AllStepsPass.step3");
    }
  }

  @ExtendWith(OrderedSteps.class)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class FailsOutsideTheSteps {
    @Test
    @Order(1)
    void notAStep() {
      throw new AssertionError("not a step");
    }

    @Test
    @Order(2)
    void step1() {}

    @Test
    @Order(3)
    void step2() {}
  }

  // --- running them -----------------------------------------------------------------------------

  private record Outcomes(TestExecutionSummary summary, Map<String, String> byMethod) {
    /** The results of {@code fixture}'s methods, by method name, in the order they finished. */
    Map<String, String> of(String fixture) {
      Map<String, String> results = new LinkedHashMap<>();
      byMethod.forEach(
          (name, result) -> {
            if (name.startsWith(fixture + ".")) {
              results.put(name.substring(fixture.length() + 1), result);
            }
          });
      return results;
    }
  }

  /**
   * Runs {@code classes} in this order with the Jupiter engine; per test method "Class.method" its
   * result, or "skipped: reason".
   */
  private static Outcomes run(Class<?>... classes) {
    Map<String, String> byMethod = new LinkedHashMap<>();
    TestExecutionListener recorder =
        new TestExecutionListener() {
          @Override
          public void executionSkipped(TestIdentifier test, String reason) {
            byMethod.put(name(test), "skipped: " + reason);
          }

          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest()) {
              byMethod.put(name(test), result.getStatus().name());
            }
          }
        };
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    LauncherFactory.create().execute(request.build(), recorder, summary);
    return new Outcomes(summary.getSummary(), byMethod);
  }

  /** "FailsAtStep2.step1" for a method (its legacy reporting name is "step1()"). */
  private static String name(TestIdentifier test) {
    String uniqueId = test.getUniqueId();
    String className = uniqueId.replaceAll(".*\\[class:[^\\]]*\\$([^\\]$]+)\\].*", "$1");
    return className + "." + test.getDisplayName().replace("()", "");
  }
}
