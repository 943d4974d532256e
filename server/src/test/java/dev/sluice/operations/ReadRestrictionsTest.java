package dev.sluice.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.MaskAction;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.ContentKind;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.RoleRecord;
import dev.sluice.store.Store;
import dev.sluice.store.StoredReadRestriction;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A caller's effective restriction: from its active roles only, combined, cached, invalidated. */
class ReadRestrictionsTest {
  private static final NamespacePath NS = NamespacePath.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of("sales", "orders");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "ssn", Types.StringType.get()),
          Types.NestedField.optional(4, "email", Types.StringType.get()));

  private Store store;
  private ReadRestrictions restrictions;

  @BeforeEach
  void open() throws Exception {
    store =
        JdbcStore.open(
            new DatabaseConfig(
                "jdbc:h2:file:" + Files.createTempDirectory("sluice-rr").resolve("c"),
                null,
                null,
                5,
                5000));
    store.createCatalog(
        new CatalogRecord("c", "INTERNAL", Map.of(), "{\"storageType\":\"FILE\"}", 1, 0, 0),
        "service_admin");
    store.createNamespace("c", NS, Map.of());
    store.createContent("c", NS, "orders", ContentKind.TABLE, "file:/m/1.json");
    for (String role : List.of("analysts", "interns", "engineers")) {
      store.access().createPrincipalRole(new RoleRecord(null, role, Map.of(), 0));
    }
    restrictions = new ReadRestrictions(store, catalog -> table -> SCHEMA);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static Caller caller(String... roles) {
    return new Caller("p", List.of(roles), "req");
  }

  @Test
  void onlyTheCallersActiveRolesCountAndSeveralCombine() {
    store
        .readRestrictions()
        .put(
            new StoredReadRestriction(
                "c",
                NS,
                "orders",
                "analysts",
                "{\"type\":\"eq\",\"term\":\"2\",\"value\":\"EMEA\"}",
                List.of(3),
                Map.of(4, "mask-alphanum")));
    store
        .readRestrictions()
        .put(
            new StoredReadRestriction(
                "c", NS, "orders", "interns", null, List.of(4), Map.of(3, "future-action")));
    assertThat(restrictions.of(caller("engineers"), "c", ORDERS)).isEmpty();
    assertThat(restrictions.anyOn("c", ORDERS)).isTrue();
    assertThat(restrictions.anyOn("c", TableIdentifier.of("sales", "other"))).isFalse();

    TableRestriction analyst = restrictions.of(caller("analysts", "engineers"), "c", ORDERS).get();
    assertThat(analyst.rowFilter().toString())
        .isEqualTo(Expressions.equal("region", "EMEA").toString());
    assertThat(analyst.hiddenFieldIds()).containsExactly(3);
    assertThat(analyst.masks()).containsExactly(Map.entry(4, MaskAction.MASK_ALPHANUM));

    Schema renamed =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "sales_region", Types.StringType.get()));
    assertThat(
            restrictions.of(caller("analysts"), "c", ORDERS, renamed).get().rowFilter().toString())
        .as("by the names of the schema given")
        .isEqualTo(Expressions.equal("sales_region", "EMEA").toString());

    TableRestriction both = restrictions.of(caller("interns", "analysts"), "c", ORDERS).get();
    assertThat(both.hiddenFieldIds())
        .as("an unknown action hides its column")
        .containsExactly(3, 4);
    assertThat(both.masks()).isEmpty();
    assertThat(both.hasRowFilter()).isTrue();
  }

  @Test
  void aChangeShowsAtOnceWhenInvalidated() {
    assertThat(restrictions.of(caller("analysts"), "c", ORDERS)).isEmpty();
    store
        .readRestrictions()
        .put(new StoredReadRestriction("c", NS, "orders", "analysts", null, List.of(3), Map.of()));
    assertThat(restrictions.of(caller("analysts"), "c", ORDERS))
        .as("cached for up to a second")
        .isEmpty();
    restrictions.invalidate("c", ORDERS);
    assertThat(restrictions.of(caller("analysts"), "c", ORDERS)).isPresent();
  }
}
