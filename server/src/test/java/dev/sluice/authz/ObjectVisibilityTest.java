package dev.sluice.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.audit.AuditLog;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.ContentKind;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rule for missing tables and views, decision by decision, over an in-memory access store: who
 * gets 404, who gets 403, and that for a caller who may not know, existence is never even looked
 * up. Names: namespace ns holds table t and view v; x is free.
 */
class ObjectVisibilityTest {
  private static final String CATALOG = "c";
  private static final NamespacePath NS = new NamespacePath(List.of("ns"));
  private static final Map<String, ContentKind> CONTENTS =
      Map.of("t", ContentKind.TABLE, "v", ContentKind.VIEW);

  private final List<GrantRecord> grants = new ArrayList<>();
  private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());
  private AuditLog audit;
  private Authorizer authz;
  private ObjectVisibility objects;
  private final Caller caller = new Caller("jane", List.of("reader"), "req-1");

  @BeforeEach
  void setUp() {
    AccessStore store =
        (AccessStore)
            Proxy.newProxyInstance(
                AccessStore.class.getClassLoader(),
                new Class<?>[] {AccessStore.class},
                (proxy, method, args) ->
                    switch (method.getName()) {
                      case "grantsFor" -> List.copyOf(grants);
                      case "appendEvents" -> {
                        @SuppressWarnings("unchecked")
                        List<AuditEvent> written = (List<AuditEvent>) args[0];
                        events.addAll(written);
                        yield null;
                      }
                      default -> throw new UnsupportedOperationException(method.getName());
                    });
    audit = new AuditLog(store, new SimpleMeterRegistry());
    authz = new Authorizer(store, audit);
    objects = new ObjectVisibility(authz);
  }

  @AfterEach
  void tearDown() {
    audit.close();
  }

  private void grant(SecurableRef on, Privilege privilege) {
    grants.add(new GrantRecord(CATALOG, "cr", on, privilege.name()));
    authz.invalidate();
  }

  private static SecurableRef table(String name) {
    return SecurableRef.table(NS, name);
  }

  private static SecurableRef view(String name) {
    return SecurableRef.view(NS, name);
  }

  /** The kind at a name, counting how often it is asked. */
  private static final class Lookup implements Supplier<Optional<ContentKind>> {
    private final String name;
    final AtomicInteger asked = new AtomicInteger();

    Lookup(String name) {
      this.name = name;
    }

    @Override
    public Optional<ContentKind> get() {
      asked.incrementAndGet();
      return Optional.ofNullable(CONTENTS.get(name));
    }
  }

  /** Reads {@code object}; returns the HTTP status the refusal maps to, or 200. */
  private int read(SecurableRef object, Lookup lookup) {
    Privilege needed =
        object.type() == SecurableRef.Type.TABLE
            ? Privilege.TABLE_READ_PROPERTIES
            : Privilege.VIEW_READ_PROPERTIES;
    try {
      objects.requireRead(caller, "load", CATALOG, object, needed, null, lookup);
      return 200;
    } catch (ForbiddenException e) {
      return 403;
    } catch (NoSuchTableException | NoSuchViewException e) {
      return 404;
    }
  }

  private int read(SecurableRef object) {
    return read(object, new Lookup(object.name()));
  }

  @Test
  void aCallerWithNothingThereGets403AndNothingIsLookedUp() {
    grant(SecurableRef.table(new NamespacePath(List.of("other")), "t"), Privilege.TABLE_READ_DATA);
    grant(SecurableRef.namespace(new NamespacePath(List.of("ns", "inner"))), Privilege.TABLE_LIST);
    grant(
        table("u"), Privilege.TABLE_FULL_METADATA); // another table of ns: says nothing of x, t, v
    for (SecurableRef object : List.of(table("t"), table("x"), table("v"), view("v"), view("x"))) {
      Lookup lookup = new Lookup(object.name());
      assertThat(read(object, lookup)).as(object.toString()).isEqualTo(403);
      assertThat(lookup.asked).as(object + ": existence must play no part").hasValue(0);
    }
    // View t: the caller holds nothing on table t, so it cannot know that t is a table.
    Lookup viewT = new Lookup("t");
    assertThat(read(view("t"), viewT)).isEqualTo(403);
    assertThat(viewT.asked).hasValue(0);
  }

  @Test
  void theRefusalSaysTheSameForAnExistingAndAMissingObject() {
    Supplier<String> refusalOfV = () -> refusal(view("v"));
    assertThat(refusal(view("x"))).isEqualTo(refusalOfV.get().replace("ns.v", "ns.x"));
    // ... and the same as any other refusal of that privilege (Authorizer.require).
    assertThatThrownBy(
            () -> authz.require(caller, "load", CATALOG, view("v"), Privilege.VIEW_READ_PROPERTIES))
        .hasMessage(refusalOfV.get());
  }

  private String refusal(SecurableRef object) {
    try {
      objects.requireRead(
          caller,
          "load",
          CATALOG,
          object,
          Privilege.VIEW_READ_PROPERTIES,
          null,
          new Lookup(object.name()));
    } catch (ForbiddenException e) {
      return e.getMessage();
    }
    throw new AssertionError("not refused: " + object);
  }

  @Test
  void aGrantOnTheTableOfThatNameAnswers404ForTheViewOnly() {
    grant(table("t"), Privilege.TABLE_READ_DATA);
    assertThat(read(view("t"))).isEqualTo(404); // t is a table, the caller knows it
    assertThat(read(view("x"))).isEqualTo(403); // no namespace-level privilege: may not know
    assertThat(read(view("v"))).isEqualTo(403); // exists: refused, never 404
    assertThat(read(table("t"))).isEqualTo(200);
  }

  @Test
  void aGrantOnTheViewOfThatNameAnswers404ForTheTable() {
    grant(view("v"), Privilege.VIEW_READ_PROPERTIES);
    assertThat(read(table("v"))).isEqualTo(404);
    assertThat(read(table("x"))).isEqualTo(403);
    assertThat(read(table("t"))).isEqualTo(403);
    assertThat(read(view("v"))).isEqualTo(200);
  }

  @Test
  void aGrantOnTheSameNameWhoseObjectIsGoneSaysNothing() {
    // A grant on table x (say, left in a cache for a moment after x was dropped): nothing holds the
    // name, so the caller cannot tell that no view x exists.
    grant(table("x"), Privilege.TABLE_READ_DATA);
    Lookup lookup = new Lookup("x");
    assertThat(read(view("x"), lookup)).isEqualTo(403);
    assertThat(lookup.asked).hasValue(1);
  }

  @Test
  void anyPrivilegeOnTheNamespaceAnswers404ForWhatIsMissingAnd403ForWhatExists() {
    for (Privilege privilege :
        List.of(
            Privilege.NAMESPACE_READ_PROPERTIES, Privilege.TABLE_READ_DATA, Privilege.VIEW_LIST)) {
      grants.clear();
      grant(SecurableRef.namespace(NS), privilege);
      boolean readsTables = privilege == Privilege.TABLE_READ_DATA;
      assertThat(read(view("x"))).as(privilege + " view x").isEqualTo(404);
      assertThat(read(view("t"))).as(privilege + " view t").isEqualTo(404);
      assertThat(read(view("v"))).as(privilege + " view v").isEqualTo(403);
      assertThat(read(table("x"))).as(privilege + " table x").isEqualTo(readsTables ? 200 : 404);
      assertThat(read(table("v"))).as(privilege + " table v").isEqualTo(readsTables ? 200 : 404);
      assertThat(read(table("t"))).as(privilege + " table t").isEqualTo(readsTables ? 200 : 403);
    }
  }

  @Test
  void aCatalogGrantReachesEveryNamespace() {
    grant(SecurableRef.CATALOG, Privilege.CATALOG_READ_PROPERTIES);
    assertThat(read(view("x"))).isEqualTo(404);
    assertThat(read(view("v"))).isEqualTo(403);
  }

  @Test
  void anAllowedReadLooksNothingUp() {
    grant(view("v"), Privilege.VIEW_READ_PROPERTIES);
    Lookup lookup = new Lookup("v");
    assertThat(read(view("v"), lookup)).isEqualTo(200);
    assertThat(lookup.asked).hasValue(0);
  }

  @Test
  void everyDecisionIsAudited() {
    grant(table("t"), Privilege.TABLE_READ_DATA);
    read(view("t")); // 404
    read(view("v")); // 403
    read(table("t")); // allowed
    assertThat(audit.flush()).isTrue();
    assertThat(events)
        .extracting(e -> e.securable() + " " + (e.allowed() ? "ALLOW" : "DENY") + " " + e.detail())
        .containsExactly(
            "view ns.t DENY " + ObjectVisibility.ANSWERED_MISSING,
            "view ns.v DENY null",
            "table ns.t ALLOW null");
  }

  @Test
  void onlyTablesAndViews() {
    assertThatThrownBy(
            () ->
                objects.requireRead(
                    caller,
                    "load",
                    CATALOG,
                    SecurableRef.namespace(NS),
                    Privilege.NAMESPACE_READ_PROPERTIES,
                    null,
                    Optional::empty))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
