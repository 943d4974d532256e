package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;

/**
 * What one caller may read of one table: a row filter ({@code alwaysTrue} when none, by the column
 * names of the table's current schema), hidden columns (removed from the schema the caller is
 * shown) and masked columns (the spec's {@code required-column-projections}), by field id. Pure
 * Iceberg semantics: no store, no HTTP.
 *
 * <p>Fail closed throughout: a mask that no longer applies to its column's type (or an action this
 * server does not know) hides the column instead; hiding a column hides everything in it; a struct
 * left with no visible field is hidden with it.
 */
public record TableRestriction(
    Expression rowFilter, Set<Integer> hiddenFieldIds, Map<Integer, MaskAction> masks) {
  public TableRestriction {
    requireNonNull(rowFilter, "rowFilter");
    hiddenFieldIds = Collections.unmodifiableSet(new TreeSet<>(hiddenFieldIds));
    masks = Collections.unmodifiableMap(new TreeMap<>(masks));
  }

  /** One principal role's restriction on the table, as {@link #combine} takes it. */
  public record RoleRestriction(
      String principalRole,
      String storedRowFilter,
      Set<Integer> hiddenFieldIds,
      Map<Integer, MaskAction> masks) {
    public RoleRestriction {
      requireNonNull(principalRole, "principalRole");
      hiddenFieldIds = Set.copyOf(hiddenFieldIds);
      masks = Map.copyOf(masks);
    }
  }

  /**
   * The restriction of a caller holding several restricted roles, against the table's {@code
   * current} schema: row filters AND-ed, hidden columns united, masks united (a column masked by
   * several roles gets the first role's action in role name order; a column hidden by one role and
   * masked by another is hidden).
   */
  public static TableRestriction combine(List<RoleRestriction> roles, Schema current) {
    List<RoleRestriction> ordered = new ArrayList<>(roles);
    ordered.sort(Comparator.comparing(RoleRestriction::principalRole));
    Expression filter = Expressions.alwaysTrue();
    Set<Integer> hidden = new TreeSet<>();
    Map<Integer, MaskAction> masks = new TreeMap<>();
    for (RoleRestriction role : ordered) {
      if (role.storedRowFilter() != null) {
        filter = Expressions.and(filter, RowFilters.resolve(role.storedRowFilter(), current));
      }
      hidden.addAll(role.hiddenFieldIds());
      role.masks().forEach(masks::putIfAbsent);
    }
    masks.keySet().removeAll(hidden);
    return new TableRestriction(filter, hidden, masks);
  }

  public boolean hasRowFilter() {
    return rowFilter.op() != Expression.Operation.TRUE;
  }

  /**
   * The schema a restricted caller is shown: hidden columns removed (a struct field hidden removes
   * it from the struct), identifier fields that are hidden dropped from its identifier field ids.
   * Same schema id.
   */
  public Schema visibleSchema(Schema schema) {
    Set<Integer> hidden = hiddenIdsIn(schema);
    if (hidden.isEmpty()) {
      return schema;
    }
    List<Types.NestedField> columns = new ArrayList<>();
    for (Types.NestedField column : schema.columns()) {
      Types.NestedField kept = prune(column, hidden);
      if (kept != null) {
        columns.add(kept);
      }
    }
    Set<Integer> identifiers = new LinkedHashSet<>(schema.identifierFieldIds());
    identifiers.removeAll(hidden);
    return new Schema(schema.schemaId(), columns, identifiers);
  }

  /**
   * The column names a restricted caller's projection {@code select} becomes: a hidden column is
   * refused (IllegalArgumentException naming it); a column holding hidden fields becomes its
   * visible fields by their full names; an empty or null {@code select} (every column) likewise. A
   * name the schema does not know is left for the scan to refuse.
   */
  public List<String> checkProjection(Schema schema, List<String> select) {
    Set<Integer> hidden = hiddenIdsIn(schema);
    List<String> out = new ArrayList<>();
    if (select == null || select.isEmpty()) {
      for (Types.NestedField column : schema.columns()) {
        expand(schema, column, hidden, out);
      }
      return out;
    }
    for (String name : select) {
      Types.NestedField exact = schema.findField(name);
      Types.NestedField folded = schema.caseInsensitiveFindField(name);
      if ((exact != null && hidden.contains(exact.fieldId()))
          || (folded != null && hidden.contains(folded.fieldId()))) {
        throw new IllegalArgumentException("Column " + name + " is hidden from this principal");
      }
      if (exact == null) {
        out.add(name);
      } else {
        expand(schema, exact, hidden, out);
      }
    }
    return out;
  }

  /**
   * The spec's {@code read-restrictions} object for {@code schema}: {@code required-row-filter}
   * (absent when none) and {@code required-column-projections} (the masks of visible columns,
   * {@code {"action", "field-id"}} each, by field id; absent when none).
   */
  public ObjectNode readRestrictionsJson(Schema schema) {
    ObjectNode out = JsonUtil.mapper().createObjectNode();
    if (hasRowFilter()) {
      try {
        out.set(
            "required-row-filter", JsonUtil.mapper().readTree(ExpressionParser.toJson(rowFilter)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Set<Integer> hidden = hiddenIdsIn(schema);
    ArrayNode projections = JsonUtil.mapper().createArrayNode();
    masks.forEach(
        (id, action) -> {
          if (schema.findField(id) != null && !hidden.contains(id)) {
            projections.addObject().put("action", action.spec()).put("field-id", id);
          }
        });
    if (!projections.isEmpty()) {
      out.set("required-column-projections", projections);
    }
    return out;
  }

  /**
   * The field ids hidden in {@code schema}: the hidden columns, the masked ones whose mask does not
   * apply to their type there, and everything inside either.
   */
  public Set<Integer> hiddenIdsIn(Schema schema) {
    Set<Integer> roots = new TreeSet<>(hiddenFieldIds);
    masks.forEach(
        (id, action) -> {
          Types.NestedField field = schema.findField(id);
          if (field != null && !action.appliesTo(field)) {
            roots.add(id);
          }
        });
    Set<Integer> out = new TreeSet<>();
    for (int id : roots) {
      Types.NestedField field = schema.findField(id);
      if (field != null) {
        out.addAll(TypeUtil.indexById(Types.StructType.of(field)).keySet());
      }
    }
    return out;
  }

  /** {@code field} without its hidden parts; null when nothing of it is left. */
  private static Types.NestedField prune(Types.NestedField field, Set<Integer> hidden) {
    if (hidden.contains(field.fieldId())) {
      return null;
    }
    Type type = prune(field.type(), hidden);
    if (type == null) {
      return null;
    }
    return type == field.type() ? field : Types.NestedField.from(field).ofType(type).build();
  }

  private static Type prune(Type type, Set<Integer> hidden) {
    if (type.isPrimitiveType()) {
      return type;
    }
    if (type.isStructType()) {
      List<Types.NestedField> fields = type.asStructType().fields();
      List<Types.NestedField> kept = new ArrayList<>();
      boolean changed = false;
      for (Types.NestedField f : fields) {
        Types.NestedField k = prune(f, hidden);
        changed |= k != f;
        if (k != null) {
          kept.add(k);
        }
      }
      if (!changed) {
        return type;
      }
      return kept.isEmpty() ? null : Types.StructType.of(kept);
    }
    if (type.isListType()) {
      Types.ListType list = type.asListType();
      Types.NestedField element = prune(list.fields().get(0), hidden);
      if (element == null) {
        return null;
      }
      if (element == list.fields().get(0)) {
        return type;
      }
      return list.isElementOptional()
          ? Types.ListType.ofOptional(list.elementId(), element.type())
          : Types.ListType.ofRequired(list.elementId(), element.type());
    }
    if (type.isMapType()) {
      Types.MapType map = type.asMapType();
      Types.NestedField key = prune(map.fields().get(0), hidden);
      Types.NestedField value = prune(map.fields().get(1), hidden);
      if (key == null || value == null) {
        return null;
      }
      if (key == map.fields().get(0) && value == map.fields().get(1)) {
        return type;
      }
      return map.isValueOptional()
          ? Types.MapType.ofOptional(map.keyId(), map.valueId(), key.type(), value.type())
          : Types.MapType.ofRequired(map.keyId(), map.valueId(), key.type(), value.type());
    }
    return type; // variant and other non-nested types
  }

  /** {@code field}'s full name, or its visible parts' when something inside it is hidden. */
  private static void expand(
      Schema schema, Types.NestedField field, Set<Integer> hidden, List<String> out) {
    if (hidden.contains(field.fieldId())) {
      return;
    }
    Set<Integer> inside = TypeUtil.indexById(Types.StructType.of(field)).keySet();
    if (Collections.disjoint(inside, hidden) || !field.type().isNestedType()) {
      out.add(schema.findColumnName(field.fieldId()));
      return;
    }
    for (Types.NestedField child : field.type().asNestedType().fields()) {
      expand(schema, child, hidden, out);
    }
  }
}
