package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * {@code POST /catalogs}: the catalog, and whether to run the storage self-check on it at once (a
 * Sluice extension; the catalog is created whatever the verdict).
 */
public record CreateCatalogRequest(
    @JsonProperty(required = true) Catalog catalog,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean verify) {
  public CreateCatalogRequest {
    Objects.requireNonNull(catalog, "catalog");
  }

  public boolean verifies() {
    return Boolean.TRUE.equals(verify);
  }
}
