package dev.sluice.testing.faults;

import dev.sluice.store.TestFaults;

/**
 * The only {@link TestFaults} implementation, in test sources only: a fault is on when the system
 * property {@value #PROPERTY} names it. Registered in {@code META-INF/services} and packaged alone
 * as {@code sluice-server-*-test-faults.jar} (server/pom.xml) for the e2e tests that start
 * deliberately broken replicas; the shipped server jar has neither this class nor its registration.
 */
public final class SystemPropertyFaults implements TestFaults {
  /** The system property naming the fault to inject. */
  public static final String PROPERTY = "sluice.test.fault";

  /** {@link #blindPointerSwap()}: commits overwrite metadata pointers without compare-and-set. */
  public static final String BLIND_POINTER_SWAP = "blind-pointer-swap";

  @Override
  public boolean blindPointerSwap() {
    return BLIND_POINTER_SWAP.equals(System.getProperty(PROPERTY));
  }
}
