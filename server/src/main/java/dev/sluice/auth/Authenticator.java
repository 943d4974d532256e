package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.authz.RoleScopes;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Turns credentials into a principal: client id + secret at the token endpoint, bearer tokens
 * on every other call (Sluice's own, or an external OIDC issuer's when one is configured). A
 * token of a principal that no longer exists, or was issued before its credentials were
 * rotated, is refused. Principals are cached for at most one second, and cleared at once by
 * changes made through this replica.
 */
public final class Authenticator {
  public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

  private final Store store;
  private final TokenService tokens;
  private final ExternalJwtVerifier external;
  private final Cache<String, Optional<PrincipalRecord>> principals =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).maximumSize(100_000).build();

  /** {@code external} is null when no OIDC issuer is configured. */
  public Authenticator(Store store, TokenService tokens, ExternalJwtVerifier external) {
    this.store = requireNonNull(store, "store");
    this.tokens = requireNonNull(tokens, "tokens");
    this.external = external;
  }

  public TokenService tokens() {
    return tokens;
  }

  public void invalidate() {
    principals.invalidateAll();
  }

  /** Verifies an {@code Authorization} header value. */
  public AuthenticatedPrincipal authenticate(String authorizationHeader) {
    if (authorizationHeader == null || authorizationHeader.isBlank()) {
      throw new NotAuthorizedException("Not authorized: missing bearer token");
    }
    if (!authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new NotAuthorizedException("Not authorized: expected a bearer token");
    }
    String token = authorizationHeader.substring(7).trim();
    if (external != null && !TokenService.issuedHere(token) && external.claimsIssuer(token)) {
      ExternalJwtVerifier.Identity identity = external.verify(token);
      return AuthenticatedPrincipal.external(identity.principal(), identity.roles(), identity.expiresAtMs());
    }
    AuthenticatedPrincipal principal = tokens.verify(token);
    PrincipalRecord record =
        principals.get(principal.name(), name -> store.access().getPrincipal(name))
            .orElseThrow(() -> new NotAuthorizedException("Not authorized: principal no longer exists"));
    if (record.credentialVersion() != principal.credentialVersion()) {
      throw new NotAuthorizedException("Not authorized: token issued before the principal's credentials were rotated");
    }
    return principal;
  }

  /**
   * The OAuth2 token endpoint's decision. {@code form} is the decoded form body;
   * {@code basicAuth} the client id and secret from an HTTP Basic header, if any.
   */
  public String grant(Map<String, String> form, Optional<String[]> basicAuth) {
    String grantType = form.get("grant_type");
    if (grantType == null) {
      throw new BadRequestException("invalid_request: missing grant_type");
    }
    List<String> scopes = scopes(form.get("scope"));
    switch (grantType) {
      case "client_credentials" -> {
        String clientId = basicAuth.map(b -> b[0]).orElse(form.get("client_id"));
        String secret = basicAuth.map(b -> b[1]).orElse(form.get("client_secret"));
        if (clientId == null || secret == null) {
          throw new NotAuthorizedException("invalid_client: missing client_id or client_secret");
        }
        PrincipalRecord principal =
            store
                .access()
                .getPrincipalByClientId(clientId)
                .filter(p -> SecretHasher.verify(secret, p.secretHash()))
                .orElseThrow(() -> new NotAuthorizedException("invalid_client: unknown client or wrong secret"));
        checkScopes(principal.name(), scopes);
        return tokens.issue(principal.name(), principal.clientId(), scopes, principal.credentialVersion());
      }
      case TOKEN_EXCHANGE -> {
        // Iceberg clients refresh their token by exchanging the current one for a new one.
        String subject = form.get("subject_token");
        if (subject == null) {
          throw new BadRequestException("invalid_request: missing subject_token");
        }
        AuthenticatedPrincipal current = authenticate("Bearer " + subject);
        if (current.externalRoles() != null) {
          throw new BadRequestException("invalid_request: tokens of an external issuer are refreshed by that issuer");
        }
        List<String> kept = form.get("scope") == null ? current.scopes() : scopes;
        checkScopes(current.name(), kept);
        return tokens.issue(current.name(), current.clientId(), kept, current.credentialVersion());
      }
      default -> throw new BadRequestException("unsupported_grant_type: %s", grantType);
    }
  }

  /** A token may only ask for principal roles its principal holds. */
  private void checkScopes(String principal, List<String> scopes) {
    Set<String> requested = RoleScopes.requested(scopes);
    if (requested.isEmpty()) {
      return;
    }
    List<String> held = store.access().principalRolesOf(principal);
    for (String role : requested) {
      if (!held.contains(role)) {
        throw new BadRequestException("invalid_scope: principal %s does not hold principal role %s", principal, role);
      }
    }
  }

  private static List<String> scopes(String scope) {
    return scope == null || scope.isBlank() ? List.of() : List.of(scope.trim().split("\\s+"));
  }
}
