package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * {@code PUT /principal-roles/{role}/catalog-roles/{catalog}}: the catalog role to grant to the
 * principal role.
 */
public record GrantCatalogRoleRequest(@JsonProperty(required = true) RoleRef catalogRole) {
  public GrantCatalogRoleRequest {
    Objects.requireNonNull(catalogRole, "catalogRole");
  }

  public static GrantCatalogRoleRequest of(String role) {
    return new GrantCatalogRoleRequest(new RoleRef(role));
  }
}
