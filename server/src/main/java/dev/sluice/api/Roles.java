package dev.sluice.api;

import java.util.List;

/** A page of principal roles or catalog roles. */
public record Roles(List<Role> roles, String nextPageToken) implements Paged<Role> {
  public Roles {
    roles = Fields.copy(roles);
  }

  @Override
  public List<Role> items() {
    return roles;
  }
}
