package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A test-side minter of R2 temporary credentials written from the published algorithm alone
 * (independent of Sluice's minter and of the {@link R2Gateway}'s checks): claims {@code bucket,
 * scope, paths, sub, iss, aud, iat, exp} as compact JSON in that order, an HS256 JWT under the
 * parent secret, secret = hex SHA-256 of the JWT, session token = base64 of {@code "jwt/" + JWT}.
 */
public final class R2TestCredentials {
  private static final String HEADER = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";

  /** A vended triple plus the JWT it was derived from. */
  public record Credential(
      String accessKeyId, String secretAccessKey, String sessionToken, String jwt) {}

  /** The claims to sign; {@code with*} copies change one field (for negative tests). */
  public record Claims(
      String bucket,
      String scope,
      List<String> prefixPaths,
      String account,
      String issuer,
      String audience,
      long iat,
      long exp) {
    public Claims {
      requireNonNull(bucket, "bucket");
      requireNonNull(scope, "scope");
      prefixPaths = List.copyOf(prefixPaths);
      requireNonNull(account, "account");
      requireNonNull(issuer, "issuer");
      requireNonNull(audience, "audience");
    }

    /** Claims as Sluice should mint them: audience {@code <account>.r2.cloudflarestorage.com}. */
    public static Claims of(
        String account,
        String parentKeyId,
        String bucket,
        String scope,
        List<String> prefixPaths,
        long iat,
        long exp) {
      return new Claims(
          bucket,
          scope,
          prefixPaths,
          account,
          parentKeyId,
          account + ".r2.cloudflarestorage.com",
          iat,
          exp);
    }

    public Claims withBucket(String value) {
      return new Claims(value, scope, prefixPaths, account, issuer, audience, iat, exp);
    }

    public Claims withScope(String value) {
      return new Claims(bucket, value, prefixPaths, account, issuer, audience, iat, exp);
    }

    public Claims withPrefixPaths(List<String> value) {
      return new Claims(bucket, scope, value, account, issuer, audience, iat, exp);
    }

    public Claims withAudience(String value) {
      return new Claims(bucket, scope, prefixPaths, account, issuer, value, iat, exp);
    }

    public Claims withExp(long value) {
      return new Claims(bucket, scope, prefixPaths, account, issuer, audience, iat, value);
    }

    /** Compact JSON in the contract's order. */
    public String json() {
      StringBuilder paths = new StringBuilder("[");
      for (int i = 0; i < prefixPaths.size(); i++) {
        paths.append(i == 0 ? "" : ",").append(quote(prefixPaths.get(i)));
      }
      paths.append(']');
      return "{\"bucket\":"
          + quote(bucket)
          + ",\"scope\":"
          + quote(scope)
          + ",\"paths\":{\"prefixPaths\":"
          + paths
          + ",\"objectPaths\":[]}"
          + ",\"sub\":"
          + quote(account)
          + ",\"iss\":"
          + quote(issuer)
          + ",\"aud\":"
          + quote(audience)
          + ",\"iat\":"
          + iat
          + ",\"exp\":"
          + exp
          + "}";
    }
  }

  private R2TestCredentials() {}

  /** Mints a credential for {@code claims}, signing the JWT with {@code parentSecret}. */
  public static Credential mint(Claims claims, String parentSecret) {
    String signingInput =
        b64url(HEADER.getBytes(UTF_8)) + "." + b64url(claims.json().getBytes(UTF_8));
    return fromJwt(claims.issuer(), signingInput + "." + b64url(hmac(parentSecret, signingInput)));
  }

  /** The credential a holder of {@code jwt} would use (its derived secret and session token). */
  public static Credential fromJwt(String accessKeyId, String jwt) {
    return new Credential(
        accessKeyId,
        HexFormat.of().formatHex(sha256(jwt.getBytes(UTF_8))),
        Base64.getEncoder().encodeToString(("jwt/" + jwt).getBytes(UTF_8)),
        jwt);
  }

  /**
   * {@code credential}'s JWT with its claims replaced by {@code claims} but the original MAC kept
   * (a holder widening its own token), and the secret derived from that tampered JWT.
   */
  public static Credential tampered(Credential credential, Claims claims) {
    String[] parts = credential.jwt().split("\\.");
    String jwt = parts[0] + "." + b64url(claims.json().getBytes(UTF_8)) + "." + parts[2];
    return fromJwt(credential.accessKeyId(), jwt);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String b64url(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static byte[] hmac(String key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(UTF_8), "HmacSHA256"));
      return mac.doFinal(data.getBytes(UTF_8));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
