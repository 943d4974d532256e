package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a stale cached pointer can do: fail a commit's compare-and-set, never more. Two stores on
 * one in-memory H2 database and no change feed between them (H2 has none), so B's cache stays stale
 * until B's own failed commit evicts it.
 */
class PointerCacheStoreTest {
  private static final String CAT = "cat";
  private static final NamespacePath NS = NamespacePath.of("ns");
  private JdbcStore a;
  private JdbcStore b;

  @BeforeEach
  void open() {
    String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    a = JdbcStore.open(new DatabaseConfig(url, null, null, 4, 5000));
    b = JdbcStore.open(new DatabaseConfig(url, null, null, 4, 5000));
    a.createCatalog(
        new CatalogRecord(CAT, "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
    a.createNamespace(CAT, NS, Map.of());
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  @Test
  void aStaleCachedBaseFailsItsCompareAndSetAndTheRetryReadsTheDatabase() {
    a.createContent(CAT, NS, "t", ContentKind.TABLE, "m0");
    assertThat(b.getContent(CAT, NS, "t").orElseThrow().metadataLocation()).isEqualTo("m0");
    a.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "m0", "m1")));
    // B has not heard of it: its cache serves the old pointer...
    String stale = b.getContent(CAT, NS, "t").orElseThrow().metadataLocation();
    assertThat(stale).isEqualTo("m0");
    assertThat(b.pointerCache().hits()).isPositive();
    // ...and a commit from that base is refused by the database, changing nothing.
    assertThatThrownBy(
            () ->
                b.swapMetadata(
                    CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, stale, "forked"))))
        .isInstanceOf(Conflict.class);
    assertThat(a.readContent(CAT, NS, "t").orElseThrow().metadataLocation()).isEqualTo("m1");
    // The refusal evicted B's entry: the retry's refresh reads the database and then succeeds.
    String fresh = b.getContent(CAT, NS, "t").orElseThrow().metadataLocation();
    assertThat(fresh).isEqualTo("m1");
    b.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, fresh, "m2")));
    assertThat(a.readContent(CAT, NS, "t").orElseThrow().metadataLocation()).isEqualTo("m2");
  }

  @Test
  void localChangesAreSeenAtOnceByTheReplicaThatMadeThem() {
    assertThat(a.getContent(CAT, NS, "t")).isEmpty(); // a cached absence
    a.createContent(CAT, NS, "t", ContentKind.TABLE, "m0");
    assertThat(a.getContent(CAT, NS, "t")).isPresent();
    a.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "m0", "m1")));
    assertThat(a.getContent(CAT, NS, "t").orElseThrow().metadataLocation()).isEqualTo("m1");
    a.renameContent(CAT, ContentKind.TABLE, NS, "t", NS, "u");
    assertThat(a.getContent(CAT, NS, "t")).isEmpty();
    assertThat(a.getContent(CAT, NS, "u").orElseThrow().metadataLocation()).isEqualTo("m1");
    assertThat(a.dropContentIfAt(CAT, NS, "u", ContentKind.TABLE, "m1")).isTrue();
    assertThat(a.getContent(CAT, NS, "u")).isEmpty();
  }
}
