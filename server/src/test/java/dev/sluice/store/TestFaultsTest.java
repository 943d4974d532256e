package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.faults.SystemPropertyFaults;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The test-only fault hook ({@link TestFaults}): on this test class path its implementation is
 * found, it is off unless its system property names the fault, and the blind pointer swap really
 * drops the compare-and-set (the e2e {@code BrokenCompareAndSetStormTest} relies on that).
 */
class TestFaultsTest {
  private static final String CAT = "cat";
  private static final NamespacePath NS = NamespacePath.of("ns");

  @Test
  void offUnlessItsPropertyNamesTheFault_thenAStaleSwapIsRefused() throws Exception {
    assertThat(TestFaults.installed()).isInstanceOf(SystemPropertyFaults.class);
    assertThat(System.getProperty(SystemPropertyFaults.PROPERTY)).isNull();
    assertThat(TestFaults.installed().blindPointerSwap()).isFalse();

    try (Store store = tableAtV2()) {
      assertThatThrownBy(
              () ->
                  store.swapMetadata(
                      CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v3"))))
          .isInstanceOf(Conflict.class);
      assertThat(location(store)).isEqualTo("v2");
    }
  }

  @Test
  void blindPointerSwap_overwritesAStalePointer() throws Exception {
    System.setProperty(SystemPropertyFaults.PROPERTY, SystemPropertyFaults.BLIND_POINTER_SWAP);
    Store store;
    try {
      assertThat(TestFaults.installed().blindPointerSwap()).isTrue();
      store = tableAtV2(); // reads the switch once, when opened
    } finally {
      System.clearProperty(SystemPropertyFaults.PROPERTY);
    }
    try (store) {
      store.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v3")));
      assertThat(location(store)).as("a commit from the stale base v1 won").isEqualTo("v3");
    }
  }

  /** An H2 store whose table {@code ns.t} was committed from v1 to v2. */
  private static Store tableAtV2() throws Exception {
    String url =
        "jdbc:h2:file:"
            + Files.createTempDirectory("sluice-faults").resolve("catalog")
            + ";DB_CLOSE_ON_EXIT=FALSE";
    Store store = JdbcStore.open(new DatabaseConfig(url, null, null, 10, 5000));
    store.createCatalog(
        new CatalogRecord(CAT, "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
    store.createNamespace(CAT, NS, Map.of());
    store.createContent(CAT, NS, "t", ContentKind.TABLE, "v1");
    store.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v2")));
    return store;
  }

  private static String location(Store store) {
    return store.getContent(CAT, NS, "t").orElseThrow().metadataLocation();
  }
}
