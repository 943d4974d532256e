package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import java.text.ParseException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * The decisions of a token exchange with an actor (RFC 8693): an engine principal (the actor)
 * obtains a token for the user behind a query (the subject). The token carries the user's rights,
 * through only the principal roles the actor was granted to act for (PRINCIPAL_ACT_AS), never
 * {@code service_admin}; it is not capped by the actor's own data grants, so an engine needs none.
 *
 * <p>The subject is a Sluice token, an external OIDC issuer's JWT (signature, issuer, audience and
 * expiry checked by the {@link Authenticator}), or, only when the operator allows it ({@code
 * auth.delegation.unsignedSubjects}), an unsigned JWT naming an existing principal: what Trino's
 * {@code iceberg.rest-catalog.session=USER} sends, the user as Trino authenticated it.
 */
final class Delegation {
  /** A refused exchange, in OAuth terms; the endpoint records and answers it. */
  static final class Refused extends RuntimeException {
    final String principal;
    final String reason;
    final int status;
    final String error;

    Refused(String principal, String reason, int status, String error, String description) {
      super(description, null, false, false);
      this.principal = principal;
      this.reason = reason;
      this.status = status;
      this.error = error;
    }
  }

  /** The longest principal name an unsigned subject may claim (the store's column). */
  static final int MAX_NAME = 256;

  private final Store store;
  private final Authenticator authenticator;
  private final boolean unsignedSubjects;
  private final Clock clock;

  Delegation(Store store, Authenticator authenticator, boolean unsignedSubjects, Clock clock) {
    this.store = requireNonNull(store, "store");
    this.authenticator = requireNonNull(authenticator, "authenticator");
    this.unsignedSubjects = unsignedSubjects;
    this.clock = requireNonNull(clock, "clock");
  }

  /** The engine principal of {@code actorToken}: a live Sluice principal's own token. */
  AuthenticatedPrincipal actor(String actorToken) {
    AuthenticatedPrincipal actor;
    try {
      actor = authenticator.authenticate("Bearer " + actorToken);
    } catch (NotAuthorizedException e) {
      throw new Refused(
          TokenEndpoint.UNKNOWN,
          "invalid actor token",
          401,
          "invalid_client",
          "invalid actor_token: " + e.getMessage());
    }
    if (actor.externalRoles() != null || actor.delegated()) {
      throw new Refused(
          actor.name(),
          "actor token not a principal's own",
          400,
          "invalid_request",
          "actor_token must be a token Sluice issued to the acting principal itself");
    }
    return actor;
  }

  /** The user {@code subjectToken} names, proven as its kind requires. */
  AuthenticatedPrincipal subject(String subjectToken, AuthenticatedPrincipal actor) {
    Optional<JWTClaimsSet> unsigned = unsignedClaims(subjectToken);
    AuthenticatedPrincipal user;
    if (unsigned.isPresent()) {
      user = assertedUser(unsigned.get(), actor);
    } else {
      try {
        user = authenticator.authenticate("Bearer " + subjectToken);
      } catch (NotAuthorizedException e) {
        throw new Refused(
            actor.name(),
            "invalid subject token",
            400,
            "invalid_grant",
            "invalid subject_token: " + e.getMessage());
      }
    }
    if (user.delegated()) {
      throw new Refused(
          actor.name(),
          "subject token already delegated",
          400,
          "invalid_grant",
          "subject_token is itself a delegated token: exchange the user's own token");
    }
    return user;
  }

  /**
   * The principal roles the actor's active roles were granted to act for; refused when none, before
   * anything of the subject is looked up (a principal without the grant learns nothing of others).
   */
  Set<String> targets(AuthenticatedPrincipal actor) {
    Set<String> targets =
        new TreeSet<>(
            store
                .delegations()
                .targetsOfAny(
                    RoleScopes.activate(
                        store.access().principalRolesOf(actor.name()), actor.scopes())));
    targets.remove(AuthenticatedPrincipal.SERVICE_ADMIN_ROLE);
    if (targets.isEmpty()) {
      throw new Refused(
          actor.name(),
          "actor holds no PRINCIPAL_ACT_AS",
          400,
          "unauthorized_client",
          "principal "
              + actor.name()
              + " may not act for others: none of its active principal roles holds PRINCIPAL_ACT_AS");
    }
    return targets;
  }

  /**
   * The principal roles the delegated token activates: those the user's token activates, among
   * {@code targets} (never {@code service_admin}).
   */
  List<String> roles(
      AuthenticatedPrincipal actor, Set<String> targets, AuthenticatedPrincipal user) {
    List<String> held =
        user.externalRoles() != null
            ? user.externalRoles()
            : store.access().principalRolesOf(user.name());
    List<String> kept = new ArrayList<>();
    for (String role : new TreeSet<>(RoleScopes.activate(held, user.scopes()))) {
      if (targets.contains(role)) {
        kept.add(role);
      }
    }
    if (kept.isEmpty()) {
      throw new Refused(
          actor.name(),
          "actor may not act for the subject",
          400,
          "unauthorized_client",
          "principal "
              + actor.name()
              + " may not act for "
              + user.name()
              + ": none of the user's active principal roles is one the actor may act for");
    }
    return kept;
  }

  /** The claims of an unsigned JWT ({@code alg: none}); empty for anything else. */
  private static Optional<JWTClaimsSet> unsignedClaims(String token) {
    try {
      JWT jwt = JWTParser.parse(token);
      return jwt instanceof PlainJWT plain
          ? Optional.of(plain.getJWTClaimsSet())
          : Optional.empty();
    } catch (ParseException e) {
      return Optional.empty();
    }
  }

  /** The existing principal an unsigned subject names, when the operator trusts actors to. */
  private AuthenticatedPrincipal assertedUser(JWTClaimsSet claims, AuthenticatedPrincipal actor) {
    if (!unsignedSubjects) {
      throw new Refused(
          actor.name(),
          "unsigned subject token",
          400,
          "invalid_grant",
          "subject_token is an unsigned JWT; this server takes one only with"
              + " auth.delegation.unsignedSubjects: true");
    }
    String name = claims.getSubject();
    if (name == null || name.isBlank() || name.length() > MAX_NAME) {
      throw new Refused(
          actor.name(),
          "unsigned subject token without a subject",
          400,
          "invalid_grant",
          "the unsigned subject_token names no principal in 'sub'");
    }
    if (claims.getExpirationTime() != null
        && claims.getExpirationTime().getTime() <= clock.millis()) {
      throw new Refused(
          actor.name(), "subject token expired", 400, "invalid_grant", "subject_token expired");
    }
    Optional<PrincipalRecord> record = store.access().getPrincipal(name);
    if (record.isEmpty()) {
      throw new Refused(
          actor.name(),
          "unsigned subject names no principal",
          400,
          "invalid_grant",
          "the unsigned subject_token names no principal of this server");
    }
    PrincipalRecord p = record.get();
    return AuthenticatedPrincipal.internal(
        p.name(), p.id(), p.clientId(), List.of(), 0, p.credentialVersion());
  }
}
