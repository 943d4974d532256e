package dev.sluice.e2e;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Ordered steps: the {@code step*} methods of a class (run in order, e.g. with
 * {@code @TestMethodOrder(MethodOrderer.OrderAnnotation.class)}) form one scenario, and once one of
 * them fails the later ones are skipped ("earlier step X failed") rather than failing for the same
 * cause. The first failure still fails the build; a skipped step is never counted as passed.
 * Methods not named {@code step*} neither stop nor are stopped by the steps.
 *
 * <p>Use it with {@code @ExtendWith(OrderedSteps.class)} on the test class. The failed step is kept
 * in the store of the test class's extension context, so every class (and every {@code @Nested}
 * class) has its own scenario.
 */
public final class OrderedSteps implements TestWatcher, ExecutionCondition {
  private static final Namespace NAMESPACE = Namespace.create(OrderedSteps.class);
  private static final String FAILED_STEP = "failedStep";

  static boolean isStep(Method method) {
    return method.getName().startsWith("step");
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    Optional<Method> method = context.getTestMethod();
    if (method.isEmpty() || !isStep(method.get())) {
      return ConditionEvaluationResult.enabled("not a step");
    }
    String failed = classStore(context).get(FAILED_STEP, String.class);
    return failed == null
        ? ConditionEvaluationResult.enabled("no earlier step failed")
        : ConditionEvaluationResult.disabled("earlier step " + failed + " failed");
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    Method method = context.getRequiredTestMethod();
    if (isStep(method)) {
      classStore(context).getOrComputeIfAbsent(FAILED_STEP, k -> method.getName(), String.class);
    }
  }

  /** The store of the class whose method {@code context} runs: one failed step per class. */
  private static ExtensionContext.Store classStore(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent()) {
      c = c.getParent().orElseThrow();
    }
    return c.getStore(NAMESPACE);
  }
}
