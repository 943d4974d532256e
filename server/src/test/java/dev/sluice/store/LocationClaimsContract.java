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

  private static final List<String> BUCKET_B = List.of("s3://b/", "s3a://b/");

  /**
   * Every page of {@code contentsClaimingUnder}, following the tokens; asserts each page's size.
   */
  private List<ClaimedContent> walk(
      String catalog, ContentKind kind, List<String> roots, int size) {
    List<ClaimedContent> all = new ArrayList<>();
    PageRequest page = PageRequest.first(size);
    while (true) {
      Page<ClaimedContent> got = store.contentsClaimingUnder(catalog, kind, roots, page);
      assertThat(got.items().size()).isLessThanOrEqualTo(size);
      all.addAll(got.items());
      if (got.nextToken() == null) {
        return all;
      }
      assertThat(got.items()).hasSize(size);
      page = page.next(got.nextToken());
    }
  }

  private static String id(ClaimedContent c) {
    return c.namespace() + "." + c.name() + "=" + c.locationKeys();
  }

  @Test
  void contentsClaimingUnderABucketComeInIdentifierOrderWithTheirLocationsThere() {
    store.createNamespace("c1", NamespacePath.of("ns", "deep"), Map.of());
    create("c1", "t1", "s3://b/w/ns/t1", "s3://b/w/ns/t1_data/x");
    create("c1", "t2", "s3://other/w/ns/t2");
    create("c1", "t3", "s3://b/w/ns/t3", "s3://other/w/ns/t3_data");
    create("c1", "t4", "s3a://b/w/ns/t4");
    create("c1", "t5", "s3://bb/w/ns/t5", "s3://b2/w/ns/t5", "gs://b/w/ns/t5");
    create("c1", "t0", "file:///b/w/ns/t0");
    store.createContent(
        "c1", NamespacePath.of("ns", "deep"), "d", ContentKind.TABLE, "m", claims("s3://b/w/d"));
    store.createContent("c1", NS, "v", ContentKind.VIEW, "m-v", claims("s3://b/w/ns/v"));
    create("c2", "x", "s3://b/w2/ns/x");

    List<ClaimedContent> tables = walk("c1", ContentKind.TABLE, BUCKET_B, 100);
    // Identifier order: namespace key, then name; only locations in bucket b (either scheme, an
    // s3a:// one keyed as s3://);
    // another bucket (even one named with b as a prefix), another scheme's b, views and other
    // catalogs are left out.
    assertThat(tables.stream().map(LocationClaimsContract::id))
        .containsExactly(
            "ns.t1=[s3://b/w/ns/t1/, s3://b/w/ns/t1_data/x/]",
            "ns.t3=[s3://b/w/ns/t3/]",
            "ns.t4=[s3://b/w/ns/t4/]",
            "ns.deep.d=[s3://b/w/d/]");
    assertThat(walk("c1", ContentKind.VIEW, BUCKET_B, 100).stream().map(LocationClaimsContract::id))
        .containsExactly("ns.v=[s3://b/w/ns/v/]");
    assertThat(
            walk("c1", ContentKind.TABLE, List.of("s3://other/"), 100).stream()
                .map(LocationClaimsContract::id))
        .containsExactly("ns.t2=[s3://other/w/ns/t2/]", "ns.t3=[s3://other/w/ns/t3_data/]");
    assertThat(
            walk("c2", ContentKind.TABLE, BUCKET_B, 100).stream().map(LocationClaimsContract::id))
        .containsExactly("ns.x=[s3://b/w2/ns/x/]");
    assertThat(
            store.contentsClaimingUnder("c1", ContentKind.TABLE, List.of(), PageRequest.first(5)))
        .isEqualTo(new Page<ClaimedContent>(List.of(), null));
    // Pages of one: the same tables, one each, the token making progress every time.
    assertThat(walk("c1", ContentKind.TABLE, BUCKET_B, 1)).isEqualTo(tables);

    // A drop frees the claims, a rename keeps them under the new name, a move takes the new ones.
    store.dropContent("c1", NS, "t3", ContentKind.TABLE);
    store.renameContent("c1", ContentKind.TABLE, NS, "t4", NS, "a4");
    store.swapMetadata(
        "c1",
        List.of(
            new MetadataSwap(NS, "t2", ContentKind.TABLE, "m-t2", "m2", claims("s3://b/w/ns/t2"))));
    assertThat(walk("c1", ContentKind.TABLE, BUCKET_B, 2).stream().map(LocationClaimsContract::id))
        .containsExactly(
            "ns.a4=[s3://b/w/ns/t4/]",
            "ns.t1=[s3://b/w/ns/t1/, s3://b/w/ns/t1_data/x/]",
            "ns.t2=[s3://b/w/ns/t2/]",
            "ns.deep.d=[s3://b/w/d/]");
  }

  @Test
  void contentsClaimingUnderPagesByIdentifierSoEveryTableComesOnceAtAnyDepth() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String name = String.format("t%02d", i);
      create("c1", name, "s3://b/w/ns/" + name, "s3://b/w/ns/" + name + "_data");
      expected.add("ns." + name + "=[s3://b/w/ns/" + name + "/, s3://b/w/ns/" + name + "_data/]");
    }
    PageRequest first = PageRequest.first(10);
    Page<ClaimedContent> one =
        store.contentsClaimingUnder("c1", ContentKind.TABLE, BUCKET_B, first);
    assertThat(one.items()).hasSize(10);
    // A table created before the token's key meanwhile does not shift the later pages.
    create("c1", "a-late", "s3://b/w/ns/a-late");
    Page<ClaimedContent> two =
        store.contentsClaimingUnder("c1", ContentKind.TABLE, BUCKET_B, first.next(one.nextToken()));
    Page<ClaimedContent> three =
        store.contentsClaimingUnder("c1", ContentKind.TABLE, BUCKET_B, first.next(two.nextToken()));
    assertThat(two.items()).hasSize(10);
    assertThat(three.items()).hasSize(5);
    assertThat(three.nextToken()).isNull();
    List<String> seen = new ArrayList<>();
    for (Page<ClaimedContent> page : List.of(one, two, three)) {
      page.items().forEach(c -> seen.add(id(c)));
    }
    assertThat(seen).isEqualTo(expected);
    // A token of another listing is refused, not misread.
    assertThatThrownBy(
            () ->
                store.contentsClaimingUnder(
                    "c1", ContentKind.TABLE, BUCKET_B, first.next(PageRequest.tokenFor("t05"))))
        .isInstanceOf(IllegalArgumentException.class);
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
