package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.location.StorageLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store's location claims: no two tables or views overlap in one storage, in any catalog,
 * decided atomically. Each database runs the same cases through a subclass.
 */
abstract class LocationClaimsContract {
  private static final NamespacePath NS = NamespacePath.of("ns");
  protected Store store;

  protected abstract Store openStore() throws Exception;

  @BeforeEach
  void open() throws Exception {
    store = openStore();
    for (String catalog : List.of("c1", "c2")) {
      store.createCatalog(
          new CatalogRecord(catalog, "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
          "service_admin");
      store.createNamespace(catalog, NS, Map.of());
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  static List<LocationClaim> claims(String... locations) {
    List<LocationClaim> out = new ArrayList<>();
    for (String location : locations) {
      out.add(new LocationClaim(StorageLocation.parse(location).ancestorKeys()));
    }
    return out;
  }

  private void create(String catalog, String name, String... locations) {
    store.createContent(catalog, NS, name, ContentKind.TABLE, "m-" + name, claims(locations));
  }

  @Test
  void equalContainingAndContainedLocationsAreRefusedAcrossCatalogs() {
    create("c1", "t", "s3://b/w/ns/t");
    for (String overlapping :
        List.of(
            "s3://b/w/ns/t", "s3://b/w/ns/t/", "s3://b/w/ns", "s3://b/", "s3://b/w/ns/t/data")) {
      assertThatThrownBy(() -> create("c2", "x", overlapping))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
      assertThatThrownBy(() -> create("c1", "y", "s3://b/other", overlapping))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
    }
    // Nothing was created by the refused attempts.
    assertThat(store.getContent("c2", NS, "x")).isEmpty();
    assertThat(store.getContent("c1", NS, "y")).isEmpty();
    // Segment-wise: t2 is a sibling of t, not inside it; another bucket or scheme is another
    // storage.
    create("c1", "t2", "s3://b/w/ns/t2");
    create("c2", "other-bucket", "s3://b2/w/ns/t");
    create("c2", "other-scheme", "gs://b/w/ns/t");
    assertThat(store.claimedLocations("c1", NS, "t2")).containsExactly("s3://b/w/ns/t2/");
  }

  @Test
  void aTablesOwnLocationsMayNestAndAreCheckedBeforeWriting() {
    create("c1", "t", "file:/w/ns/t", "file:///w/ns/t/data", "/w/ns/t/metadata");
    assertThat(store.claimedLocations("c1", NS, "t"))
        .containsExactly("file:///w/ns/t/", "file:///w/ns/t/data/", "file:///w/ns/t/metadata/");
    assertThat(store.findLocationConflict("c1", NS, "t", claims("file:/w/ns/t/x"))).isEmpty();
    LocationConflict conflict =
        store.findLocationConflict("c1", NS, "u", claims("file:/w/ns")).orElseThrow();
    assertThat(conflict.location()).isEqualTo("file:///w/ns/");
    assertThat(conflict.claimed()).startsWith("file:///w/ns/t/");
    assertThat(conflict.getMessage()).doesNotContain("ns/t");
  }

  @Test
  void dropFreesRenameKeepsAndSwapReplacesClaims() {
    create("c1", "t", "file:/w/ns/t");
    store.renameContent("c1", ContentKind.TABLE, NS, "t", NS, "renamed");
    assertThat(store.claimedLocations("c1", NS, "renamed")).containsExactly("file:///w/ns/t/");
    assertThatThrownBy(() -> create("c1", "u", "file:/w/ns/t/x"))
        .isInstanceOf(LocationConflict.class);

    // A swap that moves the table gives up the old location and takes the new one, atomically.
    store.swapMetadata(
        "c1",
        List.of(
            new MetadataSwap(
                NS, "renamed", ContentKind.TABLE, "m-t", "m2", claims("file:/w/ns/moved"))));
    create("c1", "u", "file:/w/ns/t/x");
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    "c1",
                    List.of(
                        new MetadataSwap(
                            NS, "renamed", ContentKind.TABLE, "m2", "m3", claims("file:/w/ns/t")))))
        .isInstanceOf(LocationConflict.class);
    // The refused swap changed neither the pointer nor the claims.
    assertThat(store.getContent("c1", NS, "renamed").orElseThrow().metadataLocation())
        .isEqualTo("m2");
    assertThat(store.claimedLocations("c1", NS, "renamed")).containsExactly("file:///w/ns/moved/");
    // A swap without claims leaves them.
    store.swapMetadata(
        "c1", List.of(new MetadataSwap(NS, "renamed", ContentKind.TABLE, "m2", "m3")));
    assertThat(store.claimedLocations("c1", NS, "renamed")).containsExactly("file:///w/ns/moved/");

    assertThat(store.dropContent("c1", NS, "renamed", ContentKind.TABLE)).isTrue();
    assertThat(store.claimedLocations("c1", NS, "renamed")).isEmpty();
    create("c1", "again", "file:/w/ns/moved");
  }

  @Test
  void claimOutsideFindsALocationNoRootCovers() {
    create("c1", "t", "file:/w/a/t");
    create("c1", "u", "file:/w/b/u", "file:/x/u-data");
    List<String> both =
        List.of(StorageLocation.parse("file:/w").key(), StorageLocation.parse("file:/x").key());
    assertThat(store.claimOutside("c1", both)).isEmpty();
    assertThat(store.claimOutside("c1", List.of(StorageLocation.parse("file:/w").key())))
        .contains("file:///x/u-data/");
    assertThat(store.claimOutside("c1", List.of(StorageLocation.parse("file:/w/a").key())))
        .isPresent();
    assertThat(store.claimOutside("c2", List.of(StorageLocation.parse("file:/nowhere").key())))
        .isEmpty();
  }

  @Test
  void namespacesClaimTheirLocationsOutsideTheirOwnAncestry() {
    LocationClaim base = claims("file:/w/c1").get(0);
    store.createNamespace("c1", NamespacePath.of("a"), Map.of(), claims("file:/w/c1/a").get(0));
    // A child nests inside its parent; one at the parent's own location would cover its siblings.
    store.createNamespace(
        "c1", NamespacePath.of("a", "b"), Map.of(), claims("file:/w/c1/a/b").get(0));
    assertThatThrownBy(
            () ->
                store.createNamespace(
                    "c1", NamespacePath.of("a", "same"), Map.of(), claims("file:/w/c1/a").get(0)))
        .isInstanceOf(LocationConflict.class);
    // A sibling, or another catalog's namespace, may not be at, around or inside it.
    for (String overlapping : List.of("file:/w/c1/a", "file:/w/c1/a/x", "file:/w/c1", "file:/w")) {
      assertThatThrownBy(
              () ->
                  store.createNamespace(
                      "c1", NamespacePath.of("sib"), Map.of(), claims(overlapping).get(0)))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
      assertThatThrownBy(
              () ->
                  store.createNamespace(
                      "c2", NamespacePath.of("other"), Map.of(), claims(overlapping).get(0)))
          .as(overlapping)
          .isInstanceOf(LocationConflict.class);
    }
    assertThat(store.loadNamespace("c1", NamespacePath.of("sib"))).isEmpty();
    assertThat(base.key()).isEqualTo("file:///w/c1/");

    // A table lies inside its own namespace's ancestry, never inside another namespace or around
    // one.
    store.createContent(
        "c1", NamespacePath.of("a", "b"), "t", ContentKind.TABLE, "m", claims("file:/w/c1/a/b/t"));
    assertThatThrownBy(
            () ->
                store.createContent(
                    "c1", NS, "x", ContentKind.TABLE, "m", claims("file:/w/c1/a/b/elsewhere")))
        .isInstanceOf(LocationConflict.class);
    assertThatThrownBy(
            () -> store.createContent("c2", NS, "x", ContentKind.TABLE, "m", claims("file:/w/c1")))
        .isInstanceOf(LocationConflict.class);
    // A namespace may not be placed inside or around a table either.
    assertThatThrownBy(
            () ->
                store.createNamespace(
                    "c2",
                    NamespacePath.of("in-table"),
                    Map.of(),
                    claims("file:/w/c1/a/b/t/n").get(0)))
        .isInstanceOf(LocationConflict.class);
  }

  @Test
  void onlyAnEmptyNamespaceMovesAndItsNewLocationIsChecked() {
    store.createNamespace("c1", NamespacePath.of("full"), Map.of(), claims("file:/w/full").get(0));
    store.createNamespace(
        "c1", NamespacePath.of("empty"), Map.of(), claims("file:/w/empty").get(0));
    store.createContent(
        "c1", NamespacePath.of("full"), "t", ContentKind.TABLE, "m", claims("file:/w/full/t"));
    assertThatThrownBy(
            () ->
                store.updateNamespaceProperties(
                    "c1",
                    NamespacePath.of("full"),
                    java.util.Set.of(),
                    Map.of("location", "file:/w/moved"),
                    claims("file:/w/moved").get(0)))
        .isInstanceOf(NotEmpty.class);
    assertThatThrownBy(
            () ->
                store.updateNamespaceProperties(
                    "c1",
                    NamespacePath.of("empty"),
                    java.util.Set.of(),
                    Map.of("location", "file:/w/full/x"),
                    claims("file:/w/full/x").get(0)))
        .isInstanceOf(LocationConflict.class);
    assertThat(store.loadNamespace("c1", NamespacePath.of("empty")).orElseThrow())
        .doesNotContainKey("location");
    store.updateNamespaceProperties(
        "c1",
        NamespacePath.of("empty"),
        java.util.Set.of(),
        Map.of("location", "file:/w/moved"),
        claims("file:/w/moved").get(0));
    // The old location is free again, the new one taken.
    store.createNamespace("c1", NamespacePath.of("next"), Map.of(), claims("file:/w/empty").get(0));
    assertThatThrownBy(
            () ->
                store.createNamespace(
                    "c1", NamespacePath.of("late"), Map.of(), claims("file:/w/moved").get(0)))
        .isInstanceOf(LocationConflict.class);
    // Dropping a namespace frees its location.
    store.dropNamespace("c1", NamespacePath.of("next"));
    store.createNamespace(
        "c1", NamespacePath.of("again"), Map.of(), claims("file:/w/empty").get(0));
  }

  /**
   * Of many concurrent creates of nested locations (every pair overlaps), exactly one wins, every
   * round.
   */
  @Test
  void concurrentOverlappingCreatesHaveExactlyOneWinner() throws Exception {
    int writers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int round = 0; round < 20; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          String name = "r" + round + "-" + i;
          String location = "s3://race/r" + round + "/a" + "/a".repeat(i);
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    try {
                      create(i2catalog(name), name, location);
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
    }
  }

  /** Half the racers in each catalog: the rule holds across catalogs on one storage. */
  private static String i2catalog(String name) {
    return name.hashCode() % 2 == 0 ? "c1" : "c2";
  }
}
