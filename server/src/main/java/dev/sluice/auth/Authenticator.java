package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Turns a bearer token into a principal on every call: Sluice's own, or an external OIDC issuer's
 * when one is configured (the token endpoint's grants are {@link TokenEndpoint}). A token of a
 * principal that no longer exists (a principal created again under its name is another: ids are
 * never reused), or was issued before its credentials were rotated, is refused. Principals are
 * cached for at most {@link #CACHE_TTL} (documented in docs/AUTHORIZATION.md), and cleared at once
 * by changes made through this replica.
 */
public final class Authenticator {
  public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

  /** How long another replica's rotation or deletion of a principal may go unseen here. */
  public static final Duration CACHE_TTL = Duration.ofSeconds(1);

  private final Store store;
  private final TokenService tokens;
  private final ExternalJwtVerifier external;
  private final Cache<String, Optional<PrincipalRecord>> principals =
      Caffeine.newBuilder().expireAfterWrite(CACHE_TTL).maximumSize(100_000).build();

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
      return AuthenticatedPrincipal.external(
          identity.principal(), identity.roles(), identity.expiresAtMs());
    }
    AuthenticatedPrincipal principal = tokens.verify(token);
    if (principal.delegated()) {
      // The engine that obtained it must still be the one it was: deleting or rotating the engine
      // principal ends every token it holds for its users.
      AuthenticatedPrincipal.Actor actor = principal.actor();
      requireLive(actor.name(), actor.principalId(), actor.credentialVersion(), "actor");
    }
    if (principal.externalRoles() == null) {
      requireLive(
          principal.name(),
          principal.effectivePrincipalId(),
          principal.credentialVersion(),
          "principal");
    }
    return principal;
  }

  /** The principal {@code name} exists, is the one with {@code id} and has not rotated since. */
  private void requireLive(String name, String id, long credentialVersion, String who) {
    PrincipalRecord record =
        principals
            .get(name, n -> store.access().getPrincipal(n))
            .orElseThrow(
                () -> new NotAuthorizedException("Not authorized: %s no longer exists", who));
    if (!record.id().equals(id)) {
      // A principal deleted and created again under the name: the token is the old one's.
      throw new NotAuthorizedException("Not authorized: %s no longer exists", who);
    }
    if (record.credentialVersion() != credentialVersion) {
      throw new NotAuthorizedException(
          "Not authorized: token issued before the %s's credentials were rotated", who);
    }
  }

  /**
   * Whether the token was issued to {@code record} itself. A token from before principals had ids
   * names none: it is taken only for a principal that existed then (its id is a legacy one).
   */
  static boolean sameIdentity(PrincipalRecord record, AuthenticatedPrincipal principal) {
    return record.id().equals(principal.effectivePrincipalId());
  }
}
