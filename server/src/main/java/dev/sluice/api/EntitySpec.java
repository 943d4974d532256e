package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** What a create names: a principal's, principal role's or catalog role's name and properties. */
public record EntitySpec(
    @JsonProperty(required = true) String name, Map<String, String> properties) {
  public EntitySpec {
    Fields.nonEmpty(name, "name");
    properties = Fields.copy(properties);
  }

  public static EntitySpec named(String name) {
    return new EntitySpec(name, Map.of());
  }
}
