package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * {@code PUT …/grants} adds this grant; {@code POST …/grants} revokes it (Polaris's AddGrantRequest
 * and RevokeGrantRequest, one shape).
 */
public record GrantRequest(@JsonProperty(required = true) Grant grant) {
  public GrantRequest {
    Objects.requireNonNull(grant, "grant");
  }
}
