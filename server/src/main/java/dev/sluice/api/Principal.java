package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * A principal. {@code id} is never reused: audit events name it, so a re-created name is told
 * apart.
 */
public record Principal(
    @JsonProperty(required = true) String name,
    @JsonProperty(required = true) String id,
    @JsonProperty(required = true) String clientId,
    Map<String, String> properties,
    long createTimestamp) {
  public Principal {
    properties = Fields.copy(properties);
  }
}
