package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Who is calling, as proved by a token: the principal and the scopes the token carries. For a token
 * from an external OIDC issuer, {@code externalRoles} lists the principal roles its claims name
 * (null for Sluice's own tokens, whose roles come from the store).
 */
public record AuthenticatedPrincipal(
    String name,
    String clientId,
    List<String> scopes,
    long expiresAtMs,
    List<String> externalRoles,
    long credentialVersion) {
  public AuthenticatedPrincipal {
    requireNonNull(name, "name");
    requireNonNull(clientId, "clientId");
    scopes = List.copyOf(scopes);
    externalRoles = externalRoles == null ? null : List.copyOf(externalRoles);
  }

  /** A principal authenticated by a token Sluice issued. */
  public static AuthenticatedPrincipal internal(
      String name, String clientId, List<String> scopes, long expiresAtMs, long credentialVersion) {
    return new AuthenticatedPrincipal(name, clientId, scopes, expiresAtMs, null, credentialVersion);
  }

  /**
   * A principal authenticated by an external OIDC issuer's token, with the roles its claims name.
   */
  public static AuthenticatedPrincipal external(String name, List<String> roles, long expiresAtMs) {
    return new AuthenticatedPrincipal(name, "", List.of(), expiresAtMs, roles, 0);
  }

  /**
   * Who this is, in a form no other identity shares: an external identity never equals an internal
   * principal of the same name. What values bound to a caller (page tokens) are bound to.
   */
  public String identity() {
    return (externalRoles == null ? "principal:" : "external:") + name;
  }
}
