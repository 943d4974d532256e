package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link Store} contract; each database runs the same cases through a subclass. */
abstract class StoreContract {
  private static final String CAT = "cat";
  protected Store store;

  protected abstract Store openStore() throws Exception;

  @BeforeEach
  void open() throws Exception {
    store = openStore();
    store.createCatalog(
        new CatalogRecord(CAT, "INTERNAL", Map.of("k", "v"), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void catalogsAreUniqueVersionedAndRefuseDeletionWhileNotEmpty() {
    assertThatThrownBy(
            () ->
                store.createCatalog(
                    new CatalogRecord(CAT, "INTERNAL", Map.of(), "{}", 1, 0, 0), "service_admin"))
        .isInstanceOf(AlreadyExists.class);
    CatalogRecord current = store.getCatalog(CAT).orElseThrow();
    assertThat(current.properties()).containsEntry("k", "v");
    CatalogRecord updated =
        store.updateCatalog(
            new CatalogRecord(CAT, "INTERNAL", Map.of("k", "w"), "{}", 0, 0, 0), current.version());
    assertThat(updated.version()).isEqualTo(current.version() + 1);
    assertThat(updated.properties()).containsEntry("k", "w");
    // A writer holding the old version loses, and changes nothing.
    assertThatThrownBy(
            () ->
                store.updateCatalog(
                    new CatalogRecord(CAT, "INTERNAL", Map.of("k", "x"), "{}", 0, 0, 0),
                    current.version()))
        .isInstanceOf(Conflict.class);
    assertThat(store.getCatalog(CAT).orElseThrow().properties()).containsEntry("k", "w");

    store.createNamespace(CAT, NamespacePath.of("a"), Map.of());
    assertThatThrownBy(() -> store.deleteCatalog(CAT)).isInstanceOf(NotEmpty.class);
    assertThat(store.getCatalog(CAT)).isPresent();
    store.dropNamespace(CAT, NamespacePath.of("a"));
    store.deleteCatalog(CAT);
    assertThat(store.getCatalog(CAT)).isEmpty();
    assertThatThrownBy(() -> store.deleteCatalog(CAT)).isInstanceOf(NotFound.class);
  }

  @Test
  void namespacesNeedTheirParentAndRefuseDropWhileNotEmpty() {
    assertThatThrownBy(() -> store.createNamespace(CAT, NamespacePath.of("a", "b"), Map.of()))
        .isInstanceOf(NotFound.class);
    store.createNamespace(CAT, NamespacePath.of("a"), Map.of("owner", "x"));
    store.createNamespace(CAT, NamespacePath.of("a", "b"), Map.of());
    assertThatThrownBy(() -> store.createNamespace(CAT, NamespacePath.of("a"), Map.of()))
        .isInstanceOf(AlreadyExists.class);
    assertThatThrownBy(() -> store.dropNamespace(CAT, NamespacePath.of("a")))
        .isInstanceOf(NotEmpty.class);

    store.createContent(CAT, NamespacePath.of("a", "b"), "t", ContentKind.TABLE, "file:/m/1.json");
    assertThatThrownBy(() -> store.dropNamespace(CAT, NamespacePath.of("a", "b")))
        .isInstanceOf(NotEmpty.class);
    assertThat(store.dropContent(CAT, NamespacePath.of("a", "b"), "t", ContentKind.TABLE)).isTrue();
    assertThat(store.dropNamespace(CAT, NamespacePath.of("a", "b"))).isTrue();
    assertThat(store.dropNamespace(CAT, NamespacePath.of("a", "b"))).isFalse();

    Map<String, String> before =
        store.updateNamespaceProperties(
            CAT, NamespacePath.of("a"), Set.of("owner"), Map.of("k", "v"));
    assertThat(before).containsEntry("owner", "x");
    assertThat(store.loadNamespace(CAT, NamespacePath.of("a")).orElseThrow())
        .isEqualTo(Map.of("k", "v"));
  }

  @Test
  void listingsPageByKeyInNameOrder() {
    for (String name : List.of("e", "a", "d", "b", "c")) {
      store.createNamespace(CAT, NamespacePath.of(name), Map.of());
    }
    store.createNamespace(CAT, NamespacePath.of("a", "child"), Map.of());
    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Page<NamespacePath> page =
          store.listNamespaces(CAT, NamespacePath.ROOT, PageRequest.of(token, 2));
      assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
      page.items().forEach(p -> seen.add(p.toString()));
      token = page.nextToken();
      pages++;
    } while (token != null);
    assertThat(seen).containsExactly("a", "b", "c", "d", "e");
    assertThat(pages).isEqualTo(3);
    assertThat(store.listNamespaces(CAT, NamespacePath.of("a"), PageRequest.all()).items())
        .containsExactly(NamespacePath.of("a", "child"));

    for (String t : List.of("t3", "t1", "t2")) {
      store.createContent(CAT, NamespacePath.of("a"), t, ContentKind.TABLE, "file:/m/" + t);
    }
    store.createContent(CAT, NamespacePath.of("a"), "v1", ContentKind.VIEW, "file:/m/v1");
    Page<String> first =
        store.listContents(CAT, NamespacePath.of("a"), ContentKind.TABLE, PageRequest.of(null, 2));
    assertThat(first.items()).containsExactly("t1", "t2");
    Page<String> second =
        store.listContents(
            CAT, NamespacePath.of("a"), ContentKind.TABLE, PageRequest.of(first.nextToken(), 2));
    assertThat(second.items()).containsExactly("t3");
    assertThat(second.nextToken()).isNull();
    assertThat(
            store
                .listContents(CAT, NamespacePath.of("a"), ContentKind.VIEW, PageRequest.all())
                .items())
        .containsExactly("v1");
  }

  @Test
  void tablesAndViewsShareOneNameSpace() {
    store.createNamespace(CAT, NamespacePath.of("ns"), Map.of());
    store.createContent(CAT, NamespacePath.of("ns"), "x", ContentKind.VIEW, "file:/m/v");
    assertThatThrownBy(
            () ->
                store.createContent(
                    CAT, NamespacePath.of("ns"), "x", ContentKind.TABLE, "file:/m/t"))
        .isInstanceOf(AlreadyExists.class)
        .hasMessageContaining("View with same name already exists");
    assertThatThrownBy(
            () ->
                store.createContent(
                    CAT, NamespacePath.of("missing"), "y", ContentKind.TABLE, "file:/m/t"))
        .isInstanceOf(NotFound.class);
    assertThat(store.dropContent(CAT, NamespacePath.of("ns"), "x", ContentKind.TABLE)).isFalse();
    assertThat(store.getContent(CAT, NamespacePath.of("ns"), "x").orElseThrow().kind())
        .isEqualTo(ContentKind.VIEW);
  }

  @Test
  void swapIsACompareAndSetAndAllOrNothingAcrossTables() {
    NamespacePath ns = NamespacePath.of("ns");
    store.createNamespace(CAT, ns, Map.of());
    store.createContent(CAT, ns, "t1", ContentKind.TABLE, "m1-v1");
    store.createContent(CAT, ns, "t2", ContentKind.TABLE, "m2-v1");

    store.swapMetadata(
        CAT, List.of(new MetadataSwap(ns, "t1", ContentKind.TABLE, "m1-v1", "m1-v2")));
    assertThat(location(ns, "t1")).isEqualTo("m1-v2");

    // A stale expectation is refused and changes nothing.
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    CAT, List.of(new MetadataSwap(ns, "t1", ContentKind.TABLE, "m1-v1", "m1-v3"))))
        .isInstanceOf(Conflict.class);
    assertThat(location(ns, "t1")).isEqualTo("m1-v2");

    // Two tables, the second stale: neither moves.
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    CAT,
                    List.of(
                        new MetadataSwap(ns, "t1", ContentKind.TABLE, "m1-v2", "m1-v3"),
                        new MetadataSwap(ns, "t2", ContentKind.TABLE, "stale", "m2-v2"))))
        .isInstanceOf(Conflict.class);
    assertThat(location(ns, "t1")).isEqualTo("m1-v2");
    assertThat(location(ns, "t2")).isEqualTo("m2-v1");

    // Both current: both move.
    store.swapMetadata(
        CAT,
        List.of(
            new MetadataSwap(ns, "t2", ContentKind.TABLE, "m2-v1", "m2-v2"),
            new MetadataSwap(ns, "t1", ContentKind.TABLE, "m1-v2", "m1-v3")));
    assertThat(location(ns, "t1")).isEqualTo("m1-v3");
    assertThat(location(ns, "t2")).isEqualTo("m2-v2");

    // The kind is part of the identity: a view swap does not move a table.
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    CAT, List.of(new MetadataSwap(ns, "t1", ContentKind.VIEW, "m1-v3", "x"))))
        .isInstanceOf(Conflict.class);
  }

  @Test
  void concurrentSwapsFromOneBaseHaveExactlyOneWinner() throws Exception {
    NamespacePath ns = NamespacePath.of("ns");
    store.createNamespace(CAT, ns, Map.of());
    store.createContent(CAT, ns, "t", ContentKind.TABLE, "base");
    long created = store.getContent(CAT, ns, "t").orElseThrow().version();
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      String next = "next-" + i;
      results.add(
          pool.submit(
              () -> {
                go.await();
                try {
                  store.swapMetadata(
                      CAT, List.of(new MetadataSwap(ns, "t", ContentKind.TABLE, "base", next)));
                  return true;
                } catch (Conflict e) {
                  return false;
                }
              }));
    }
    go.countDown();
    int winners = 0;
    for (Future<Boolean> result : results) {
      winners += result.get() ? 1 : 0;
    }
    pool.shutdown();
    assertThat(winners).isEqualTo(1);
    assertThat(location(ns, "t")).startsWith("next-");
    // One move: a version above the created one. Not created + 1 on PostgreSQL, where a loser may
    // have drawn a value of the shared sequence before its compare-and-set failed.
    assertThat(store.getContent(CAT, ns, "t").orElseThrow().version()).isGreaterThan(created);
  }

  @Test
  void pointerVersionsOnlyGrowAcrossCommitsRenamesDropsAndRecreation() {
    NamespacePath ns = NamespacePath.of("v");
    store.createNamespace(CAT, ns, Map.of());
    store.createContent(CAT, ns, "t", ContentKind.TABLE, "m0");
    long created = store.getContent(CAT, ns, "t").orElseThrow().version();
    store.swapMetadata(CAT, List.of(new MetadataSwap(ns, "t", ContentKind.TABLE, "m0", "m1")));
    ContentRecord swapped = store.getContent(CAT, ns, "t").orElseThrow();
    assertThat(swapped.metadataLocation()).isEqualTo("m1");
    assertThat(swapped.version()).isGreaterThan(created);
    store.renameContent(CAT, ContentKind.TABLE, ns, "t", ns, "u");
    long renamed = store.getContent(CAT, ns, "u").orElseThrow().version();
    assertThat(renamed).isGreaterThan(swapped.version());
    assertThat(store.getContent(CAT, ns, "t")).isEmpty();
    assertThat(store.dropContent(CAT, ns, "u", ContentKind.TABLE)).isTrue();
    assertThat(store.getContent(CAT, ns, "u")).isEmpty();
    // A name dropped and created again does not start over: its version names one state only.
    store.createContent(CAT, ns, "u", ContentKind.TABLE, "m0");
    assertThat(store.getContent(CAT, ns, "u").orElseThrow().version()).isGreaterThan(renamed);
    // A refused swap changes no version.
    long before = store.getContent(CAT, ns, "u").orElseThrow().version();
    assertThatThrownBy(
            () ->
                store.swapMetadata(
                    CAT, List.of(new MetadataSwap(ns, "u", ContentKind.TABLE, "nope", "m9"))))
        .isInstanceOf(Conflict.class);
    assertThat(store.getContent(CAT, ns, "u").orElseThrow().version()).isEqualTo(before);
  }

  @Test
  void renameMovesAcrossNamespacesAndRefusesTakenNames() {
    store.createNamespace(CAT, NamespacePath.of("a"), Map.of());
    store.createNamespace(CAT, NamespacePath.of("b"), Map.of());
    store.createContent(CAT, NamespacePath.of("a"), "t", ContentKind.TABLE, "m");
    store.createContent(CAT, NamespacePath.of("b"), "taken", ContentKind.VIEW, "v");
    assertThatThrownBy(
            () ->
                store.renameContent(
                    CAT,
                    ContentKind.TABLE,
                    NamespacePath.of("a"),
                    "t",
                    NamespacePath.of("b"),
                    "taken"))
        .isInstanceOf(AlreadyExists.class);
    assertThatThrownBy(
            () ->
                store.renameContent(
                    CAT,
                    ContentKind.TABLE,
                    NamespacePath.of("a"),
                    "t",
                    NamespacePath.of("zz"),
                    "t"))
        .isInstanceOf(NotFound.class);
    assertThatThrownBy(
            () ->
                store.renameContent(
                    CAT, ContentKind.VIEW, NamespacePath.of("a"), "t", NamespacePath.of("b"), "u"))
        .isInstanceOf(NotFound.class);
    store.renameContent(
        CAT, ContentKind.TABLE, NamespacePath.of("a"), "t", NamespacePath.of("b"), "t2");
    assertThat(store.getContent(CAT, NamespacePath.of("a"), "t")).isEmpty();
    assertThat(store.getContent(CAT, NamespacePath.of("b"), "t2").orElseThrow().metadataLocation())
        .isEqualTo("m");
  }

  @Test
  void principalsAndSigningKeys() {
    AccessStore access = store.access();
    access.createPrincipal(
        new PrincipalRecord("p", "cid", "hash", Map.of(), 0), List.of("service_admin"));
    assertThatThrownBy(
            () ->
                access.createPrincipal(
                    new PrincipalRecord("q", "cid", "hash", Map.of(), 0), List.of()))
        .isInstanceOf(AlreadyExists.class);
    assertThat(access.getPrincipalByClientId("cid").orElseThrow().name()).isEqualTo("p");
    assertThat(access.getPrincipal("q")).isEmpty();
    assertThat(access.principalRolesOf("p")).containsExactly("service_admin");

    List<SigningKey> first = store.ensureSigningKey(new SigningKey("k1", "bWF0ZXJpYWw=", 1));
    List<SigningKey> again = store.ensureSigningKey(new SigningKey("k1", "b3RoZXI=", 2));
    assertThat(first).hasSize(1);
    assertThat(again).hasSize(1);
    assertThat(again.get(0).material()).isEqualTo("bWF0ZXJpYWw=");
    assertThat(store.ping()).isTrue();
  }

  /**
   * A namespace's storage identity: set on an existing namespace only, replaced, cleared, read per
   * catalog; dropped with its namespace, so one created again under the name starts without it.
   */
  @Test
  void namespaceStorageIdentitiesLiveAndDieWithTheirNamespace() {
    NamespaceIdentityStore identities = store.namespaceIdentities();
    NamespacePath finance = NamespacePath.of("finance");
    NamespacePath eu = NamespacePath.of("finance", "eu");
    assertThatThrownBy(() -> identities.set(CAT, finance, "{\"roleArn\":\"a\"}"))
        .isInstanceOf(NotFound.class);
    store.createNamespace(CAT, finance, Map.of());
    store.createNamespace(CAT, eu, Map.of());
    assertThat(identities.set(CAT, finance, "{\"roleArn\":\"a\"}")).isNull();
    assertThat(identities.set(CAT, eu, "{\"roleArn\":\"b\"}")).isNull();
    assertThat(identities.set(CAT, finance, "{\"roleArn\":\"c\"}"))
        .isEqualTo("{\"roleArn\":\"a\"}");
    assertThat(identities.identities(CAT))
        .containsExactly(
            Map.entry(finance, "{\"roleArn\":\"c\"}"), Map.entry(eu, "{\"roleArn\":\"b\"}"));
    assertThat(identities.identities("other")).isEmpty();
    assertThat(identities.clear(CAT, eu)).isEqualTo("{\"roleArn\":\"b\"}");
    assertThat(identities.clear(CAT, eu)).isNull();
    assertThat(store.dropNamespace(CAT, eu)).isTrue();
    assertThat(store.dropNamespace(CAT, finance)).isTrue();
    assertThat(identities.identities(CAT)).isEmpty();
    store.createNamespace(CAT, finance, Map.of());
    assertThat(identities.identities(CAT)).isEmpty();
    assertThat(store.dropNamespace(CAT, finance)).isTrue();
  }

  /**
   * Read restrictions: put on an existing table and principal role only, replaced, removed; they
   * follow the table through a rename (a table created under the old name has none), and go with
   * the table when it is dropped (one created again under the name starts without) and with the
   * principal role.
   */
  @Test
  void readRestrictionsFollowTheirTableAndGoWithItOrTheRole() {
    ReadRestrictionStore restrictions = store.readRestrictions();
    AccessStore access = store.access();
    NamespacePath ns = NamespacePath.of("sales");
    NamespacePath other = NamespacePath.of("archive");
    access.createPrincipalRole(new RoleRecord(null, "analysts", Map.of(), 0));
    access.createPrincipalRole(new RoleRecord(null, "auditors", Map.of(), 0));
    StoredReadRestriction analysts =
        new StoredReadRestriction(
            CAT,
            ns,
            "orders",
            "analysts",
            "{\"type\":\"eq\",\"term\":\"2\",\"value\":\"EMEA\"}",
            List.of(4, 3),
            Map.of(5, "mask-alphanum"));
    assertThatThrownBy(() -> restrictions.put(analysts))
        .isInstanceOf(NotFound.class)
        .hasMessageContaining("orders");
    store.createNamespace(CAT, ns, Map.of());
    store.createNamespace(CAT, other, Map.of());
    store.createContent(CAT, ns, "orders", ContentKind.TABLE, "file:/m/1.json");
    store.createContent(CAT, ns, "v", ContentKind.VIEW, "file:/m/v.json");
    assertThatThrownBy(
            () ->
                restrictions.put(
                    new StoredReadRestriction(CAT, ns, "v", "analysts", null, List.of(), Map.of())))
        .as("a view is no table")
        .isInstanceOf(NotFound.class);
    assertThatThrownBy(
            () ->
                restrictions.put(
                    new StoredReadRestriction(
                        CAT, ns, "orders", "missing", null, List.of(), Map.of())))
        .isInstanceOf(NotFound.class)
        .hasMessageContaining("missing");

    restrictions.put(analysts);
    StoredReadRestriction auditors =
        new StoredReadRestriction(CAT, ns, "orders", "auditors", null, List.of(), Map.of());
    restrictions.put(auditors);
    assertThat(restrictions.forTable(CAT, ns, "orders")).containsExactly(analysts, auditors);
    assertThat(restrictions.forTable(CAT, ns, "orders").get(0).hiddenFieldIds())
        .containsExactly(3, 4);
    StoredReadRestriction replaced =
        new StoredReadRestriction(CAT, ns, "orders", "analysts", null, List.of(3), Map.of());
    restrictions.put(replaced);
    assertThat(restrictions.forTable(CAT, ns, "orders")).containsExactly(replaced, auditors);
    assertThat(restrictions.remove(CAT, ns, "orders", "auditors")).isTrue();
    assertThat(restrictions.remove(CAT, ns, "orders", "auditors")).isFalse();

    // A rename carries the restriction along; the old name has none.
    store.renameContent(CAT, ContentKind.TABLE, ns, "orders", other, "orders_2024");
    assertThat(restrictions.forTable(CAT, ns, "orders")).isEmpty();
    assertThat(restrictions.forTable(CAT, other, "orders_2024"))
        .extracting(StoredReadRestriction::principalRole, StoredReadRestriction::hiddenFieldIds)
        .containsExactly(tuple("analysts", List.of(3)));

    // Dropped with the principal role, and with the table.
    restrictions.put(
        new StoredReadRestriction(
            CAT, other, "orders_2024", "auditors", null, List.of(), Map.of()));
    assertThat(access.deletePrincipalRole("auditors")).isTrue();
    assertThat(restrictions.forTable(CAT, other, "orders_2024"))
        .extracting(StoredReadRestriction::principalRole)
        .containsExactly("analysts");
    assertThat(store.dropContent(CAT, other, "orders_2024", ContentKind.TABLE)).isTrue();
    store.createContent(CAT, other, "orders_2024", ContentKind.TABLE, "file:/m/2.json");
    assertThat(restrictions.forTable(CAT, other, "orders_2024")).isEmpty();
  }

  /**
   * PRINCIPAL_ACT_AS grants: idempotent, between existing principal roles only, listed per role and
   * for a set of roles (each target once), and gone with either role.
   */
  @Test
  void actAsGrantsAreIdempotentNeedBothRolesAndGoWithEither() {
    AccessStore access = store.access();
    DelegationStore delegations = store.delegations();
    for (String role : List.of("engine", "bi_engine", "analysts", "finance")) {
      access.createPrincipalRole(new RoleRecord(null, role, Map.of(), 0));
    }
    assertThat(delegations.grant("engine", "analysts")).isTrue();
    assertThat(delegations.grant("engine", "analysts")).as("already granted").isFalse();
    assertThat(delegations.grant("engine", "finance")).isTrue();
    assertThat(delegations.grant("bi_engine", "analysts")).isTrue();
    assertThatThrownBy(() -> delegations.grant("engine", "missing"))
        .isInstanceOf(NotFound.class)
        .hasMessageContaining("missing");
    assertThatThrownBy(() -> delegations.grant("missing", "analysts"))
        .isInstanceOf(NotFound.class)
        .hasMessageContaining("missing");
    assertThat(delegations.targetsOf("engine")).containsExactly("analysts", "finance");
    assertThat(delegations.targetsOf("missing")).isEmpty();
    assertThat(delegations.targetsOfAny(List.of("engine", "bi_engine", "missing")))
        .containsExactly("analysts", "finance");
    assertThat(delegations.targetsOfAny(List.of())).isEmpty();

    assertThat(delegations.revoke("engine", "finance")).isTrue();
    assertThat(delegations.revoke("engine", "finance")).as("not granted any more").isFalse();
    assertThat(delegations.targetsOf("engine")).containsExactly("analysts");

    // Deleting the target takes every grant naming it; deleting an actor role takes its own.
    assertThat(delegations.grant("engine", "finance")).isTrue();
    assertThat(access.deletePrincipalRole("analysts")).isTrue();
    assertThat(delegations.targetsOfAny(List.of("engine", "bi_engine"))).containsExactly("finance");
    assertThat(access.deletePrincipalRole("engine")).isTrue();
    assertThat(delegations.targetsOf("engine")).isEmpty();
    access.createPrincipalRole(new RoleRecord(null, "engine", Map.of(), 0));
    assertThat(delegations.targetsOf("engine")).as("a role created again starts without").isEmpty();
    assertThat(delegations.targetsOfAny(List.of("engine", "bi_engine"))).isEmpty();
  }

  /** An event's actor is stored, read back, filtered on; an event without one reads null. */
  @Test
  void auditEventsKeepTheirActor() {
    AccessStore access = store.access();
    AuditEvent direct =
        new AuditEvent(0, 10, "alice", List.of("analysts"), "loadTable", CAT, "t a.b", true, "r1");
    AuditEvent delegated = direct.withActor("trino").withIdentity("p-alice");
    AuditEvent other =
        new AuditEvent(0, 12, "bob", List.of(), "loadTable", CAT, "t a.b", false, "r2")
            .withActor("spark");
    access.appendEvents(List.of(direct, delegated, other));

    List<AuditEvent> all = access.events(AuditFilter.ALL, PageRequest.all()).items();
    assertThat(all)
        .extracting(AuditEvent::principal, AuditEvent::actor)
        .containsExactly(tuple("bob", "spark"), tuple("alice", "trino"), tuple("alice", null));
    AuditFilter byTrino = new AuditFilter(null, null, null, null, null, null, null, "trino");
    assertThat(access.events(byTrino, PageRequest.all()).items())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.principal()).isEqualTo("alice");
              assertThat(e.principalIdentity()).isEqualTo("p-alice");
            });
    AuditFilter aliceBySpark =
        new AuditFilter("alice", null, null, null, null, null, null, "spark");
    assertThat(access.events(aliceBySpark, PageRequest.all()).items()).isEmpty();
  }

  private String location(NamespacePath ns, String name) {
    return store.getContent(CAT, ns, name).orElseThrow().metadataLocation();
  }
}
