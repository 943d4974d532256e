package dev.sluice.auth;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Verifies bearer JWTs minted by an external OpenID Connect issuer (Keycloak, Entra ID, Okta, ...),
 * so callers can present the IdP's access token instead of a Sluice-issued one.
 *
 * <p>Only asymmetric signatures are accepted, with public keys taken from the issuer's JWKS
 * endpoint: an HMAC key would have to be shared with the IdP, and accepting HS* alongside RS* is
 * the classic key-confusion hole (an attacker signs with the public key as HMAC secret).
 *
 * <p>Every failure is a {@link NotAuthorizedException} with a short reason; the token itself is
 * never echoed, since it is a credential and messages end up in logs and error responses.
 */
public final class ExternalJwtVerifier {
  /** Tolerated difference between our clock and the issuer's, for {@code exp} and {@code nbf}. */
  static final long CLOCK_SKEW_MS = 30_000;

  // Short timeouts: a fetch happens on the request path, and a slow IdP must not pin request
  // threads. The cache keeps fetches rare; the refresh timeout bounds how long concurrent
  // requests wait for another thread's in-flight fetch.
  private static final int HTTP_CONNECT_TIMEOUT_MS = 2_000;
  private static final int HTTP_READ_TIMEOUT_MS = 2_000;
  private static final int JWKS_SIZE_LIMIT_BYTES = 256 * 1024;
  private static final long JWKS_CACHE_TTL_MS = 5 * 60_000;
  private static final long JWKS_CACHE_REFRESH_TIMEOUT_MS = 5_000;
  private static final long JWKS_RATE_LIMIT_INTERVAL_MS = 30_000;

  // Explicit list rather than JWSAlgorithm.Family: ES256K needs a curve the JDK no longer ships,
  // and EdDSA needs an optional dependency we do not carry.
  private static final Set<JWSAlgorithm> ALLOWED_ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512);

  /**
   * Validated settings for one external issuer.
   *
   * @param issuer the exact {@code iss} value tokens must carry ({@code auth.oidc.issuer})
   * @param audience a value the token's {@code aud} must contain ({@code auth.oidc.audience})
   * @param jwksUrl absolute http(s) URL of the issuer's JSON Web Key Set ({@code
   *     auth.oidc.jwksUrl})
   * @param principalClaim the claim holding the principal name, e.g. {@code sub} or {@code
   *     preferred_username} ({@code auth.oidc.principalClaim})
   * @param rolesClaim the claim listing role names, as a JSON array of strings or a space-separated
   *     string ({@code auth.oidc.rolesClaim}); defaults to {@code "roles"} when null or blank
   * @param roleMappings which claim values are which principal roles ({@code
   *     auth.oidc.roleMappings}); when empty, a value is the principal role of its name, except
   *     {@code service_admin}, which a claim confers only when mapped to it by name here
   */
  public record Settings(
      String issuer,
      String audience,
      String jwksUrl,
      String principalClaim,
      String rolesClaim,
      Map<String, String> roleMappings) {
    public static final String DEFAULT_ROLES_CLAIM = "roles";

    public Settings(
        String issuer, String audience, String jwksUrl, String principalClaim, String rolesClaim) {
      this(issuer, audience, jwksUrl, principalClaim, rolesClaim, Map.of());
    }

    public Settings {
      roleMappings = Map.copyOf(roleMappings == null ? Map.of() : roleMappings);
      roleMappings.forEach(
          (value, role) -> {
            if (value.isBlank() || role == null || role.isBlank()) {
              throw new IllegalArgumentException(
                  "auth.oidc.roleMappings maps non-empty claim values to principal role names");
            }
          });
      requireText("auth.oidc.issuer", issuer);
      requireText("auth.oidc.audience", audience);
      requireText("auth.oidc.jwksUrl", jwksUrl);
      requireText("auth.oidc.principalClaim", principalClaim);
      requireHttpUrl("auth.oidc.jwksUrl", jwksUrl);
      rolesClaim = rolesClaim == null || rolesClaim.isBlank() ? DEFAULT_ROLES_CLAIM : rolesClaim;
    }

    private static void requireText(String key, String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(key + " is required");
      }
    }

    private static void requireHttpUrl(String key, String value) {
      URI uri;
      try {
        uri = new URI(value);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(key + " is not a valid URL: " + value, e);
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!uri.isAbsolute()
          || !(scheme.equals("http") || scheme.equals("https"))
          || uri.getHost() == null) {
        throw new IllegalArgumentException(key + " must be an absolute http(s) URL: " + value);
      }
    }

    URL jwksUrlAsUrl() {
      try {
        return new URI(jwksUrl).toURL();
      } catch (URISyntaxException | MalformedURLException e) {
        // Unreachable after the constructor's checks; kept checked for the compiler.
        throw new IllegalArgumentException("auth.oidc.jwksUrl is not a valid URL: " + jwksUrl, e);
      }
    }
  }

  /**
   * What a verified token says.
   *
   * @param principal the principal name, from the configured principal claim
   * @param roles role names from the configured roles claim; empty if the claim is absent
   * @param expiresAtMs the token's {@code exp}, in epoch milliseconds
   */
  public record Identity(String principal, List<String> roles, long expiresAtMs) {
    public Identity {
      requireNonNull(principal, "principal");
      roles = List.copyOf(requireNonNull(roles, "roles"));
    }
  }

  private final Settings settings;
  private final Clock clock;
  private final JWSVerificationKeySelector<SecurityContext> keySelector;
  private final DefaultJWSVerifierFactory verifierFactory = new DefaultJWSVerifierFactory();

  public ExternalJwtVerifier(Settings settings, Clock clock) {
    this.settings = requireNonNull(settings, "settings");
    this.clock = requireNonNull(clock, "clock");
    // Refresh-ahead is off because it would start a non-daemon executor we have no lifecycle
    // to shut down; an expired cache is simply refetched on the next request. The rate limit
    // (nimbus lets at most two fetches through per interval) keeps a flood of unknown-kid
    // tokens from hammering the IdP: ExternalJwtVerifierTest counts the fetches.
    JWKSource<SecurityContext> keys =
        JWKSourceBuilder.<SecurityContext>create(
                settings.jwksUrlAsUrl(),
                new DefaultResourceRetriever(
                    HTTP_CONNECT_TIMEOUT_MS, HTTP_READ_TIMEOUT_MS, JWKS_SIZE_LIMIT_BYTES))
            .cache(JWKS_CACHE_TTL_MS, JWKS_CACHE_REFRESH_TIMEOUT_MS)
            .refreshAheadCache(false)
            .rateLimited(JWKS_RATE_LIMIT_INTERVAL_MS)
            .build();
    this.keySelector = new JWSVerificationKeySelector<>(ALLOWED_ALGORITHMS, keys);
  }

  /**
   * True when the token's unverified {@code iss} claim equals the configured issuer: a cheap
   * routing check to pick this verifier over Sluice's own tokens. A malformed token is false.
   */
  public boolean claimsIssuer(String token) {
    if (token == null) {
      return false;
    }
    try {
      JWTClaimsSet claims = JWTParser.parse(token).getJWTClaimsSet();
      return claims != null && settings.issuer().equals(claims.getIssuer());
    } catch (ParseException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Verifies signature and claims.
   *
   * @throws NotAuthorizedException with a short reason on any failure
   */
  public Identity verify(String token) {
    if (token == null || token.isBlank()) {
      throw new NotAuthorizedException("Missing bearer token");
    }
    SignedJWT jwt = parseSigned(token);
    verifySignature(jwt);
    JWTClaimsSet claims;
    try {
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new NotAuthorizedException("Malformed token claims");
    }
    return identityFrom(claims);
  }

  private static SignedJWT parseSigned(String token) {
    JWT parsed;
    try {
      parsed = JWTParser.parse(token);
    } catch (ParseException | RuntimeException e) {
      // The parser's message may quote parts of the token, so it is not passed on.
      throw new NotAuthorizedException("Malformed token");
    }
    if (!(parsed instanceof SignedJWT signed)) {
      // PlainJWT (alg: none) or an encrypted JWT we hold no key for.
      throw new NotAuthorizedException("Token is not signed with an accepted algorithm");
    }
    return signed;
  }

  private void verifySignature(SignedJWT jwt) {
    JWSHeader header = jwt.getHeader();
    if (!ALLOWED_ALGORITHMS.contains(header.getAlgorithm())) {
      throw new NotAuthorizedException(
          "Token signing algorithm %s is not accepted", header.getAlgorithm().getName());
    }
    List<Key> candidates;
    try {
      candidates = keySelector.selectJWSKeys(header, null);
    } catch (RateLimitReachedException e) {
      // We have keys, but a refresh for this kid was refused to protect the IdP: the kid is
      // unknown as far as we can tell right now.
      throw noMatchingKey();
    } catch (KeySourceException e) {
      throw new NotAuthorizedException(
          e, "Signing keys of issuer %s could not be fetched", settings.issuer());
    }
    if (candidates.isEmpty()) {
      throw noMatchingKey();
    }
    for (Key key : candidates) {
      try {
        JWSVerifier verifier = verifierFactory.createJWSVerifier(header, key);
        if (jwt.verify(verifier)) {
          return;
        }
      } catch (JOSEException | IllegalStateException e) {
        // Key unusable for this header (wrong type or size): try the next candidate.
      }
    }
    throw new NotAuthorizedException("Token signature is invalid");
  }

  private NotAuthorizedException noMatchingKey() {
    return new NotAuthorizedException(
        "No signing key of issuer %s matches the token", settings.issuer());
  }

  private Identity identityFrom(JWTClaimsSet claims) {
    if (!settings.issuer().equals(claims.getIssuer())) {
      throw new NotAuthorizedException("Token issuer is not %s", settings.issuer());
    }
    if (claims.getAudience() == null || !claims.getAudience().contains(settings.audience())) {
      throw new NotAuthorizedException("Token audience does not include %s", settings.audience());
    }
    long now = clock.millis();
    Date expiresAt = claims.getExpirationTime();
    if (expiresAt == null) {
      throw new NotAuthorizedException("Token has no expiry");
    }
    if (expiresAt.getTime() + CLOCK_SKEW_MS <= now) {
      throw new NotAuthorizedException("Token has expired");
    }
    Date notBefore = claims.getNotBeforeTime();
    if (notBefore != null && notBefore.getTime() - CLOCK_SKEW_MS > now) {
      throw new NotAuthorizedException("Token is not valid yet");
    }
    if (!(claims.getClaim(settings.principalClaim()) instanceof String principal)
        || principal.isBlank()) {
      throw new NotAuthorizedException(
          "Token claim %s must be a non-empty string", settings.principalClaim());
    }
    List<String> roles = mapped(roles(claims.getClaim(settings.rolesClaim())));
    return new Identity(principal, roles, expiresAt.getTime());
  }

  /**
   * The principal roles {@code claimed} values stand for: through {@code roleMappings} when the
   * operator gave one, else by name, never {@code service_admin} unless it is mapped by name (a
   * group anyone can create at the IdP must not make its members service admins).
   */
  private List<String> mapped(List<String> claimed) {
    List<String> roles = new ArrayList<>();
    for (String value : claimed) {
      String role =
          settings.roleMappings().isEmpty()
              ? (value.equals(AuthenticatedPrincipal.SERVICE_ADMIN_ROLE) ? null : value)
              : settings.roleMappings().get(value);
      if (role != null && !roles.contains(role)) {
        roles.add(role);
      }
    }
    return roles;
  }

  private List<String> roles(Object value) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof String spaceSeparated) {
      List<String> roles = new ArrayList<>();
      for (String role : spaceSeparated.trim().split("\\s+")) {
        if (!role.isEmpty()) {
          roles.add(role);
        }
      }
      return roles;
    }
    if (value instanceof List<?> list) {
      List<String> roles = new ArrayList<>(list.size());
      for (Object element : list) {
        if (!(element instanceof String role)) {
          throw badRoles();
        }
        roles.add(role);
      }
      return roles;
    }
    throw badRoles();
  }

  private NotAuthorizedException badRoles() {
    return new NotAuthorizedException(
        "Token claim %s must be an array of strings or a space-separated string",
        settings.rolesClaim());
  }
}
