package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.R2TestCredentials.Claims;
import dev.sluice.testing.R2TestCredentials.Credential;
import java.io.IOException;
import java.net.URI;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An {@link R2Gateway} in front of a fresh bucket of the Ceph RGW bed, with a random parent API
 * key, and what R2 tests share: minting (test-side), S3 clients through the gateway, the store as
 * the admin sees it, and refusal assertions.
 */
public final class R2GatewayBed implements AutoCloseable {
  /** A Cloudflare account id (32 hex), fixed for the tests. */
  public static final String ACCOUNT = "0123456789abcdef0123456789abcdef";

  public static final String READ_ONLY = R2TokenScope.READ_ONLY;
  public static final String READ_WRITE = R2TokenScope.READ_WRITE;

  private final CephRgw rgw;
  private final S3Client admin;
  private final String bucket;
  private final String parentKeyId;
  private final String parentSecret;
  private final R2Gateway gateway;

  private R2GatewayBed(CephRgw rgw, String bucketPrefix) throws IOException {
    this.rgw = rgw;
    this.admin = rgw.adminClient();
    this.bucket = rgw.newBucket(bucketPrefix);
    this.parentKeyId = randomHex(16);
    this.parentSecret = randomHex(32);
    this.gateway = R2Gateway.start(ACCOUNT, parentKeyId, parentSecret, rgw);
  }

  /** Fails (IllegalStateException, not a skip) when the RGW bed is not there. */
  public static R2GatewayBed start(String bucketPrefix) throws IOException {
    return new R2GatewayBed(CephRgw.bed(), bucketPrefix);
  }

  public CephRgw rgw() {
    return rgw;
  }

  public R2Gateway gateway() {
    return gateway;
  }

  public String bucket() {
    return bucket;
  }

  /** The parent API key's access key id (what R2 calls the token id; the JWT's {@code iss}). */
  public String parentKeyId() {
    return parentKeyId;
  }

  /** The parent API key's secret (the JWT's HMAC key). */
  public String parentSecret() {
    return parentSecret;
  }

  /** The admin S3 client on the RGW bed (owned by the bed). */
  public S3Client admin() {
    return admin;
  }

  public static String randomHex(int bytes) {
    byte[] b = new byte[bytes];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The audience of a token used at the gateway: its endpoint's host, as R2 reads it. */
  public static final String AUDIENCE = "127.0.0.1";

  public static long nowSeconds() {
    return System.currentTimeMillis() / 1000;
  }

  /** Claims for this bed's bucket and parent key, issued now, living 900 seconds. */
  public Claims claims(String scope, List<String> prefixPaths) {
    long now = nowSeconds();
    return Claims.of(ACCOUNT, parentKeyId, bucket, scope, prefixPaths, now, now + 900)
        .withAudience(AUDIENCE);
  }

  /** A credential minted test-side under the real parent secret. */
  public Credential mint(String scope, List<String> prefixPaths) {
    return R2TestCredentials.mint(claims(scope, prefixPaths), parentSecret);
  }

  /** A plain S3 client holding only {@code c}, through the gateway, checksums when required. */
  public S3Client client(Credential c) {
    return client(
        c.accessKeyId(),
        c.secretAccessKey(),
        c.sessionToken(),
        RequestChecksumCalculation.WHEN_REQUIRED);
  }

  /** An S3 client holding the parent key itself (no session token), as the catalog's own I/O. */
  public S3Client parentClient() {
    return client(parentKeyId, parentSecret, null, RequestChecksumCalculation.WHEN_REQUIRED);
  }

  /**
   * A plain S3 client (path-style, region auto, never retrying) through the gateway; {@code
   * sessionToken} may be null.
   */
  public S3Client client(
      String accessKeyId,
      String secret,
      String sessionToken,
      RequestChecksumCalculation checksums) {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create(gateway.endpoint()))
        .region(Region.of("auto"))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                sessionToken == null
                    ? AwsBasicCredentials.create(accessKeyId, secret)
                    : AwsSessionCredentials.create(accessKeyId, secret, sessionToken)))
        .requestChecksumCalculation(checksums)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
        .build();
  }

  /** Writes {@code key} in the bed's bucket with the admin keys. */
  public void adminPut(String key, byte[] content) {
    CephRgw.put(admin, bucket, key, content);
  }

  /** The object's bytes read with the admin keys, or null when it does not exist. */
  public byte[] adminGet(String key) {
    try {
      return CephRgw.getBytes(admin, bucket, key);
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return null;
      }
      throw e;
    }
  }

  /** {@code call} fails with a 403 S3 error {@code code} that the gateway itself answered. */
  public void assertRefused(ThrowingCallable call, String code) {
    long before = gateway.refusals();
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.statusCode()).as(e.getMessage()).isEqualTo(403);
              assertThat(e.awsErrorDetails().errorCode()).as(e.getMessage()).isEqualTo(code);
            });
    assertThat(gateway.refusals()).as("refused by the gateway, once").isEqualTo(before + 1);
  }

  @Override
  public void close() {
    gateway.close();
    admin.close();
  }
}
