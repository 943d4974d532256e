package dev.sluice.store;

import static dev.sluice.store.LocationClaimsContract.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.location.StorageLocation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Federated catalogs in the store: their connection configuration, and the location claims of their
 * tables, which no table, view or namespace of any catalog may overlap, and which overlap none of
 * those nor each other, decided atomically. Each database runs the same cases through a subclass.
 */
abstract class RemoteClaimsContract {
  private static final NamespacePath NS = NamespacePath.of("ns");
  private static final NamespacePath DB = NamespacePath.of("db");
  private static final String CONNECTION =
      "{\"connectionType\":\"ICEBERG_REST\",\"uri\":\"https://old:8181/api/catalog\"}";
  protected Store store;

  protected abstract Store openStore() throws Exception;

  /** Another replica on {@link #store}'s database, or null where it serves one replica only. */
  protected Store openReplica() throws Exception {
    return null;
  }

  @BeforeEach
  void open() throws Exception {
    store = openStore();
    store.createCatalog(
        new CatalogRecord("c1", "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
    store.createNamespace("c1", NS, Map.of());
    for (String federated : List.of("fed", "fed2")) {
      store.createCatalog(
          new CatalogRecord(
              federated, "EXTERNAL", Map.of(), "{\"storageType\":\"S3\"}", CONNECTION, 1, 0, 0),
          "service_admin");
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  private Optional<LocationConflict> claim(String catalog, String name, String... locations) {
    return store.claimRemoteLocations(catalog, DB, name, claims(locations));
  }

  private void create(String name, String... locations) {
    store.createContent("c1", NS, name, ContentKind.TABLE, "m-" + name, claims(locations));
  }

  private static String key(String location) {
    return StorageLocation.parse(location).key();
  }

  private Optional<RemoteClaimHolder> holder(String location) {
    return store.remoteClaimHolder(key(location));
  }

  @Test
  void aFederatedCatalogKeepsItsConnectionConfig() {
    assertThat(store.getCatalog("fed").orElseThrow().connectionConfig()).isEqualTo(CONNECTION);
    assertThat(store.getCatalog("c1").orElseThrow().connectionConfig()).isNull();
    assertThat(store.listCatalogs(PageRequest.all()).items())
        .extracting(CatalogRecord::name, CatalogRecord::connectionConfig)
        .contains(
            org.assertj.core.groups.Tuple.tuple("c1", null),
            org.assertj.core.groups.Tuple.tuple("fed", CONNECTION));
    // An update that does not name it keeps it (the catalog's type never changes) ...
    CatalogRecord current = store.getCatalog("fed").orElseThrow();
    CatalogRecord updated =
        store.updateCatalog(
            new CatalogRecord("fed", "EXTERNAL", Map.of("k", "v"), "{}", 0, 0, 0),
            current.version());
    assertThat(updated.connectionConfig()).isEqualTo(CONNECTION);
    assertThat(updated.properties()).containsEntry("k", "v");
    // ... one that does replaces it.
    String moved = CONNECTION.replace("old:8181", "new:8181");
    assertThat(
            store
                .updateCatalog(
                    new CatalogRecord("fed", "EXTERNAL", Map.of(), "{}", moved, 0, 0, 0),
                    updated.version())
                .connectionConfig())
        .isEqualTo(moved);
    assertThat(store.getCatalog("fed").orElseThrow().connectionConfig()).isEqualTo(moved);
  }

  @Test
  void aRemoteTableClaimsReplacesAndReleasesItsLocations() throws Exception {
    assertThat(claim("fed", "t", "s3://b/fed/db/t", "s3://b/fed/db/t/data")).isEmpty();
    RemoteClaimHolder t = new RemoteClaimHolder("fed", DB, "t");
    assertThat(holder("s3://b/fed/db/t")).contains(t);
    assertThat(holder("s3://b/fed/db/t/data")).contains(t);
    assertThat(holder("s3://b/fed/db")).as("only a claim's own key").isEmpty();
    assertThatThrownBy(() -> create("inside", "s3://b/fed/db/t/x"))
        .isInstanceOf(LocationConflict.class);

    // Claiming the same locations again takes no lock and writes nothing: it answers while another
    // transaction holds the storage root's lock, which any write of claims waits for.
    try (Connection conn = ((JdbcStore) store).connectionForTest()) {
      conn.setAutoCommit(false);
      try (PreparedStatement ps =
          conn.prepareStatement(
              "SELECT root_key FROM storage_roots WHERE root_key = 's3://b/' FOR UPDATE")) {
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
        }
      }
      try {
        assertThat(
                CompletableFuture.supplyAsync(
                        () -> claim("fed", "t", "s3://b/fed/db/t/data/", "s3a://b/fed/db/t"))
                    .get(20, TimeUnit.SECONDS))
            .isEmpty();
      } finally {
        conn.rollback();
      }
    }

    // Other locations replace the old ones, which are free again.
    assertThat(claim("fed", "t", "s3://b/fed/db/t2")).isEmpty();
    assertThat(holder("s3://b/fed/db/t")).isEmpty();
    assertThat(holder("s3://b/fed/db/t/data")).isEmpty();
    assertThat(holder("s3://b/fed/db/t2")).contains(t);
    create("inside", "s3://b/fed/db/t/x");

    store.releaseRemoteLocations("fed", DB, "t");
    assertThat(holder("s3://b/fed/db/t2")).isEmpty();
    store.releaseRemoteLocations("fed", DB, "t"); // releasing nothing is no error
    create("there", "s3://b/fed/db/t2");
  }

  @Test
  void remoteAndInternalTablesKeepOffEachOthersLocations() {
    create("t", "s3://b/w/ns/t");
    for (String overlapping :
        List.of("s3://b/w/ns/t", "s3://b/w/ns/t/data", "s3a://b/w", "s3://b/")) {
      LocationConflict conflict = claim("fed", "x", overlapping).orElseThrow();
      assertThat(conflict.location()).isEqualTo(key(overlapping));
      assertThat(conflict.claimed()).isEqualTo("s3://b/w/ns/t/");
      // A refused claim writes nothing, not even its other, free locations.
      assertThat(claim("fed", "y", "s3://b/free/y", overlapping)).isPresent();
      assertThat(holder("s3://b/free/y")).isEmpty();
      assertThat(holder(overlapping)).isEmpty();
    }

    assertThat(claim("fed", "r", "s3://b/fed/db/r")).isEmpty();
    for (String overlapping :
        List.of("s3://b/fed/db/r", "s3://b/fed/db/r/x", "s3://b/fed", "s3://b/")) {
      assertThatThrownBy(() -> create("u", overlapping))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
      assertThatThrownBy(
              () ->
                  store.createContent(
                      "c1", NS, "v", ContentKind.VIEW, "m-v", claims("s3://b/v", overlapping)))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
    }
    assertThat(store.getContent("c1", NS, "u")).isEmpty();
    assertThat(store.getContent("c1", NS, "v")).isEmpty();
    LocationConflict found =
        store.findLocationConflict("c1", NS, "u", claims("s3://b/fed/db/r/x")).orElseThrow();
    assertThat(found.claimed()).isEqualTo("s3://b/fed/db/r/");
    assertThat(store.remoteClaimHolder(found.claimed()))
        .contains(new RemoteClaimHolder("fed", DB, "r"));
    // A commit cannot move a table onto it either, and changes nothing.
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    "c1",
                    List.of(
                        new MetadataSwap(
                            NS, "t", ContentKind.TABLE, "m-t", "m2", claims("s3://b/fed/db/r/t")))))
        .isInstanceOf(LocationConflict.class);
    assertThat(store.getContent("c1", NS, "t").orElseThrow().metadataLocation()).isEqualTo("m-t");
    // Segment-wise, as for any claim: siblings do not overlap.
    create("sibling", "s3://b/fed/db/r2");
    assertThat(claim("fed", "rr", "s3://b/fed/db/rr")).isEmpty();
  }

  @Test
  void remoteTablesKeepOffEachOtherAcrossFederatedCatalogs() {
    assertThat(claim("fed", "t1", "s3://b/lake/db/t1")).isEmpty();
    LocationConflict conflict = claim("fed", "t2", "s3://b/lake/db/t1/inner").orElseThrow();
    assertThat(conflict.claimed()).isEqualTo("s3://b/lake/db/t1/");
    assertThat(store.remoteClaimHolder(conflict.claimed()))
        .contains(new RemoteClaimHolder("fed", DB, "t1"));
    // The same name in another federated catalog is another table.
    assertThat(claim("fed2", "t1", "s3://b/lake/db/t1")).isPresent();
    assertThat(claim("fed2", "t1", "s3://b/lake")).isPresent();
    // A table's own locations may nest, and claiming them again is no conflict with itself.
    assertThat(claim("fed", "t1", "s3://b/lake/db/t1", "s3://b/lake/db/t1/data")).isEmpty();
    // A stale holder released, the location is free.
    store.releaseRemoteLocations("fed", DB, "t1");
    assertThat(claim("fed", "t2", "s3://b/lake/db/t1/inner")).isEmpty();
    assertThat(holder("s3://b/lake/db/t1/inner")).contains(new RemoteClaimHolder("fed", DB, "t2"));
  }

  @Test
  void everyNamespaceClaimIsForeignToARemoteTable() {
    store.createNamespace(
        "c1", NamespacePath.of("placed"), Map.of(), claims("s3://b/ns-loc").get(0));
    for (String overlapping : List.of("s3://b/ns-loc/t", "s3://b/ns-loc", "s3://b/")) {
      assertThat(claim("fed", "t", overlapping).orElseThrow().claimed())
          .as(overlapping)
          .isEqualTo("s3://b/ns-loc/");
    }
    assertThat(claim("fed", "t", "s3://b/fed/db/t")).isEmpty();
    for (String overlapping : List.of("s3://b/fed", "s3://b/fed/db/t", "s3://b/fed/db/t/in")) {
      assertThatThrownBy(
              () ->
                  store.createNamespace(
                      "c1", NamespacePath.of("over"), Map.of(), claims(overlapping).get(0)))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
    }
    assertThat(store.loadNamespace("c1", NamespacePath.of("over"))).isEmpty();
    store.createNamespace("c1", NamespacePath.of("empty"), Map.of());
    assertThatThrownBy(
            () ->
                store.updateNamespaceProperties(
                    "c1",
                    NamespacePath.of("empty"),
                    Set.of(),
                    Map.of("location", "s3://b/fed"),
                    claims("s3://b/fed").get(0)))
        .isInstanceOf(LocationConflict.class);
    assertThat(store.loadNamespace("c1", NamespacePath.of("empty")).orElseThrow()).isEmpty();
  }

  @Test
  void aFederatedCatalogsClaimsGoWithIt() {
    assertThat(claim("fed", "t", "s3://b/gone/t")).isEmpty();
    store.deleteCatalog("fed");
    assertThat(holder("s3://b/gone/t")).isEmpty();
    create("t", "s3://b/gone/t");
    assertThatThrownBy(() -> claim("missing", "t", "s3://b/missing/t"))
        .isInstanceOf(NotFound.class)
        .hasMessageContaining("missing");
  }

  /**
   * Of many concurrent claims of nested locations (every pair overlaps), remote and internal, on
   * two replicas where the database serves several, exactly one wins, every round.
   */
  @Test
  void concurrentOverlappingRemoteAndInternalClaimsHaveExactlyOneWinner() throws Exception {
    int racers = 12;
    Store replica = openReplica();
    Store other = replica == null ? store : replica;
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    try {
      for (int round = 0; round < 15; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
          String name = "r" + round + "-" + i;
          String location = "s3://race/r" + round + "/a" + "/a".repeat(i);
          Store on = i % 2 == 0 ? store : other;
          boolean internal = i % 3 == 0;
          String catalog = i % 4 < 2 ? "fed" : "fed2";
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    if (!internal) {
                      return on.claimRemoteLocations(catalog, DB, name, claims(location)).isEmpty();
                    }
                    try {
                      on.createContent("c1", NS, name, ContentKind.TABLE, "m", claims(location));
                      return true;
                    } catch (LocationConflict e) {
                      return false;
                    }
                  }));
        }
        go.countDown();
        int winners = 0;
        for (Future<Boolean> result : results) {
          winners += result.get() ? 1 : 0;
        }
        assertThat(winners).as("round " + round).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
      if (replica != null) {
        replica.close();
      }
    }
  }
}
