package dev.sluice.testing.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.CatalogRecord;
import dev.sluice.store.Conflict;
import dev.sluice.store.ContentKind;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.MetadataSwap;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Store;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The test-only broken store: the store itself refuses a swap from a stale base, the fault's
 * decorator lets it overwrite the pointer (the e2e {@code BrokenCompareAndSetStormTest} relies on
 * that), also through a request's claiming view; and an unknown fault name is refused.
 */
class BlindPointerSwapStoreTest {
  private static final String CAT = "cat";
  private static final NamespacePath NS = NamespacePath.of("ns");
  private static final List<MetadataSwap> STALE =
      List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v3"));

  @Test
  void theStoreRefusesAStaleSwap() throws Exception {
    try (Store store = tableAtV2()) {
      assertThatThrownBy(() -> store.swapMetadata(CAT, STALE)).isInstanceOf(Conflict.class);
      assertThat(location(store)).isEqualTo("v2");
    }
  }

  @Test
  void theFaultOverwritesAStalePointer() throws Exception {
    try (Store store =
        FaultyServerMain.fault(FaultyServerMain.BLIND_POINTER_SWAP).apply(tableAtV2())) {
      store.swapMetadata(CAT, STALE);
      assertThat(location(store)).as("a commit from the stale base v1 won").isEqualTo("v3");
    }
  }

  @Test
  void aRequestsViewKeepsTheFault() throws Exception {
    try (Store store =
        FaultyServerMain.fault(FaultyServerMain.BLIND_POINTER_SWAP).apply(tableAtV2())) {
      long now = System.currentTimeMillis();
      Store view =
          store.claiming(
              new IdempotencyClaim(
                  UUID.randomUUID().toString(),
                  "alice",
                  "principal:1",
                  CAT,
                  "op",
                  "hash",
                  "attempt",
                  now,
                  now + 60_000));
      view.swapMetadata(CAT, STALE);
      assertThat(location(store)).isEqualTo("v3");
    }
  }

  @Test
  void anUnknownFaultIsRefused() {
    assertThatThrownBy(() -> FaultyServerMain.fault("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
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
