package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code Idempotency-Key} contract at the store ({@link Store#claiming}): a request's view
 * records its claim in the transaction of each mutation it makes, the store itself records none,
 * and a second request holding the same key has its change rolled back.
 */
class ClaimingStoreTest {
  private static final String CAT = "cat";
  private static final NamespacePath NS = NamespacePath.of("ns");

  private Store store;

  @BeforeEach
  void open() throws Exception {
    String url =
        "jdbc:h2:file:"
            + Files.createTempDirectory("sluice-claims").resolve("catalog")
            + ";DB_CLOSE_ON_EXIT=FALSE";
    store = JdbcStore.open(new DatabaseConfig(url, null, null, 10, 5000));
    store.createCatalog(
        new CatalogRecord(CAT, "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
    store.createNamespace(CAT, NS, Map.of());
  }

  @AfterEach
  void close() throws Exception {
    store.close();
  }

  @Test
  void theStoreItselfRecordsNoKey() {
    store.createContent(CAT, NS, "t", ContentKind.TABLE, "v1");
    store.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v2")));
    assertThat(store.idempotencyKeys().sweep(Long.MAX_VALUE)).isZero();
  }

  @Test
  void everyMutationOfAClaimingViewRecordsItsKeyUnanswered() {
    List<Mutation> mutations =
        List.of(
            s -> s.createNamespace(CAT, NamespacePath.of("ns", "child"), Map.of()),
            s -> s.updateNamespaceProperties(CAT, NS, Set.of(), Map.of("k", "v")),
            s -> s.createContent(CAT, NS, "t", ContentKind.TABLE, "v1"),
            s ->
                s.swapMetadata(
                    CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v2"))),
            s -> s.renameContent(CAT, ContentKind.TABLE, NS, "t", NS, "t2"),
            s -> s.dropContent(CAT, NS, "t2", ContentKind.TABLE),
            s -> s.dropNamespace(CAT, NamespacePath.of("ns", "child")));
    for (int i = 0; i < mutations.size(); i++) {
      IdempotencyClaim claim = claim();
      mutations.get(i).apply(store.claiming(claim));
      assertThat(store.idempotencyKeys().find(claim.key()))
          .as("mutation %d recorded its key", i)
          .hasValueSatisfying(
              row -> {
                assertThat(row.attempt()).isEqualTo(claim.attempt());
                assertThat(row.answered()).isFalse();
              });
    }
    assertThat(store.getContent(CAT, NS, "t2")).isEmpty();
  }

  @Test
  void aSecondRequestWithTheKeyIsRefusedAndItsChangeRolledBack() {
    store.createContent(CAT, NS, "t", ContentKind.TABLE, "v1");
    IdempotencyClaim first = claim();
    Store firstView = store.claiming(first);
    firstView.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v1", "v2")));
    // The same request's second transaction (Iceberg's handlers may write twice) is its own.
    firstView.swapMetadata(CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v2", "v3")));

    IdempotencyClaim second =
        new IdempotencyClaim(
            first.key(),
            first.principal(),
            first.principalIdentity(),
            first.catalog(),
            first.operation(),
            first.requestHash(),
            UUID.randomUUID().toString(),
            first.createdAt(),
            first.expiresAt());
    assertThatThrownBy(
            () ->
                store
                    .claiming(second)
                    .swapMetadata(
                        CAT, List.of(new MetadataSwap(NS, "t", ContentKind.TABLE, "v3", "v4"))))
        .isInstanceOf(IdempotencyKeyTaken.class);
    assertThat(store.getContent(CAT, NS, "t").orElseThrow().metadataLocation()).isEqualTo("v3");
  }

  @Test
  void closingAViewLeavesTheStoreOpen() throws Exception {
    store.claiming(claim()).close();
    store.createContent(CAT, NS, "t", ContentKind.TABLE, "v1");
    assertThat(store.getContent(CAT, NS, "t")).isPresent();
  }

  @FunctionalInterface
  private interface Mutation {
    void apply(Store store);
  }

  private static IdempotencyClaim claim() {
    long now = System.currentTimeMillis();
    return new IdempotencyClaim(
        UUID.randomUUID().toString(),
        "alice",
        "principal:1",
        CAT,
        "op",
        "hash",
        UUID.randomUUID().toString(),
        now,
        now + 60_000);
  }
}
