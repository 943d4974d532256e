package dev.sluice.vending.r2;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Cloudflare R2's temporary credential, minted locally from the parent API key with no network
 * call: an HS256 JWT whose claims are, compactly and in exactly this order, {@code bucket}, {@code
 * scope}, {@code paths}, {@code sub} (account), {@code iss} (parent key id), {@code aud} (the host
 * of the configured endpoint: {@code <account>.r2.cloudflarestorage.com}, or a jurisdiction's
 * {@code <account>.eu.r2.cloudflarestorage.com}), {@code iat}, {@code exp}. The secret access key
 * is the hex SHA-256 of the JWT string, so the serialization is part of the contract; the session
 * token is base64 of {@code "jwt/" + JWT}; the access key id is the parent's.
 */
public final class R2TokenMinter {
  private static final JsonFactory JSON = new JsonFactory();
  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  private static final String HEADER =
      URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));

  /** R2's two object scopes. */
  public enum Scope {
    READ_ONLY("object-read-only"),
    READ_WRITE("object-read-write");

    private final String claim;

    Scope(String claim) {
      this.claim = claim;
    }

    public String claim() {
      return claim;
    }
  }

  /** A minted credential; never printed. */
  public record Minted(
      String jwt, String accessKeyId, String secretAccessKey, String sessionToken) {
    @Override
    public String toString() {
      return "Minted[accessKeyId=" + accessKeyId + "]";
    }
  }

  private R2TokenMinter() {}

  /**
   * The audience R2 expects: the host of the S3 endpoint the credential is used at (a jurisdiction
   * endpoint has a host of its own), in lower case, without a port.
   */
  public static String audience(String endpoint) {
    String host = java.net.URI.create(endpoint).getHost();
    if (host == null) {
      throw new IllegalArgumentException("An R2 endpoint names a host: " + endpoint);
    }
    return host.toLowerCase(java.util.Locale.ROOT);
  }

  public static Minted mint(
      String parentKeyId,
      String parentSecret,
      String accountId,
      String audience,
      String bucket,
      Scope scope,
      List<String> prefixPaths,
      long issuedAtSeconds,
      long expiresAtSeconds) {
    return mint(
        parentKeyId,
        parentSecret,
        accountId,
        audience,
        bucket,
        scope,
        prefixPaths,
        List.of(),
        issuedAtSeconds,
        expiresAtSeconds);
  }

  /** As above, also naming exact object keys ({@code objectPaths}, a scan plan's files). */
  public static Minted mint(
      String parentKeyId,
      String parentSecret,
      String accountId,
      String audience,
      String bucket,
      Scope scope,
      List<String> prefixPaths,
      List<String> objectPaths,
      long issuedAtSeconds,
      long expiresAtSeconds) {
    requireNonNull(parentSecret, "parentSecret");
    String claims =
        claims(
            parentKeyId,
            accountId,
            audience,
            bucket,
            scope,
            prefixPaths,
            objectPaths,
            issuedAtSeconds,
            expiresAtSeconds);
    String signingInput =
        HEADER + "." + URL.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    String jwt = signingInput + "." + URL.encodeToString(hmac(parentSecret, signingInput));
    return new Minted(
        jwt,
        parentKeyId,
        HexFormat.of().formatHex(sha256(jwt)),
        Base64.getEncoder().encodeToString(("jwt/" + jwt).getBytes(StandardCharsets.UTF_8)));
  }

  /** The claims JSON, compact, in the contract's order. */
  static String claims(
      String parentKeyId,
      String accountId,
      String audience,
      String bucket,
      Scope scope,
      List<String> prefixPaths,
      List<String> objectPaths,
      long issuedAtSeconds,
      long expiresAtSeconds) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("bucket", requireNonNull(bucket, "bucket"));
      json.writeStringField("scope", scope.claim());
      json.writeObjectFieldStart("paths");
      json.writeArrayFieldStart("prefixPaths");
      for (String prefix : prefixPaths) {
        json.writeString(prefix);
      }
      json.writeEndArray();
      json.writeArrayFieldStart("objectPaths");
      for (String object : objectPaths) {
        json.writeString(object);
      }
      json.writeEndArray();
      json.writeEndObject();
      json.writeStringField("sub", requireNonNull(accountId, "accountId"));
      json.writeStringField("iss", requireNonNull(parentKeyId, "parentKeyId"));
      json.writeStringField("aud", requireNonNull(audience, "audience"));
      json.writeNumberField("iat", issuedAtSeconds);
      json.writeNumberField("exp", expiresAtSeconds);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static byte[] hmac(String key, String input) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal(input.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static byte[] sha256(String input) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
