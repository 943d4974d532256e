package dev.sluice.api;

import java.util.Map;

/**
 * A principal. {@code id} is never reused: audit events name it, so a re-created name is told
 * apart.
 */
public record Principal(
    String name, String id, String clientId, Map<String, String> properties, long createTimestamp) {
  public Principal {
    properties = Fields.copy(properties);
  }
}
