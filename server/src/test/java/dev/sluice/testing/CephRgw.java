package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Locale;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The private Ceph radosgw (Pacific, with STS) that {@code scripts/test-all.sh} starts through
 * {@code scripts/ceph-rgw.sh}. S3 tests fail (they do not skip) when it is not there.
 *
 * <p>What the bed offers: an RGW user "catalog" (the admin keys here) that owns the buckets and may
 * assume {@link #roleArn()}, a role whose permission policy allows {@code s3:*} on every bucket and
 * whose MaxSessionDuration is 43200; the STS minimum session duration is {@link
 * #stsMinDurationSeconds()} (1 under test-all.sh, so expiry can be observed).
 *
 * <p>Pacific quirks a test (and a vending implementation) must respect:
 *
 * <ul>
 *   <li>Session policies must be minified JSON: a space or newline arrives as {@code +} and gives
 *       400 MalformedPolicyDocument.
 *   <li>STS errors come back in S3's {@code <Error>} shape, so the SDK's {@code errorCode()} is
 *       null: assert on {@code statusCode()}.
 *   <li>S3 clients need path-style addressing and checksums only when required (the SDK's default
 *       flexible checksums give 400 XAmzContentSHA256Mismatch on PutObject); the clients built here
 *       do both.
 *   <li>The session policy is not tamper-proof (no MAC on the token) and DeleteObjects (bulk) is
 *       denied under any session policy: never assert either.
 * </ul>
 */
public final class CephRgw {
  public static final String ENDPOINT_ENV = "SLUICE_TEST_RGW_ENDPOINT";
  public static final String REGION_ENV = "SLUICE_TEST_RGW_REGION";
  public static final String ACCESS_KEY_ENV = "SLUICE_TEST_RGW_ACCESS_KEY";
  public static final String SECRET_KEY_ENV = "SLUICE_TEST_RGW_SECRET_KEY";
  public static final String ROLE_ARN_ENV = "SLUICE_TEST_RGW_ROLE_ARN";
  public static final String STS_MIN_DURATION_ENV = "SLUICE_TEST_RGW_STS_MIN_DURATION";
  public static final String ROLE_MAX_DURATION_ENV = "SLUICE_TEST_RGW_ROLE_MAX_DURATION";
  public static final String KMS_KEY_1_ENV = "SLUICE_TEST_RGW_KMS_KEY_1";
  public static final String KMS_KEY_2_ENV = "SLUICE_TEST_RGW_KMS_KEY_2";

  private static volatile CephRgw instance;

  private final String endpoint;
  private final String region;
  private final String accessKey;
  private final String secretKey;
  private final String roleArn;
  private final int stsMinDuration;
  private final int roleMaxDuration;
  private final S3Client admin;

  private CephRgw() {
    endpoint = required(ENDPOINT_ENV);
    region = required(REGION_ENV);
    accessKey = required(ACCESS_KEY_ENV);
    secretKey = required(SECRET_KEY_ENV);
    roleArn = required(ROLE_ARN_ENV);
    stsMinDuration = intEnv(STS_MIN_DURATION_ENV, 900);
    roleMaxDuration = intEnv(ROLE_MAX_DURATION_ENV, 3600);
    admin = build(AwsBasicCredentials.create(accessKey, secretKey));
  }

  /**
   * The running bed.
   *
   * @throws IllegalStateException when {@value #ENDPOINT_ENV} (or another of its variables) is not
   *     set, i.e. the tests were not started by {@code ./scripts/test-all.sh}
   */
  public static CephRgw bed() {
    CephRgw bed = instance;
    if (bed == null) {
      synchronized (CephRgw.class) {
        bed = instance;
        if (bed == null) {
          bed = new CephRgw();
          instance = bed;
        }
      }
    }
    return bed;
  }

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          name
              + " is not set: run ./scripts/test-all.sh, which installs and"
              + " starts a private Ceph radosgw with STS (scripts/ceph-rgw.sh)");
    }
    return value;
  }

  private static int intEnv(String name, int fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
  }

  /** {@code http://127.0.0.1:PORT}; path-style only. */
  public String endpoint() {
    return endpoint;
  }

  public String region() {
    return region;
  }

  /** Access key of the RGW user "catalog": owns the buckets, may assume {@link #roleArn()}. */
  public String accessKey() {
    return accessKey;
  }

  public String secretKey() {
    return secretKey;
  }

  /** {@code arn:aws:iam:::role/catalog-vend}: s3:* on every bucket, MaxSessionDuration 43200. */
  public String roleArn() {
    return roleArn;
  }

  /**
   * The id of an SSE-KMS key of RGW's {@code testing} KMS backend ({@code n}: 1 or 2), as
   * scripts/ceph-rgw.sh configures it ({@code rgw_crypt_s3_kms_encryption_keys}).
   */
  public String kmsKey(int n) {
    return required(n == 1 ? KMS_KEY_1_ENV : KMS_KEY_2_ENV);
  }

  /** RGW's {@code rgw_sts_min_session_duration} (smallest DurationSeconds accepted). */
  public int stsMinDurationSeconds() {
    return stsMinDuration;
  }

  /** The role's MaxSessionDuration (largest DurationSeconds accepted). */
  public int roleMaxDurationSeconds() {
    return roleMaxDuration;
  }

  /** A new S3 client with the admin keys; the caller closes it. */
  public S3Client adminClient() {
    return build(AwsBasicCredentials.create(accessKey, secretKey));
  }

  /** A new S3 client for (vended) credentials; {@code sessionToken} may be null. Caller closes. */
  public S3Client clientWith(String accessKey, String secret, String sessionToken) {
    return build(
        sessionToken == null
            ? AwsBasicCredentials.create(accessKey, secret)
            : AwsSessionCredentials.create(accessKey, secret, sessionToken));
  }

  /**
   * A new STS client signed with the admin keys (may AssumeRole on {@link #roleArn()}). Caller
   * closes.
   */
  public StsClient adminStsClient() {
    return StsClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create(endpoint))
        .region(Region.of(region))
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .build();
  }

  private S3Client build(AwsCredentials credentials) {
    return S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(URI.create(endpoint))
        .region(Region.of(region))
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .build();
  }

  /**
   * Creates a bucket with a unique name ({@code prefix-<12 hex>}, lowercased) owned by the admin
   * user and returns its name.
   */
  public String newBucket(String prefix) {
    String p = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    if (p.length() > 40) {
      p = p.substring(0, 40);
    }
    String name =
        (p.isEmpty() ? "b" : p)
            + "-"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    admin.createBucket(b -> b.bucket(name));
    return name;
  }

  /** PutObject; returns the HTTP status (200), or throws {@link S3Exception} (e.g. 403). */
  public static int put(S3Client s3, String bucket, String key, byte[] bytes) {
    return s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes))
        .sdkHttpResponse()
        .statusCode();
  }

  /** GetObject; returns the HTTP status (200), or throws {@link S3Exception} (e.g. 403, 404). */
  public static int get(S3Client s3, String bucket, String key) {
    return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key))
        .response()
        .sdkHttpResponse()
        .statusCode();
  }

  /** GetObject; returns the content, or throws {@link S3Exception}. */
  public static byte[] getBytes(S3Client s3, String bucket, String key) {
    return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
  }

  /** DeleteObject (single key); returns the HTTP status (204), or throws {@link S3Exception}. */
  public static int delete(S3Client s3, String bucket, String key) {
    return s3.deleteObject(b -> b.bucket(bucket).key(key)).sdkHttpResponse().statusCode();
  }

  /**
   * ListObjectsV2 with {@code prefix} (null: the whole bucket); returns the HTTP status (200), or
   * throws {@link S3Exception}.
   */
  public static int list(S3Client s3, String bucket, String prefix) {
    return s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix)).sdkHttpResponse().statusCode();
  }

  /**
   * Asserts that PutObject of {@code key} with {@code s3} (a vended or otherwise scoped credential)
   * is refused by RGW with a 403, and that the object is then as it was, asked with the bed's own
   * keys: still absent (a 404 to HEAD) or the same object. A store that answered 403 and wrote
   * anyway would pass a status check alone.
   */
  public static void assertPutRefused(S3Client s3, String bucket, String key, byte[] bytes) {
    String before = stored(bucket, key);
    assertThatThrownBy(() -> put(s3, bucket, key, bytes))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.statusCode()).as(e.getMessage()).isEqualTo(403));
    assertThat(stored(bucket, key))
        .as("s3://%s/%s after a refused PUT", bucket, key)
        .isEqualTo(before);
  }

  /**
   * What RGW holds at {@code key}, asked with the bed's own keys: {@code "absent"} (HEAD answers
   * 404), or the object's ETag and size.
   */
  public static String stored(String bucket, String key) {
    try {
      HeadObjectResponse head = bed().admin.headObject(b -> b.bucket(bucket).key(key));
      return head.eTag() + " " + head.contentLength() + " bytes";
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return "absent";
      }
      throw e;
    }
  }
}
