package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ReadRestriction;
import dev.sluice.api.SetReadRestrictionRequest;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.MaskAction;
import dev.sluice.catalog.RowFilters;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.NotFound;
import dev.sluice.store.Store;
import dev.sluice.store.StoredReadRestriction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Read restrictions for the management API (a service admin's or a holder of CATALOG_MANAGE_ACCESS
 * on the catalog, checked by {@link ManagementAccess} before this runs): the column names given are
 * resolved against the table's current schema and stored as field ids; every change audited
 * ({@value #ACTION}, with the restriction before and after) and logged. {@code onChange} gets the
 * catalog and table after each change, so this server's cached restrictions are dropped at once.
 */
public final class ReadRestrictionAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(ReadRestrictionAdmin.class);
  static final String ACTION = "changeTableReadRestriction";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Store store;
  private final CatalogRegistry catalogs;
  private final Authorizer authz;
  private final BiConsumer<String, TableIdentifier> onChange;

  public ReadRestrictionAdmin(
      Store store,
      CatalogRegistry catalogs,
      Authorizer authz,
      BiConsumer<String, TableIdentifier> onChange) {
    this.store = requireNonNull(store, "store");
    this.catalogs = requireNonNull(catalogs, "catalogs");
    this.authz = requireNonNull(authz, "authz");
    this.onChange = requireNonNull(onChange, "onChange");
  }

  /** Every role's restriction on the table, in role name order; 404 for an unknown table. */
  public List<ReadRestriction> list(String catalog, TableIdentifier table) {
    Schema schema = currentSchema(catalog, table);
    List<ReadRestriction> out = new ArrayList<>();
    for (StoredReadRestriction stored : stored(catalog, table)) {
      out.add(show(stored, schema));
    }
    return out;
  }

  /**
   * Sets (or replaces) {@code principalRole}'s restriction on the table: 404 for an unknown table
   * or role, 400 naming the bad value for an unknown column, a filter that does not bind, an
   * unknown action or one that does not apply to its column's type, a column both hidden and
   * masked, a filter on a hidden column, or hiding every column.
   */
  public ReadRestriction set(
      Caller caller,
      String catalog,
      TableIdentifier table,
      String principalRole,
      SetReadRestrictionRequest request) {
    Schema schema = currentSchema(catalog, table);
    if (store.access().getPrincipalRole(principalRole).isEmpty()) {
      throw new NotFoundException("Principal role %s not found", principalRole);
    }
    StoredReadRestriction restriction = resolve(catalog, table, principalRole, request, schema);
    requireOutsideLayout(catalog, table, restriction, schema);
    Optional<StoredReadRestriction> before = find(catalog, table, principalRole);
    try {
      store.readRestrictions().put(restriction);
    } catch (NotFound e) {
      throw new NotFoundException("%s", e.getMessage());
    }
    onChange.accept(catalog, table);
    ReadRestriction after = show(restriction, schema);
    audit(caller, catalog, table, principalRole, before.map(b -> show(b, schema)), after);
    return after;
  }

  /** Removes {@code principalRole}'s restriction on the table; 404 when it has none. */
  public void remove(Caller caller, String catalog, TableIdentifier table, String principalRole) {
    Schema schema = currentSchema(catalog, table);
    Optional<StoredReadRestriction> before = find(catalog, table, principalRole);
    if (before.isEmpty()
        || !store.readRestrictions().remove(catalog, ns(table), table.name(), principalRole)) {
      throw new NotFoundException(
          "Table %s has no read restriction for principal role %s", table, principalRole);
    }
    onChange.accept(catalog, table);
    audit(caller, catalog, table, principalRole, before.map(b -> show(b, schema)), null);
  }

  private StoredReadRestriction resolve(
      String catalog,
      TableIdentifier table,
      String role,
      SetReadRestrictionRequest request,
      Schema schema) {
    List<Integer> hidden = new ArrayList<>();
    for (String name : request.hiddenColumns()) {
      Types.NestedField field = column(schema, name);
      Integer parent = TypeUtil.indexParents(schema.asStruct()).get(field.fieldId());
      if (parent != null && !schema.findField(parent).type().isStructType()) {
        throw new BadRequestException(
            "Cannot hide %s, a part of a list or map: hide %s instead",
            name, schema.findColumnName(parent));
      }
      hidden.add(field.fieldId());
    }
    Set<Integer> hiddenAll =
        new TableRestriction(Expressions.alwaysTrue(), Set.copyOf(hidden), Map.of())
            .hiddenIdsIn(schema);
    Map<Integer, String> masked = new TreeMap<>();
    for (Map.Entry<String, String> mask : request.maskedColumns().entrySet()) {
      Types.NestedField field = column(schema, mask.getKey());
      MaskAction action;
      try {
        action = MaskAction.fromSpec(mask.getValue());
      } catch (IllegalArgumentException e) {
        throw new BadRequestException("Column %s: %s", mask.getKey(), e.getMessage());
      }
      if (hiddenAll.contains(field.fieldId())) {
        throw new BadRequestException("Column %s is both hidden and masked", mask.getKey());
      }
      if (!action.appliesTo(field)) {
        throw new BadRequestException(
            "Mask %s applies to %s; column %s is %s%s",
            action.spec(),
            action.appliesToDescription(),
            mask.getKey(),
            field.isOptional() ? "optional " : "required ",
            field.type());
      }
      masked.put(field.fieldId(), action.spec());
    }
    if (!hidden.isEmpty()
        && new TableRestriction(Expressions.alwaysTrue(), Set.copyOf(hidden), Map.of())
            .visibleSchema(schema)
            .columns()
            .isEmpty()) {
      throw new BadRequestException("The restriction hides every column of %s", table);
    }
    String filter = null;
    if (request.rowFilter() != null) {
      RowFilters.Checked checked;
      try {
        checked = RowFilters.check(request.rowFilter(), schema);
      } catch (IllegalArgumentException e) {
        throw new BadRequestException("%s", e.getMessage());
      }
      for (int id : checked.fieldIds()) {
        if (hiddenAll.contains(id)) {
          throw new BadRequestException(
              "The row filter reads %s, which the restriction hides: the engine could not apply it",
              schema.findColumnName(id));
        }
      }
      Expression resolved = RowFilters.resolve(checked.storedJson(), schema);
      filter = resolved.op() == Expression.Operation.TRUE ? null : checked.storedJson();
    }
    return new StoredReadRestriction(
        catalog, ns(table), table.name(), role, filter, hidden, masked);
  }

  private static Types.NestedField column(Schema schema, String name) {
    Types.NestedField field = schema.findField(name);
    if (field == null) {
      throw new BadRequestException("Unknown column: %s", name);
    }
    return field;
  }

  private static ReadRestriction show(StoredReadRestriction stored, Schema schema) {
    Map<String, Integer> ids = new LinkedHashMap<>();
    List<String> hidden = new ArrayList<>();
    for (int id : stored.hiddenFieldIds()) {
      String name = name(schema, id);
      hidden.add(name);
      ids.put(name, id);
    }
    Map<String, String> masked = new LinkedHashMap<>();
    stored
        .maskedFieldIds()
        .forEach(
            (id, action) -> {
              String name = name(schema, id);
              masked.put(name, action);
              ids.put(name, id);
            });
    JsonNode filter = null;
    if (stored.rowFilterJson() != null) {
      filter = RowFilters.show(stored.rowFilterJson(), schema);
      for (int id : new TreeSet<>(RowFilters.fieldIds(stored.rowFilterJson()))) {
        ids.put(name(schema, id), id);
      }
    }
    return new ReadRestriction(stored.principalRole(), filter, hidden, masked, ids);
  }

  private static String name(Schema schema, int id) {
    String name = schema.findColumnName(id);
    return name == null ? "#" + id : name;
  }

  private void audit(
      Caller caller,
      String catalog,
      TableIdentifier table,
      String role,
      Optional<ReadRestriction> before,
      ReadRestriction after) {
    ObjectNode detail = JSON.createObjectNode();
    detail.put("table", table.toString());
    detail.put("principalRole", role);
    detail.set("before", before.<JsonNode>map(JSON::valueToTree).orElse(detail.nullNode()));
    detail.set("after", after == null ? detail.nullNode() : JSON.valueToTree(after));
    String text = detail.toString();
    LOG.info(
        "Table {} of catalog {}: read restriction of principal role {} changed by {} (request {}): {}",
        table,
        catalog,
        role,
        caller.principal(),
        caller.requestId(),
        text);
    authz.record(caller, ACTION, catalog, "table " + table + " principal-role " + role, true, text);
  }

  /**
   * A hidden or masked column must not be a partition source: its values are in every file's
   * partition data (which plans return) and often in its path, where no mask applies. A hidden one
   * must not be a sort column: the sort order of the schema a restricted caller is shown would name
   * a column it lacks.
   */
  private void requireOutsideLayout(
      String catalog, TableIdentifier table, StoredReadRestriction restriction, Schema schema) {
    Set<Integer> hidden =
        new TableRestriction(
                Expressions.alwaysTrue(), Set.copyOf(restriction.hiddenFieldIds()), Map.of())
            .hiddenIdsIn(schema);
    Set<Integer> restricted = new TreeSet<>(hidden);
    restricted.addAll(restriction.maskedFieldIds().keySet());
    Table loaded = catalogs.resolve(catalog).loadTable(table);
    for (PartitionSpec spec : loaded.specs().values()) {
      for (PartitionField field : spec.fields()) {
        if (restricted.contains(field.sourceId())) {
          throw new BadRequestException(
              "Column %s is a partition source of %s: its values are in every file's partition"
                  + " data and path, where no restriction applies; keep it in another table",
              schema.findColumnName(field.sourceId()), table);
        }
      }
    }
    // A sort order naming a column the caller's schema lacks would not load in its engine.
    for (SortOrder order : loaded.sortOrders().values()) {
      for (SortField field : order.fields()) {
        if (hidden.contains(field.sourceId())) {
          throw new BadRequestException(
              "Column %s sorts %s: a restricted caller's engine could not load its sort order"
                  + " without it; hide another column or change the sort order",
              schema.findColumnName(field.sourceId()), table);
        }
      }
    }
  }

  private Schema currentSchema(String catalog, TableIdentifier table) {
    try {
      return catalogs.resolve(catalog).loadTable(table).schema();
    } catch (NoSuchTableException e) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
  }

  private List<StoredReadRestriction> stored(String catalog, TableIdentifier table) {
    return store.readRestrictions().forTable(catalog, ns(table), table.name());
  }

  private Optional<StoredReadRestriction> find(String catalog, TableIdentifier table, String role) {
    return stored(catalog, table).stream().filter(r -> r.principalRole().equals(role)).findFirst();
  }

  private static NamespacePath ns(TableIdentifier table) {
    return new NamespacePath(List.of(table.namespace().levels()));
  }
}
