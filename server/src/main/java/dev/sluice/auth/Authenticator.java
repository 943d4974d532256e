package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Turns credentials into a principal: client id + secret at the token endpoint, bearer tokens
 * on every other call. A token of a principal that no longer exists is refused.
 */
public final class Authenticator {
  public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

  private final Store store;
  private final TokenService tokens;

  public Authenticator(Store store, TokenService tokens) {
    this.store = requireNonNull(store, "store");
    this.tokens = requireNonNull(tokens, "tokens");
  }

  public TokenService tokens() {
    return tokens;
  }

  /** Verifies an {@code Authorization} header value. */
  public AuthenticatedPrincipal authenticate(String authorizationHeader) {
    if (authorizationHeader == null || authorizationHeader.isBlank()) {
      throw new NotAuthorizedException("Not authorized: missing bearer token");
    }
    if (!authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new NotAuthorizedException("Not authorized: expected a bearer token");
    }
    AuthenticatedPrincipal principal = tokens.verify(authorizationHeader.substring(7).trim());
    if (store.getPrincipal(principal.name()).isEmpty()) {
      throw new NotAuthorizedException("Not authorized: principal no longer exists");
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
                .getPrincipalByClientId(clientId)
                .filter(p -> SecretHasher.verify(secret, p.secretHash()))
                .orElseThrow(() -> new NotAuthorizedException("invalid_client: unknown client or wrong secret"));
        return tokens.issue(principal.name(), principal.clientId(), scopes);
      }
      case TOKEN_EXCHANGE -> {
        // Iceberg clients refresh their token by exchanging the current one for a new one.
        String subject = form.get("subject_token");
        if (subject == null) {
          throw new BadRequestException("invalid_request: missing subject_token");
        }
        AuthenticatedPrincipal current = authenticate("Bearer " + subject);
        List<String> kept = form.get("scope") == null ? current.scopes() : scopes;
        return tokens.issue(current.name(), current.clientId(), kept);
      }
      default -> throw new BadRequestException("unsupported_grant_type: %s", grantType);
    }
  }

  private static List<String> scopes(String scope) {
    return scope == null || scope.isBlank() ? List.of() : List.of(scope.trim().split("\\s+"));
  }
}
