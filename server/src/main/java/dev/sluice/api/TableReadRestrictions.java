package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /catalogs/{catalog}/namespaces/{namespace}/tables/{table}/read-restrictions}: every
 * principal role's read restriction on the table, in role name order.
 */
public record TableReadRestrictions(
    @JsonProperty(required = true) String catalog,
    @JsonProperty(required = true) List<String> namespace,
    @JsonProperty(required = true) String table,
    @JsonProperty(required = true) List<ReadRestriction> restrictions) {
  public TableReadRestrictions {
    Fields.nonEmpty(catalog, "catalog");
    namespace = Fields.copy(namespace);
    Fields.nonEmpty(table, "table");
    restrictions = Fields.copy(restrictions);
  }
}
