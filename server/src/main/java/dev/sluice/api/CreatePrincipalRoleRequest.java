package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** {@code POST /principal-roles}. */
public record CreatePrincipalRoleRequest(@JsonProperty(required = true) EntitySpec principalRole) {
  public CreatePrincipalRoleRequest {
    Objects.requireNonNull(principalRole, "principalRole");
  }
}
