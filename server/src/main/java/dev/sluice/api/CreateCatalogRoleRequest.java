package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** {@code POST /catalogs/{catalog}/catalog-roles}. */
public record CreateCatalogRoleRequest(@JsonProperty(required = true) EntitySpec catalogRole) {
  public CreateCatalogRoleRequest {
    Objects.requireNonNull(catalogRole, "catalogRole");
  }
}
