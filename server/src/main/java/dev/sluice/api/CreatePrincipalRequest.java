package dev.sluice.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** {@code POST /principals}. */
public record CreatePrincipalRequest(@JsonProperty(required = true) EntitySpec principal) {
  public CreatePrincipalRequest {
    Objects.requireNonNull(principal, "principal");
  }
}
