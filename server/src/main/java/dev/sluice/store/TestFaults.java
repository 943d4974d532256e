package dev.sluice.store;

import java.util.ServiceLoader;

/**
 * TEST-ONLY: a fault a test build can inject into the store, so that the durability tests can show
 * they catch a broken server (issue 20). The shipped server has no implementation: {@link
 * #installed()} answers {@link #NONE}, and no configuration or system property turns a fault on.
 * The only implementation is in the server's test sources ({@code dev.sluice.testing.faults}),
 * packaged apart as {@code sluice-server-*-test-faults.jar}, which only the e2e tests put on a
 * replica's class path.
 */
public interface TestFaults {
  /** No fault: the shipped server's behaviour. */
  TestFaults NONE = () -> false;

  /**
   * True: a metadata pointer swap overwrites the pointer without comparing it with the expected
   * location (a broken compare-and-set), so two commits from one base both succeed and the later
   * one drops the earlier.
   */
  boolean blindPointerSwap();

  /** The implementation on the class path, if a test put one there; else {@link #NONE}. */
  static TestFaults installed() {
    return ServiceLoader.load(TestFaults.class, TestFaults.class.getClassLoader())
        .findFirst()
        .orElse(NONE);
  }
}
