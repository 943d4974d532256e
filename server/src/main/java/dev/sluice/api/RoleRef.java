package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A role named in a grant of roles. */
public record RoleRef(@JsonProperty(required = true) String name) {
  public RoleRef {
    Fields.nonEmpty(name, "name");
  }
}
