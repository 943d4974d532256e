package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** A principal role or a catalog role. */
public record Role(
    @JsonProperty(required = true) String name,
    Map<String, String> properties,
    long createTimestamp) {
  public Role {
    properties = Fields.copy(properties);
  }
}
