package dev.sluice.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;

/**
 * A restriction's row filter: Iceberg's expression JSON (ExpressionParser), kept with field ids in
 * place of column names (each term's reference is the field id in decimal), so a rename of a column
 * keeps the filter on that column and a new column that takes the old name is never filtered in its
 * place. Names are put back against the schema of the moment; a filter on a column dropped since
 * matches no row (fail closed).
 */
public final class RowFilters {
  private RowFilters() {}

  /** A filter checked against a schema: its stored form and the field ids it reads. */
  public record Checked(String storedJson, Set<Integer> fieldIds) {}

  /**
   * {@code filter} (by column names) checked against {@code schema}: it must parse and bind
   * (case-sensitively), else IllegalArgumentException naming why.
   */
  public static Checked check(JsonNode filter, Schema schema) {
    Expression parsed;
    try {
      parsed = ExpressionParser.fromJson(filter);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Invalid row filter: " + e.getMessage(), e);
    }
    try {
      Binder.bind(schema.asStruct(), parsed, true);
    } catch (RuntimeException e) {
      // ValidationException, and whatever a literal's conversion throws (DateTimeParseException…)
      throw new IllegalArgumentException(
          "Row filter does not bind to the table's schema: " + e.getMessage(), e);
    }
    Set<Integer> ids = new TreeSet<>();
    JsonNode stored =
        rewrite(
            filter.deepCopy(),
            name -> {
              Types.NestedField field = schema.findField(name);
              if (field == null) {
                throw new IllegalArgumentException("Row filter: unknown column " + name);
              }
              ids.add(field.fieldId());
              return Integer.toString(field.fieldId());
            });
    return new Checked(stored.toString(), ids);
  }

  /** The stored filter by the column names of {@code schema}; alwaysFalse when a column is gone. */
  public static Expression resolve(String storedJson, Schema schema) {
    JsonNode named = named(storedJson, schema, null);
    return named == null ? Expressions.alwaysFalse() : ExpressionParser.fromJson(named);
  }

  /**
   * The stored filter as JSON by the column names of {@code schema}, for showing: a column dropped
   * since shows as {@code #<field id>}.
   */
  public static JsonNode show(String storedJson, Schema schema) {
    return named(storedJson, schema, id -> "#" + id);
  }

  /** The field ids a stored filter reads. */
  public static Set<Integer> fieldIds(String storedJson) {
    Set<Integer> ids = new TreeSet<>();
    rewrite(
        parse(storedJson),
        id -> {
          ids.add(Integer.parseInt(id));
          return id;
        });
    return ids;
  }

  private static JsonNode named(String storedJson, Schema schema, Function<Integer, String> gone) {
    boolean[] missing = {false};
    JsonNode out =
        rewrite(
            parse(storedJson),
            id -> {
              int fieldId = Integer.parseInt(id);
              String name = schema.findColumnName(fieldId);
              if (name != null) {
                return name;
              }
              missing[0] = true;
              return gone == null ? id : gone.apply(fieldId);
            });
    return missing[0] && gone == null ? null : out;
  }

  private static JsonNode parse(String json) {
    try {
      return JsonUtil.mapper().readTree(json);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("Corrupt stored row filter", e);
    }
  }

  /** Each term's reference of an expression's JSON replaced by {@code map} of it, in place. */
  private static JsonNode rewrite(JsonNode node, Function<String, String> map) {
    if (!(node instanceof ObjectNode object) || !node.has("type")) {
      return node; // true, false
    }
    switch (node.get("type").asText()) {
      case "and", "or" -> {
        rewrite(node.get("left"), map);
        rewrite(node.get("right"), map);
      }
      case "not" -> rewrite(node.get("child"), map);
      case "literal" -> {}
      default -> {
        if (node.has("term")) {
          object.set("term", term(node.get("term"), map));
        }
      }
    }
    return node;
  }

  private static JsonNode term(JsonNode term, Function<String, String> map) {
    if (term.isTextual()) {
      return TextNode.valueOf(map.apply(term.asText()));
    }
    if (term instanceof ObjectNode object && term.has("term")) {
      object.set("term", term(term.get("term"), map)); // a reference or a transform's
    }
    return term;
  }
}
