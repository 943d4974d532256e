package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * A read restriction on a table for one principal role, by the column names of the table's current
 * schema (stored by field id, so a rename keeps it): {@code rowFilter} an Iceberg expression
 * (absent when none), {@code hiddenColumns} removed from the schema the role is shown, {@code
 * maskedColumns} column to the Iceberg REST spec's action name, and {@code fieldIds} each named
 * column's field id. A column dropped from the table since shows as {@code #<field id>}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReadRestriction(
    @JsonProperty(required = true) String principalRole,
    JsonNode rowFilter,
    @JsonProperty(required = true) List<String> hiddenColumns,
    @JsonProperty(required = true) Map<String, String> maskedColumns,
    @JsonProperty(required = true) Map<String, Integer> fieldIds) {
  public ReadRestriction {
    Fields.nonEmpty(principalRole, "principalRole");
    hiddenColumns = Fields.copy(hiddenColumns);
    maskedColumns = Fields.copy(maskedColumns);
    fieldIds = Fields.copy(fieldIds);
  }
}
