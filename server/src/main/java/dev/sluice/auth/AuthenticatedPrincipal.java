package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** Who is calling, as proved by a token: the principal and the scopes the token carries. */
public record AuthenticatedPrincipal(String name, String clientId, List<String> scopes, long expiresAtMs) {
  public AuthenticatedPrincipal {
    requireNonNull(name, "name");
    requireNonNull(clientId, "clientId");
    scopes = List.copyOf(scopes);
  }
}
