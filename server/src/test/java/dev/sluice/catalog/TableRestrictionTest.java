package dev.sluice.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.api.Test;

class TableRestrictionTest {
  // id 1 required, 2 region, 3 ssn, 4 email, 5 address<6 city, 7 zip>, 8 tags<9 element>,
  // 10 born (date), 11 attrs map<12 key, 13 value struct<14 a, 15 secret>>
  private static final Schema SCHEMA =
      new Schema(
          7,
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "region", Types.StringType.get()),
              Types.NestedField.required(3, "ssn", Types.StringType.get()),
              Types.NestedField.optional(4, "email", Types.StringType.get()),
              Types.NestedField.optional(
                  5,
                  "address",
                  Types.StructType.of(
                      Types.NestedField.optional(6, "city", Types.StringType.get()),
                      Types.NestedField.optional(7, "zip", Types.StringType.get()))),
              Types.NestedField.optional(
                  8, "tags", Types.ListType.ofOptional(9, Types.StringType.get())),
              Types.NestedField.optional(10, "born", Types.DateType.get()),
              Types.NestedField.optional(
                  11,
                  "attrs",
                  Types.MapType.ofOptional(
                      12,
                      13,
                      Types.StringType.get(),
                      Types.StructType.of(
                          Types.NestedField.optional(14, "a", Types.IntegerType.get()),
                          Types.NestedField.optional(15, "secret", Types.StringType.get()))))),
          Set.of(1, 3));

  private static TableRestriction hiding(Integer... ids) {
    return new TableRestriction(Expressions.alwaysTrue(), Set.of(ids), Map.of());
  }

  @Test
  void hiddenColumnsLeaveTheSchemaAndItsIdentifierFields() {
    Schema visible = hiding(3, 7, 15).visibleSchema(SCHEMA);
    assertThat(visible.schemaId()).isEqualTo(7);
    assertThat(visible.findField(3)).isNull();
    assertThat(visible.findField("address.city")).isNotNull();
    assertThat(visible.findField("address.zip"))
        .as("a struct field hidden leaves the struct")
        .isNull();
    assertThat(visible.findField("attrs.value.a")).isNotNull();
    assertThat(visible.findField(15)).isNull();
    assertThat(visible.identifierFieldIds()).containsExactly(1);
    assertThat(visible.columns()).hasSize(SCHEMA.columns().size() - 1);
  }

  @Test
  void hidingAStructHidesWhatIsInItAndAStructLeftEmptyGoesToo() {
    assertThat(hiding(5).visibleSchema(SCHEMA).findField(6)).isNull();
    Schema visible = hiding(6, 7).visibleSchema(SCHEMA);
    assertThat(visible.findField(5)).as("no visible field left").isNull();
    assertThat(hiding().visibleSchema(SCHEMA)).isSameAs(SCHEMA);
  }

  @Test
  void aMaskThatDoesNotApplyToItsColumnHidesIt() {
    TableRestriction r =
        new TableRestriction(
            Expressions.alwaysTrue(),
            Set.of(),
            Map.of(1, MaskAction.REPLACE_WITH_NULL, 4, MaskAction.MASK_ALPHANUM));
    Schema visible = r.visibleSchema(SCHEMA);
    assertThat(visible.findField(1)).as("replace-with-null on a required column").isNull();
    assertThat(visible.findField(4)).isNotNull();
    assertThat(r.readRestrictionsJson(SCHEMA).toString())
        .isEqualTo(
            "{\"required-column-projections\":[{\"action\":\"mask-alphanum\",\"field-id\":4}]}");
  }

  @Test
  void aProjectionOfAHiddenColumnIsRefusedAndOneHoldingHiddenFieldsNarrowed() {
    TableRestriction r = hiding(3, 7, 15);
    assertThatThrownBy(() -> r.checkProjection(SCHEMA, List.of("id", "ssn")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ssn");
    assertThatThrownBy(() -> r.checkProjection(SCHEMA, List.of("SSN")))
        .as("not by another case either")
        .hasMessageContaining("SSN");
    assertThatThrownBy(() -> r.checkProjection(SCHEMA, List.of("address.zip")))
        .hasMessageContaining("address.zip");
    assertThat(r.checkProjection(SCHEMA, List.of("id", "address", "nope")))
        .containsExactly("id", "address.city", "nope");
    assertThat(r.checkProjection(SCHEMA, List.of()))
        .containsExactly(
            "id", "region", "email", "address.city", "tags", "born", "attrs.key", "attrs.value.a");
    assertThat(hiding().checkProjection(SCHEMA, null)).hasSize(SCHEMA.columns().size());
  }

  @Test
  void theSpecObjectCarriesTheFilterAndTheMasksByFieldId() throws Exception {
    TableRestriction r =
        new TableRestriction(
            Expressions.equal("region", "EMEA"),
            Set.of(3),
            Map.of(4, MaskAction.SHOW_LAST_4, 10, MaskAction.TRUNCATE_TO_YEAR));
    ObjectNode json = r.readRestrictionsJson(SCHEMA);
    assertThat(r.hasRowFilter()).isTrue();
    Expression filter = ExpressionParser.fromJson(json.get("required-row-filter"));
    assertThat(filter.toString()).isEqualTo(Expressions.equal("region", "EMEA").toString());
    assertThat(json.get("required-column-projections"))
        .isEqualTo(
            JsonUtil.mapper()
                .readTree(
                    "[{\"action\":\"show-last-4\",\"field-id\":4},"
                        + "{\"action\":\"truncate-to-year\",\"field-id\":10}]"));
    assertThat(hiding().readRestrictionsJson(SCHEMA).isEmpty()).isTrue();
    assertThat(hiding().hasRowFilter()).isFalse();
  }

  @Test
  void rolesCombineFailingClosed() {
    String emea =
        RowFilters.check(json("{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"}"), SCHEMA)
            .storedJson();
    String adults =
        RowFilters.check(
                json("{\"type\":\"lt\",\"term\":\"born\",\"value\":\"2008-01-01\"}"), SCHEMA)
            .storedJson();
    TableRestriction combined =
        TableRestriction.combine(
            List.of(
                new TableRestriction.RoleRestriction(
                    "zeta", adults, Set.of(), Map.of(4, MaskAction.SHA_256_GLOBAL)),
                new TableRestriction.RoleRestriction(
                    "alpha",
                    emea,
                    Set.of(3),
                    Map.of(4, MaskAction.MASK_ALPHANUM, 2, MaskAction.SHOW_FIRST_4)),
                new TableRestriction.RoleRestriction(
                    "beta", null, Set.of(2), Map.of(3, MaskAction.MASK_TO_FIXED_VALUE))),
            SCHEMA);
    assertThat(combined.rowFilter().toString())
        .isEqualTo(
            Expressions.and(
                    Expressions.equal("region", "EMEA"), Expressions.lessThan("born", "2008-01-01"))
                .toString());
    assertThat(combined.hiddenFieldIds()).containsExactly(2, 3);
    assertThat(combined.masks())
        .as("the first role's by name; hidden wins over masked")
        .containsExactly(Map.entry(4, MaskAction.MASK_ALPHANUM));
  }

  @Test
  void aRowFilterFollowsItsColumnThroughARenameAndFailsClosedWhenItIsDropped() {
    RowFilters.Checked checked =
        RowFilters.check(json("{\"type\":\"eq\",\"term\":\"region\",\"value\":\"EMEA\"}"), SCHEMA);
    assertThat(checked.fieldIds()).containsExactly(2);
    assertThat(checked.storedJson()).contains("\"term\":\"2\"");
    Schema renamed =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(16, "region", Types.StringType.get()),
            Types.NestedField.optional(2, "sales_region", Types.StringType.get()));
    assertThat(RowFilters.resolve(checked.storedJson(), renamed).toString())
        .isEqualTo(Expressions.equal("sales_region", "EMEA").toString());
    assertThat(RowFilters.show(checked.storedJson(), renamed).get("term").asText())
        .isEqualTo("sales_region");
    Schema dropped = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    assertThat(RowFilters.resolve(checked.storedJson(), dropped))
        .isEqualTo(Expressions.alwaysFalse());
    assertThat(RowFilters.show(checked.storedJson(), dropped).get("term").asText()).isEqualTo("#2");
  }

  @Test
  void aRowFilterMustParseAndBind() {
    assertThatThrownBy(
            () -> RowFilters.check(json("{\"type\":\"eq\",\"term\":\"nope\",\"value\":1}"), SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> RowFilters.check(json("{\"type\":\"frobnicate\"}"), SCHEMA))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Invalid row filter");
    assertThatThrownBy(
            () ->
                RowFilters.check(
                    json("{\"type\":\"eq\",\"term\":\"born\",\"value\":\"soon\"}"), SCHEMA))
        .isInstanceOf(IllegalArgumentException.class);
    RowFilters.Checked transform =
        RowFilters.check(
            json(
                "{\"type\":\"and\",\"left\":{\"type\":\"not-null\",\"term\":\"email\"},"
                    + "\"right\":{\"type\":\"eq\",\"term\":{\"type\":\"transform\",\"transform\":\"year\",\"term\":\"born\"},\"value\":30}}"),
            SCHEMA);
    assertThat(transform.fieldIds()).containsExactly(4, 10);
    assertThat(RowFilters.fieldIds(transform.storedJson())).containsExactly(4, 10);
  }

  @Test
  void maskActionsHaveTheSpecNamesAndTypes() {
    assertThat(MaskAction.SHA_256_QUERY_LOCAL.spec()).isEqualTo("sha-256-query-local");
    assertThat(MaskAction.fromSpec("mask-to-fixed-value"))
        .isEqualTo(MaskAction.MASK_TO_FIXED_VALUE);
    assertThatThrownBy(() -> MaskAction.fromSpec("apply-expression"))
        .hasMessageContaining("apply-expression")
        .hasMessageContaining("does not offer");
    assertThat(MaskAction.TRUNCATE_TO_MONTH.appliesTo(SCHEMA.findField(10))).isTrue();
    assertThat(MaskAction.TRUNCATE_TO_MONTH.appliesTo(SCHEMA.findField(4))).isFalse();
    assertThat(MaskAction.SHOW_FIRST_4.appliesTo(SCHEMA.findField(1))).isFalse();
    assertThat(MaskAction.SHA_256_GLOBAL.appliesTo(SCHEMA.findField(1))).isTrue();
    assertThat(MaskAction.MASK_TO_FIXED_VALUE.appliesTo(SCHEMA.findField(11))).isTrue();
    assertThat(
            MaskAction.MASK_TO_FIXED_VALUE.appliesTo(
                Types.NestedField.optional(
                    20,
                    "g",
                    Types.StructType.of(
                        Types.NestedField.optional(21, "shape", Types.GeometryType.crs84())))))
        .isFalse();
  }

  private static JsonNode json(String text) {
    try {
      return JsonUtil.mapper().readTree(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
