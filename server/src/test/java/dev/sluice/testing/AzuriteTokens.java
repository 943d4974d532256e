package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import reactor.core.publisher.Mono;

/**
 * Bearer tokens that Azurite's {@code --oauth basic} accepts, standing in for Microsoft Entra ID
 * (which cannot run here): JWTs shaped like Entra's v1 access tokens for Azure Storage.
 *
 * <p>What Azurite 3.37 checks (dist/src/blob/authentication/BlobTokenAuthenticator.js): the token
 * decodes as a JWT; {@code iat}, {@code nbf} and {@code exp} are present and now lies within [nbf,
 * exp]; {@code iss} starts with one of {@code https://sts.windows.net/}, {@code
 * https://sts.microsoftonline.de/}, {@code https://sts.chinacloudapi.cn/}, {@code
 * https://sts.windows-ppe.net} (so Entra's v2 issuer {@code
 * https://login.microsoftonline.com/<tenant>/v2.0} is refused); {@code aud} is {@code
 * https://storage.azure.com} (optional trailing slash), the storage app id {@code
 * e406a681-f3d4-42a8-90b6-c2b029497af1}, or {@code https://<account>.blob.core.windows.net} for the
 * same account. The signature is NOT checked: the HS256 signature made here with a random key is
 * decoration. {@code getUserDelegationKey} derives the key from the token's {@code oid} and {@code
 * tid}, and a user-delegation SAS without {@code skoid}/{@code sktid} is refused, so both claims
 * are always set.
 */
public final class AzuriteTokens {
  /** Azure Storage's audience, as Entra puts it in v1 tokens for the {@code .default} scope. */
  public static final String STORAGE_AUDIENCE = "https://storage.azure.com";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final String tenantId;
  private final String objectId;
  private final byte[] hmacKey = new byte[32];

  AzuriteTokens() {
    this(UUID.randomUUID().toString(), UUID.randomUUID().toString());
  }

  AzuriteTokens(String tenantId, String objectId) {
    this.tenantId = requireNonNull(tenantId, "tenantId");
    this.objectId = requireNonNull(objectId, "objectId");
    new SecureRandom().nextBytes(hmacKey);
  }

  /** The tenant ({@code tid}, and part of {@code iss}) of every token made here. */
  public String tenantId() {
    return tenantId;
  }

  /** The principal's object id ({@code oid}): the user delegation key's {@code signedOid}. */
  public String objectId() {
    return objectId;
  }

  /** Entra's v1 issuer for the tenant: {@code https://sts.windows.net/<tenant>/}. */
  public String v1Issuer() {
    return "https://sts.windows.net/" + tenantId + "/";
  }

  /** Entra's v2 issuer: {@code https://login.microsoftonline.com/<tenant>/v2.0}. */
  public String v2Issuer() {
    return "https://login.microsoftonline.com/" + tenantId + "/v2.0";
  }

  /**
   * A credential as a service principal would get from Entra: for each request a fresh token valid
   * from a minute ago for an hour, issued by {@link #v1Issuer()}, whose audience is the requested
   * scope without {@code /.default} (the SDK asks for {@code https://storage.azure.com/.default}).
   */
  public TokenCredential credential() {
    return request -> {
      Instant now = Instant.now();
      String audience = audienceOf(request);
      return Mono.just(
          accessToken(
              jwt(v1Issuer(), audience, now.minusSeconds(60), now.plus(Duration.ofHours(1))),
              now.plus(Duration.ofHours(1))));
    };
  }

  /**
   * A credential whose JWT says exactly the given claims. The {@link AccessToken} tells the SDK it
   * is valid for an hour whatever {@code exp} says, so the SDK sends it and Azurite judges it.
   */
  public TokenCredential credential(
      String issuer, String audience, Instant notBefore, Instant expiresAt) {
    String token = jwt(issuer, audience, notBefore, expiresAt);
    return request -> Mono.just(accessToken(token, Instant.now().plus(Duration.ofHours(1))));
  }

  /** A credential whose tokens expired a minute ago (valid for the hour before that). */
  public TokenCredential expiredCredential() {
    Instant now = Instant.now();
    return credential(
        v1Issuer(), STORAGE_AUDIENCE, now.minus(Duration.ofMinutes(61)), now.minusSeconds(60));
  }

  /** A compact JWT (HS256 with a random key) with the claims Azurite reads. */
  public String jwt(String issuer, String audience, Instant notBefore, Instant expiresAt) {
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("typ", "JWT");
    header.put("alg", "HS256");
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("aud", requireNonNull(audience, "audience"));
    claims.put("iss", requireNonNull(issuer, "issuer"));
    claims.put("iat", notBefore.getEpochSecond());
    claims.put("nbf", notBefore.getEpochSecond());
    claims.put("exp", expiresAt.getEpochSecond());
    claims.put("oid", objectId);
    claims.put("tid", tenantId);
    claims.put("sub", objectId);
    claims.put("ver", "1.0");
    String signingInput = encode(header) + "." + encode(claims);
    return signingInput + "." + B64.encodeToString(hmac(signingInput));
  }

  private static String audienceOf(TokenRequestContext request) {
    List<String> scopes = request.getScopes();
    if (scopes == null || scopes.isEmpty()) {
      return STORAGE_AUDIENCE;
    }
    String scope = scopes.get(0);
    return scope.endsWith("/.default")
        ? scope.substring(0, scope.length() - "/.default".length())
        : scope;
  }

  private static AccessToken accessToken(String token, Instant expiresAt) {
    return new AccessToken(token, expiresAt.atOffset(ZoneOffset.UTC));
  }

  private static String encode(Map<String, Object> json) {
    try {
      return B64.encodeToString(JSON.writeValueAsBytes(json));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JWT part " + json, e);
    }
  }

  private byte[] hmac(String signingInput) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(hmacKey, "HmacSHA256"));
      return mac.doFinal(signingInput.getBytes(UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
