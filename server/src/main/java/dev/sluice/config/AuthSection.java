package dev.sluice.config;

import static dev.sluice.config.Bounds.between;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.auth.VerifiedSecrets;
import java.time.Duration;

/**
 * {@code auth}: the tokens Sluice issues, how often a client secret is hashed again, the token
 * endpoint's throttle, an external identity provider ({@code oidc}, null: none), and what a token
 * exchange with an actor accepts ({@code delegation}).
 */
public record AuthSection(
    Integer tokenLifetimeSeconds,
    Integer verifiedSecretCacheSeconds,
    TokenThrottleSection tokenThrottle,
    OidcSection oidc,
    DelegationSection delegation) {

  public static final AuthSection DEFAULT = new AuthSection(null, null, null, null, null);

  public AuthSection {
    tokenLifetimeSeconds = orDefault(tokenLifetimeSeconds, 3600);
    between("auth.tokenLifetimeSeconds", tokenLifetimeSeconds, 60, 86_400);
    // 0 hashes every token request's secret.
    verifiedSecretCacheSeconds =
        orDefault(verifiedSecretCacheSeconds, (int) VerifiedSecrets.DEFAULT_TTL.toSeconds());
    between(
        "auth.verifiedSecretCacheSeconds",
        verifiedSecretCacheSeconds,
        0,
        VerifiedSecrets.MAX_TTL.toSeconds());
    tokenThrottle = orDefault(tokenThrottle, TokenThrottleSection.DEFAULT);
    delegation = orDefault(delegation, DelegationSection.DEFAULT);
  }

  public Duration tokenLifetime() {
    return Duration.ofSeconds(tokenLifetimeSeconds);
  }

  public Duration verifiedSecretTtl() {
    return Duration.ofSeconds(verifiedSecretCacheSeconds);
  }
}
