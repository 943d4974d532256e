package dev.sluice.api;

import java.util.Map;

/** A principal role or a catalog role. */
public record Role(String name, Map<String, String> properties, long createTimestamp) {
  public Role {
    properties = Fields.copy(properties);
  }
}
