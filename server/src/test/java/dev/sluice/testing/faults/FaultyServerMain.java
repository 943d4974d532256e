package dev.sluice.testing.faults;

import dev.sluice.Main;
import dev.sluice.store.Store;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TEST-ONLY: {@code sluice} ({@link Main}) with the fault the system property {@value #PROPERTY}
 * names put into the catalogs' store. Packaged alone as {@code sluice-server-*-test-faults.jar}
 * (server/pom.xml) for the e2e tests that start deliberately broken replicas; the shipped server
 * has neither this class nor any fault.
 */
public final class FaultyServerMain {
  /** The system property naming the fault to inject. */
  public static final String PROPERTY = "sluice.test.fault";

  /** {@link BlindPointerSwapStore}: commits overwrite metadata pointers without compare-and-set. */
  public static final String BLIND_POINTER_SWAP = "blind-pointer-swap";

  private static final Logger LOG = LoggerFactory.getLogger(FaultyServerMain.class);

  private FaultyServerMain() {}

  public static void main(String[] args) {
    System.exit(Main.execute(args, fault(System.getProperty(PROPERTY))));
  }

  /** The store decorator that injects {@code name}. */
  static UnaryOperator<Store> fault(String name) {
    if (!BLIND_POINTER_SWAP.equals(name)) {
      throw new IllegalArgumentException(
          "Unknown test fault " + PROPERTY + "=" + name + " (known: " + BLIND_POINTER_SWAP + ")");
    }
    LOG.warn("TEST FAULT {}: commits overwrite pointers without compare-and-set", name);
    return BlindPointerSwapStore::new;
  }
}
