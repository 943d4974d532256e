package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** {@code PUT /principals/{principal}/principal-roles}: the principal role to assign. */
public record GrantPrincipalRoleRequest(@JsonProperty(required = true) RoleRef principalRole) {
  public GrantPrincipalRoleRequest {
    Objects.requireNonNull(principalRole, "principalRole");
  }

  public static GrantPrincipalRoleRequest of(String role) {
    return new GrantPrincipalRoleRequest(new RoleRef(role));
  }
}
