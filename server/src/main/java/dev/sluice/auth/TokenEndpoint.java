package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import dev.sluice.audit.AuditLog;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditedRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * The OAuth2 token endpoint's decisions: client credentials, and token exchange (how Iceberg
 * clients refresh). A refused request is a {@link TokenRefused} and an audit event (action {@value
 * #ACTION}, denied); failed credentials count against the {@link TokenThrottle}.
 *
 * <p>An unknown client id costs the same PBKDF2 as a wrong secret, so timing does not reveal which
 * client ids exist. A secret verified recently is not hashed again while the principal's stored
 * credential is unchanged ({@link VerifiedSecrets}). Token exchange never widens: same principal,
 * same credential version, the configured lifetime, and at most the subject token's roles ({@link
 * ExchangeScopes}).
 */
public final class TokenEndpoint {
  static final String ACTION = "getToken";
  static final String UNKNOWN = "<unknown>";

  /** Longest claimed client id kept (in audit events and throttle keys); real ids are 16 chars. */
  static final int MAX_CLIENT_ID_CHARS = 256;

  private static final String JWT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";
  private static final String ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

  /**
   * One request: the decoded form, the client id and secret of an HTTP Basic header (both null
   * without one), the client's address as the throttle keys it, the request id and where the
   * request came from as audit events record it.
   */
  public record Request(
      Map<String, String> form,
      String basicClientId,
      String basicSecret,
      String sourceAddress,
      String requestId,
      AuditedRequest origin) {
    public Request {
      form = Map.copyOf(form);
      requireNonNull(sourceAddress, "sourceAddress");
      requireNonNull(requestId, "requestId");
      requireNonNull(origin, "origin");
    }

    String param(String name) {
      return form.get(name);
    }
  }

  /** An issued token and its lifetime. */
  public record Issued(String accessToken, long expiresInSeconds) {}

  private final Store store;
  private final Authenticator authenticator;
  private final TokenThrottle throttle;
  private final VerifiedSecrets secrets;
  private final AuditLog audit;
  private final Counter throttled;
  private final Delegation delegation;
  private final Clock clock;

  public TokenEndpoint(
      Store store,
      Authenticator authenticator,
      TokenThrottle throttle,
      VerifiedSecrets secrets,
      AuditLog audit,
      MeterRegistry metrics) {
    this(store, authenticator, throttle, secrets, audit, metrics, false, Clock.systemUTC());
  }

  /**
   * {@code unsignedSubjects}: whether an actor may name its user with an unsigned JWT ({@code
   * auth.delegation.unsignedSubjects}).
   */
  public TokenEndpoint(
      Store store,
      Authenticator authenticator,
      TokenThrottle throttle,
      VerifiedSecrets secrets,
      AuditLog audit,
      MeterRegistry metrics,
      boolean unsignedSubjects,
      Clock clock) {
    this.clock = requireNonNull(clock, "clock");
    this.delegation = new Delegation(store, authenticator, unsignedSubjects, clock);
    this.store = requireNonNull(store, "store");
    this.authenticator = requireNonNull(authenticator, "authenticator");
    this.throttle = requireNonNull(throttle, "throttle");
    this.secrets = requireNonNull(secrets, "secrets");
    this.audit = requireNonNull(audit, "audit");
    this.throttled =
        Counter.builder("sluice.auth.token.throttled")
            .description("Token requests refused with 429 after too many failed attempts")
            .register(requireNonNull(metrics, "metrics"));
  }

  public Issued grant(Request r) {
    String grantType = r.param("grant_type");
    if (grantType == null) {
      throw refuse(r, UNKNOWN, "no grant type", 400, "invalid_request", "missing grant_type");
    }
    return switch (grantType) {
      case "client_credentials" -> clientCredentials(r);
      case Authenticator.TOKEN_EXCHANGE -> exchange(r);
      default ->
          throw refuse(
              r,
              UNKNOWN,
              "unsupported grant type",
              400,
              "unsupported_grant_type",
              "supported: client_credentials, " + Authenticator.TOKEN_EXCHANGE);
    };
  }

  /** Records a request whose body could not be read as a form; returns what to throw. */
  public TokenRefused malformed(String requestId, AuditedRequest origin) {
    audit.record(
        new AuditEvent(
                0,
                System.currentTimeMillis(),
                UNKNOWN,
                List.of(),
                ACTION,
                null,
                "oauth: body is not form-encoded",
                false,
                requestId)
            .within(origin.answered(400, "invalid_request")));
    return new TokenRefused(
        400, "invalid_request", "the body is not form-encoded (or repeats a parameter)", 0);
  }

  private Issued clientCredentials(Request r) {
    boolean basic = r.basicClientId() != null;
    String clientId = basic ? r.basicClientId() : r.param("client_id");
    String secret = basic ? r.basicSecret() : r.param("client_secret");
    if (clientId == null || clientId.isEmpty() || secret == null) {
      throw refuse(
          r,
          clientId == null || clientId.isEmpty() ? UNKNOWN : claimed(clientId),
          "missing credentials",
          401,
          "invalid_client",
          "missing client_id or client_secret");
    }
    String claimed = claimed(clientId);
    throttleCheck(r, claimed, claimed);
    Optional<PrincipalRecord> principal = store.access().getPrincipalByClientId(clientId);
    if (!secrets.verify(clientId, secret, principal.orElse(null))) {
      throttle.failed(claimed, r.sourceAddress());
      throw refuse(
          r,
          claimed,
          principal.isPresent() ? "wrong secret" : "unknown client",
          401,
          "invalid_client",
          "unknown client or wrong secret");
    }
    PrincipalRecord p = principal.orElseThrow();
    List<String> scopes = scopes(r.param("scope"));
    checkHeld(r, p.name(), scopes);
    return issue(p.name(), p.id(), p.clientId(), scopes, p.credentialVersion());
  }

  private Issued exchange(Request r) {
    String requestedType = r.param("requested_token_type");
    if (requestedType != null && !requestedType.equals(Authenticator.ACCESS_TOKEN_TYPE)) {
      throw refuse(
          r,
          UNKNOWN,
          "unsupported requested_token_type",
          400,
          "invalid_request",
          "requested_token_type must be " + Authenticator.ACCESS_TOKEN_TYPE);
    }
    String subjectType = r.param("subject_token_type");
    if (subjectType != null
        && !subjectType.equals(Authenticator.ACCESS_TOKEN_TYPE)
        && !subjectType.equals(JWT_TOKEN_TYPE)
        && !(subjectType.equals(ID_TOKEN_TYPE) && actorToken(r))) {
      throw refuse(
          r,
          UNKNOWN,
          "unsupported subject_token_type",
          400,
          "invalid_request",
          "subject_token_type must be " + Authenticator.ACCESS_TOKEN_TYPE);
    }
    String subject = r.param("subject_token");
    if (subject == null || subject.isBlank()) {
      throw refuse(r, UNKNOWN, "no subject token", 400, "invalid_request", "missing subject_token");
    }
    if (actorToken(r)) {
      return actFor(r, subject);
    }
    throttleCheck(r, UNKNOWN, null);
    AuthenticatedPrincipal current;
    try {
      current = authenticator.authenticate("Bearer " + subject);
    } catch (NotAuthorizedException e) {
      throttle.failed(null, r.sourceAddress());
      throw refuse(
          r,
          UNKNOWN,
          "invalid subject token",
          401,
          "invalid_client",
          "invalid subject_token: " + e.getMessage());
    }
    if (current.externalRoles() != null && !current.delegated()) {
      throw refuse(
          r,
          current.name(),
          "external subject token",
          400,
          "invalid_request",
          "tokens of an external issuer are refreshed by that issuer");
    }
    requireClientOf(r, current, "subject");
    List<String> kept;
    try {
      kept = ExchangeScopes.narrow(current.scopes(), scopes(r.param("scope")));
    } catch (ExchangeScopes.Widening e) {
      throw refuse(
          r,
          current.name(),
          "scope wider than the subject token",
          400,
          "invalid_scope",
          e.getMessage());
    }
    if (current.delegated()) {
      // A refresh: same user, same actor, never past the user's own token.
      return issueDelegated(current, current.clientId(), kept, current.limitMs());
    }
    checkHeld(r, current.name(), kept);
    return issue(
        current.name(),
        current.effectivePrincipalId(),
        current.clientId(),
        kept,
        current.credentialVersion());
  }

  private static boolean actorToken(Request r) {
    return r.param("actor_token") != null || r.param("actor_token_type") != null;
  }

  /**
   * A token exchange with an actor: the actor's token for one of its users ({@link Delegation}).
   * The user may hand its OIDC ID token as well as an access token.
   */
  private Issued actFor(Request r, String subject) {
    String actorType = r.param("actor_token_type");
    String actorToken = r.param("actor_token");
    if (actorToken == null || actorToken.isBlank() || actorType == null) {
      throw refuse(
          r,
          UNKNOWN,
          "incomplete actor",
          400,
          "invalid_request",
          "actor_token and actor_token_type go together");
    }
    if (!actorType.equals(Authenticator.ACCESS_TOKEN_TYPE) && !actorType.equals(JWT_TOKEN_TYPE)) {
      throw refuse(
          r,
          UNKNOWN,
          "unsupported actor_token_type",
          400,
          "invalid_request",
          "actor_token_type must be " + Authenticator.ACCESS_TOKEN_TYPE);
    }
    throttleCheck(r, UNKNOWN, null);
    AuthenticatedPrincipal actor;
    AuthenticatedPrincipal user;
    List<String> roles;
    try {
      actor = delegation.actor(actorToken);
      Set<String> targets = delegation.targets(actor);
      user = delegation.subject(subject, actor);
      roles = delegation.roles(actor, targets, user);
    } catch (Delegation.Refused e) {
      if (e.status == 401) {
        throttle.failed(null, r.sourceAddress());
      }
      throw refuse(r, e.principal, e.reason, e.status, e.error, e.getMessage());
    }
    requireClientOf(r, actor, "actor");
    List<String> scopes = new ArrayList<>();
    roles.forEach(role -> scopes.add(RoleScopes.PREFIX + role));
    List<String> kept;
    try {
      kept = ExchangeScopes.narrow(scopes, scopes(r.param("scope")));
    } catch (ExchangeScopes.Widening e) {
      throw refuse(
          r, actor.name(), "scope wider than the delegation", 400, "invalid_scope", e.getMessage());
    }
    // The user's own token bounds the delegated one's life; an unsigned subject has no expiry.
    long limit = user.expiresAtMs();
    AuthenticatedPrincipal delegated =
        user.actedForBy(
            new AuthenticatedPrincipal.Actor(
                actor.name(), actor.effectivePrincipalId(), actor.credentialVersion()),
            limit);
    Issued issued = issueDelegated(delegated, actor.clientId(), kept, limit);
    audit.record(
        new AuditEvent(
                0,
                clock.millis(),
                user.name(),
                RoleScopes.activate(roles, kept),
                ACTION,
                null,
                "oauth " + Authenticator.TOKEN_EXCHANGE + ": acted for by " + actor.name(),
                true,
                r.requestId())
            .withIdentity(user.identity())
            .withActor(actor.name())
            .within(r.origin().answered(200, null)));
    return issued;
  }

  /**
   * A client id in the request (form or Basic) must be that of the {@code which} token's client.
   */
  private void requireClientOf(Request r, AuthenticatedPrincipal holder, String which) {
    String clientId = r.basicClientId() != null ? r.basicClientId() : r.param("client_id");
    if (clientId != null && !clientId.equals(holder.clientId())) {
      throw refuse(
          r,
          holder.name(),
          "client_id is not the " + which + " token's",
          400,
          "invalid_request",
          "client_id does not match the " + which + " token");
    }
  }

  private Issued issueDelegated(
      AuthenticatedPrincipal delegated, String clientId, List<String> scopes, long limit) {
    TokenService tokens = authenticator.tokens();
    long expiresAt = clock.millis() + tokens.lifetime().toMillis();
    if (limit > 0) {
      expiresAt = Math.min(expiresAt, limit);
    }
    long seconds = Math.max(0, (expiresAt - clock.millis()) / 1000);
    if (seconds == 0) {
      throw new TokenRefused(400, "invalid_grant", "the user's token has expired", 0);
    }
    return new Issued(tokens.issueDelegated(delegated, clientId, scopes, expiresAt), seconds);
  }

  private Issued issue(
      String principal,
      String principalId,
      String clientId,
      List<String> scopes,
      long credentialVersion) {
    TokenService tokens = authenticator.tokens();
    return new Issued(
        tokens.issue(principal, principalId, clientId, scopes, credentialVersion),
        tokens.lifetime().toSeconds());
  }

  private void throttleCheck(Request r, String auditPrincipal, String clientKey) {
    OptionalLong wait = throttle.check(clientKey, r.sourceAddress());
    if (wait.isPresent()) {
      throttled.increment();
      throw refuse(
          r,
          auditPrincipal,
          "throttled",
          429,
          "slow_down",
          "too many failed token requests for this client or address; retry after "
              + wait.getAsLong()
              + " s",
          wait.getAsLong());
    }
  }

  /** A token may only ask for principal roles its principal holds. */
  private void checkHeld(Request r, String principal, List<String> scopes) {
    Set<String> requested = RoleScopes.requested(scopes);
    if (requested.isEmpty()) {
      return;
    }
    Set<String> missing = new TreeSet<>(requested);
    missing.removeAll(store.access().principalRolesOf(principal));
    if (!missing.isEmpty()) {
      throw refuse(
          r,
          principal,
          "principal role not held",
          400,
          "invalid_scope",
          "principal "
              + principal
              + " does not hold principal role(s) "
              + String.join(", ", missing));
    }
  }

  private TokenRefused refuse(
      Request r, String principal, String reason, int status, String error, String description) {
    return refuse(r, principal, reason, status, error, description, 0);
  }

  /**
   * Records the refusal (the securable names the grant and the reason; never a secret or a token)
   * and returns what to throw.
   */
  private TokenRefused refuse(
      Request r,
      String principal,
      String reason,
      int status,
      String error,
      String description,
      long retryAfter) {
    String grant =
        r.param("grant_type") == null ? "oauth" : "oauth " + truncate(r.param("grant_type"), 128);
    audit.record(
        new AuditEvent(
                0,
                System.currentTimeMillis(),
                principal,
                List.of(),
                ACTION,
                null,
                grant + ": " + reason,
                false,
                r.requestId())
            .within(r.origin().answered(status, error)));
    return new TokenRefused(status, error, description, retryAfter);
  }

  static String claimed(String clientId) {
    return truncate(clientId, MAX_CLIENT_ID_CHARS);
  }

  private static String truncate(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    return s.substring(0, Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max);
  }

  private static List<String> scopes(String scope) {
    return scope == null || scope.isBlank() ? List.of() : List.of(scope.trim().split("\\s+"));
  }
}
