package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.PrincipalRecord;
import java.util.List;

/**
 * Who is calling, as proved by a token: the principal and the scopes the token carries. For a token
 * from an external OIDC issuer, {@code externalRoles} lists the principal roles its claims name
 * (null for Sluice's own tokens, whose roles come from the store). {@code principalId} is the id of
 * the principal a Sluice token was issued to (null for external identities, and for tokens issued
 * before principals had ids).
 *
 * <p>A delegated token (token exchange with an actor, RFC 8693) names the user here and the engine
 * principal that obtained it in {@code actor}; {@code limitMs} is the expiry of the user's token it
 * was obtained with (0: none), which no refresh goes past. Both are null / 0 otherwise.
 */
public record AuthenticatedPrincipal(
    String name,
    String clientId,
    List<String> scopes,
    long expiresAtMs,
    List<String> externalRoles,
    long credentialVersion,
    String principalId,
    Actor actor,
    long limitMs) {
  /** The engine principal a delegated token was issued to, as it was then. */
  public record Actor(String name, String principalId, long credentialVersion) {
    public Actor {
      requireNonNull(name, "name");
      requireNonNull(principalId, "principalId");
    }
  }

  /**
   * The principal role that administers the service. An external identity gets it only through an
   * explicit role mapping ({@link ExternalJwtVerifier}).
   */
  public static final String SERVICE_ADMIN_ROLE = "service_admin";

  public AuthenticatedPrincipal {
    requireNonNull(name, "name");
    requireNonNull(clientId, "clientId");
    scopes = List.copyOf(scopes);
    externalRoles = externalRoles == null ? null : List.copyOf(externalRoles);
  }

  /** A principal authenticated by a token Sluice issued. */
  public static AuthenticatedPrincipal internal(
      String name,
      String principalId,
      String clientId,
      List<String> scopes,
      long expiresAtMs,
      long credentialVersion) {
    return new AuthenticatedPrincipal(
        name, clientId, scopes, expiresAtMs, null, credentialVersion, principalId, null, 0);
  }

  /** This principal as named by a delegated token obtained by {@code by}. */
  public AuthenticatedPrincipal actedForBy(Actor by, long limit) {
    return new AuthenticatedPrincipal(
        name,
        clientId,
        scopes,
        expiresAtMs,
        externalRoles,
        credentialVersion,
        principalId,
        requireNonNull(by, "by"),
        limit);
  }

  /** True when a delegated token stands for this principal. */
  public boolean delegated() {
    return actor != null;
  }

  /**
   * A principal authenticated by an external OIDC issuer's token, with the roles its claims name.
   */
  public static AuthenticatedPrincipal external(String name, List<String> roles, long expiresAtMs) {
    return new AuthenticatedPrincipal(name, "", List.of(), expiresAtMs, roles, 0, null, null, 0);
  }

  /**
   * Who this is, in a form no other identity shares: a principal by its id, which is never reused,
   * and an external identity apart from every principal (whatever its name). What is bound to a
   * caller (page tokens, Idempotency-Key records, audit events) is bound to this.
   */
  public String identity() {
    return externalRoles != null ? "external:" + name : "principal:" + effectivePrincipalId();
  }

  /**
   * The principal's id; for a token from before ids, the id its principal got then (the {@link
   * Authenticator} takes such a token for that principal only).
   */
  public String effectivePrincipalId() {
    return principalId != null ? principalId : PrincipalRecord.LEGACY_ID_PREFIX + name;
  }
}
