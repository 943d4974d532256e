package dev.sluice.api;

import java.util.Map;

/** {@code PUT /principals/{principal}}: its properties, replaced whole. */
public record UpdatePrincipalRequest(Map<String, String> properties) {
  public UpdatePrincipalRequest {
    properties = Fields.copy(properties);
  }
}
