package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code POST /token}, a service-account key's token_uri: the JWT-bearer grant (RFC 7523) as
 * Google's OAuth server takes it
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest): an RS256
 * assertion signed by the key named by {@code kid} of the account named by {@code iss}, {@code aud}
 * the token URI, at most an hour between {@code iat} and {@code exp}, and a {@code scope}. Answers
 * an access token living {@link GoogleCloudFake#setSourceTokenLifetime}.
 */
final class OAuthTokenEndpoint {
  static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

  /**
   * The audience Google documents for the assertion, whatever URL the grant is posted to:
   * google-auth 1.57.0 signs this constant (OAuth2Utils.TOKEN_SERVER_URI) even when the key's
   * token_uri is elsewhere.
   */
  static final String AUDIENCE = "https://oauth2.googleapis.com/token";

  private static final Duration SKEW = Duration.ofMinutes(5);
  private static final String SHORT_LIVED =
      "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
          + " Check your iat and exp values in the JWT claim.";

  private final Accounts accounts;
  private final IssuedTokens tokens;
  private final Supplier<Duration> lifetime;

  OAuthTokenEndpoint(Accounts accounts, IssuedTokens tokens, Supplier<Duration> lifetime) {
    this.accounts = requireNonNull(accounts, "accounts");
    this.tokens = requireNonNull(tokens, "tokens");
    this.lifetime = requireNonNull(lifetime, "lifetime");
  }

  Http.Reply serve(Http.Call call) {
    if (!call.method().equals("POST")) {
      return Http.Reply.empty(405);
    }
    try {
      return grant(call.form());
    } catch (GoogleErrors.OAuth e) {
      return e.reply();
    }
  }

  private Http.Reply grant(Map<String, String> form) {
    String grantType = form.get("grant_type");
    if (!JWT_BEARER.equals(grantType)) {
      throw new GoogleErrors.OAuth(
          400, "unsupported_grant_type", "Invalid grant_type: " + grantType);
    }
    String assertion = form.get("assertion");
    if (assertion == null) {
      throw GoogleErrors.invalidRequest("Missing required parameter: assertion");
    }
    SignedJWT jwt;
    JWTClaimsSet claims;
    try {
      jwt = SignedJWT.parse(assertion);
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw GoogleErrors.invalidGrant("Invalid JWT: the assertion cannot be parsed");
    }
    if (!JWSAlgorithm.RS256.equals(jwt.getHeader().getAlgorithm())) {
      throw GoogleErrors.invalidGrant("Invalid JWT: alg must be RS256");
    }
    ServiceAccount account =
        accounts
            .find(claims.getIssuer())
            .orElseThrow(() -> GoogleErrors.invalidGrant("Invalid grant: account not found"));
    if (!account.privateKeyId().equals(jwt.getHeader().getKeyID())) {
      throw GoogleErrors.invalidGrant("Invalid JWT Signature.");
    }
    try {
      if (!jwt.verify(new RSASSAVerifier(account.publicKey()))) {
        throw GoogleErrors.invalidGrant("Invalid JWT Signature.");
      }
    } catch (JOSEException e) {
      throw GoogleErrors.invalidGrant("Invalid JWT Signature.");
    }
    if (!claims.getAudience().equals(List.of(AUDIENCE))) {
      throw GoogleErrors.invalidGrant(
          "Invalid JWT: Failed audience check. The right audience is " + AUDIENCE);
    }
    Instant now = tokens.now();
    Date iat = claims.getIssueTime();
    Date exp = claims.getExpirationTime();
    if (iat == null
        || exp == null
        || iat.toInstant().isAfter(now.plus(SKEW))
        || !exp.toInstant().isAfter(now.minus(SKEW))
        || Duration.between(iat.toInstant(), exp.toInstant()).compareTo(Duration.ofHours(1)) > 0
        || !exp.after(iat)) {
      throw GoogleErrors.invalidGrant(SHORT_LIVED);
    }
    Object scope = claims.getClaim("scope");
    Set<String> scopes =
        scope instanceof String text && !text.isBlank()
            ? Set.of(text.trim().split("\\s+"))
            : Set.of();
    if (!GcsAuthorizer.anyStorageScope(scopes)) {
      throw new GoogleErrors.OAuth(
          400, "invalid_scope", "Invalid OAuth scope or ID token audience provided.");
    }
    Duration life = lifetime.get();
    IssuedTokens.Issued issued =
        tokens.issue(account.email(), IssuedTokens.Kind.OAUTH, scopes, now.plus(life), null);
    ObjectNode body = Http.JSON.createObjectNode();
    body.put("access_token", issued.value());
    body.put("expires_in", life.toSeconds());
    body.put("token_type", "Bearer");
    return Http.Reply.json(200, body);
  }
}
