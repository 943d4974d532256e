package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * {@code PUT …/tables/{table}/read-restrictions/{principalRole}}: the role's restriction, replacing
 * any it had: {@code rowFilter} an Iceberg expression in the REST spec's JSON (absent or null:
 * none), {@code hiddenColumns} and {@code maskedColumns} (column to action: {@code mask-alphanum},
 * {@code mask-to-fixed-value}, {@code replace-with-null}, {@code show-first-4}, {@code
 * show-last-4}, {@code truncate-to-year}, {@code truncate-to-month}, {@code sha-256-global}, {@code
 * sha-256-query-local}) by the names of the table's current schema (absent: none).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SetReadRestrictionRequest(
    JsonNode rowFilter, List<String> hiddenColumns, Map<String, String> maskedColumns) {
  public SetReadRestrictionRequest {
    rowFilter = rowFilter == null || rowFilter.isNull() ? null : rowFilter;
    hiddenColumns = hiddenColumns == null ? List.of() : Fields.copy(hiddenColumns);
    maskedColumns = maskedColumns == null ? Map.of() : Fields.copy(maskedColumns);
  }
}
