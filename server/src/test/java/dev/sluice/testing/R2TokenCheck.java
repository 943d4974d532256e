package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What R2 checks of a temporary credential's session token (base64 of {@code "jwt/" + JWT}): the
 * JWT's HS256 MAC under the parent secret, its issuer (the parent key id), audience and subject
 * (the account) and its lifetime. The derived secret the request must be signed with is the hex
 * SHA-256 of the JWT.
 */
final class R2TokenCheck {
  /** How far in the future {@code iat} may lie (clock skew between minter and gateway). */
  static final long IAT_SKEW_SECONDS = 60;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PREFIX = "jwt/";

  /** The verified claims and the secret derived from the JWT. */
  record Claims(
      String bucket,
      String scope,
      List<String> prefixPaths,
      List<String> objectPaths,
      long iat,
      long exp,
      String derivedSecret) {
    boolean writable() {
      return "object-read-write".equals(scope);
    }
  }

  private final String accountId;
  private final String parentKeyId;
  private final byte[] parentSecret;
  private final Clock clock;

  R2TokenCheck(String accountId, String parentKeyId, String parentSecret, Clock clock) {
    this.accountId = requireNonNull(accountId, "accountId");
    this.parentKeyId = requireNonNull(parentKeyId, "parentKeyId");
    this.parentSecret = requireNonNull(parentSecret, "parentSecret").getBytes(UTF_8);
    this.clock = requireNonNull(clock, "clock");
  }

  /**
   * The claims of {@code sessionToken} (the {@code x-amz-security-token} header) once verified, for
   * a request sent to {@code host}: the audience must be the endpoint's host the request reached
   * (R2's account host, or a jurisdiction's), not one derived from the account.
   */
  Claims verify(String sessionToken, String host) throws R2Refusal {
    if (sessionToken == null || sessionToken.isEmpty()) {
      throw R2Refusal.accessDenied("no x-amz-security-token");
    }
    String jwt;
    try {
      jwt = new String(Base64.getDecoder().decode(sessionToken.trim()), UTF_8);
    } catch (IllegalArgumentException e) {
      throw R2Refusal.accessDenied("session token is not base64");
    }
    if (!jwt.startsWith(PREFIX)) {
      throw R2Refusal.accessDenied("session token does not start with jwt/");
    }
    jwt = jwt.substring(PREFIX.length());
    String[] parts = jwt.split("\\.", -1);
    if (parts.length != 3) {
      throw R2Refusal.accessDenied("JWT has " + parts.length + " parts, not 3");
    }
    JsonNode header = json(parts[0], "header");
    if (!"HS256".equals(header.path("alg").asText(null))) {
      throw R2Refusal.accessDenied("JWT alg is " + header.path("alg") + ", not HS256");
    }
    byte[] expected = hmacSha256(parentSecret, (parts[0] + "." + parts[1]).getBytes(UTF_8));
    if (!MessageDigest.isEqual(expected, b64url(parts[2], "signature"))) {
      throw R2Refusal.accessDenied("JWT signature does not verify under the parent secret");
    }
    JsonNode claims = json(parts[1], "claims");
    requireClaim(claims, "iss", parentKeyId);
    requireClaim(claims, "sub", accountId);
    requireClaim(claims, "aud", host);
    long now = clock.instant().getEpochSecond();
    long iat = number(claims, "iat");
    long exp = number(claims, "exp");
    if (exp <= now) {
      throw R2Refusal.expired("token expired at " + exp + " (now " + now + ")");
    }
    if (iat > now + IAT_SKEW_SECONDS) {
      throw R2Refusal.accessDenied("token issued in the future: iat " + iat + " (now " + now + ")");
    }
    String bucket = text(claims, "bucket");
    String scope = text(claims, "scope");
    JsonNode paths = claims.path("paths");
    return new Claims(
        bucket,
        scope,
        strings(paths, "prefixPaths"),
        strings(paths, "objectPaths"),
        iat,
        exp,
        HexFormat.of().formatHex(sha256(jwt.getBytes(UTF_8))));
  }

  static byte[] hmacSha256(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private static byte[] b64url(String part, String what) throws R2Refusal {
    try {
      return Base64.getUrlDecoder().decode(part);
    } catch (IllegalArgumentException e) {
      throw R2Refusal.accessDenied("JWT " + what + " is not base64url");
    }
  }

  private static JsonNode json(String part, String what) throws R2Refusal {
    try {
      JsonNode node = JSON.readTree(b64url(part, what));
      if (node == null || !node.isObject()) {
        throw R2Refusal.accessDenied("JWT " + what + " is not a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw R2Refusal.accessDenied("JWT " + what + " is not JSON");
    }
  }

  private static void requireClaim(JsonNode claims, String name, String expected) throws R2Refusal {
    String actual = text(claims, name);
    if (!expected.equals(actual)) {
      throw R2Refusal.accessDenied("claim " + name + " is " + actual + ", expected " + expected);
    }
  }

  private static String text(JsonNode claims, String name) throws R2Refusal {
    JsonNode node = claims.get(name);
    if (node == null || !node.isTextual()) {
      throw R2Refusal.accessDenied("claim " + name + " missing or not a string");
    }
    return node.asText();
  }

  private static long number(JsonNode claims, String name) throws R2Refusal {
    JsonNode node = claims.get(name);
    if (node == null || !node.canConvertToLong() || !node.isIntegralNumber()) {
      throw R2Refusal.accessDenied("claim " + name + " missing or not an integer");
    }
    return node.asLong();
  }

  private static List<String> strings(JsonNode paths, String name) throws R2Refusal {
    JsonNode node = paths.path(name);
    if (node.isMissingNode()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw R2Refusal.accessDenied("claim paths." + name + " is not an array");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isTextual()) {
        throw R2Refusal.accessDenied("claim paths." + name + " holds a non-string");
      }
      out.add(item.asText());
    }
    return List.copyOf(out);
  }
}
