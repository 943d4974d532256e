package dev.sluice.config;

import static dev.sluice.config.Bounds.checked;

import dev.sluice.auth.ExternalJwtVerifier;
import java.util.Map;

/**
 * {@code auth.oidc}: an external identity provider whose JWTs are accepted as bearer tokens; {@code
 * roleMappings} maps a claim value to a principal role. The checks are {@link
 * ExternalJwtVerifier.Settings}'.
 */
public record OidcSection(
    String issuer,
    String audience,
    String jwksUrl,
    String principalClaim,
    String rolesClaim,
    Map<String, String> roleMappings) {

  public OidcSection {
    if (roleMappings == null) {
      roleMappings = Map.of();
    }
    roleMappings.forEach(
        (value, role) -> {
          if (role == null) {
            throw new ConfigException(
                "auth.oidc.roleMappings." + value + " must name a principal role");
          }
        });
    roleMappings = Map.copyOf(roleMappings);
    settingsOf(issuer, audience, jwksUrl, principalClaim, rolesClaim, roleMappings);
  }

  /** The verifier's settings ({@code rolesClaim} defaults there). */
  public ExternalJwtVerifier.Settings settings() {
    return settingsOf(issuer, audience, jwksUrl, principalClaim, rolesClaim, roleMappings);
  }

  private static ExternalJwtVerifier.Settings settingsOf(
      String issuer,
      String audience,
      String jwksUrl,
      String principalClaim,
      String rolesClaim,
      Map<String, String> roleMappings) {
    return checked(
        () ->
            new ExternalJwtVerifier.Settings(
                issuer, audience, jwksUrl, principalClaim, rolesClaim, roleMappings));
  }
}
