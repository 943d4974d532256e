package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The Ceph RGW bed for the Comet tests: a fresh bucket seen with the bed's admin keys (what the
 * test checks and sets up the store with, never what Spark uses), and RGW's log, whose access lines
 * name each request's user agent. Uses the AWS SDK that hadoop-aws brings (2.29), so not e2e's
 * RgwTestBucket, which needs a newer one.
 */
final class CometTestBed implements AutoCloseable {
  static final List<String> RGW_ENV =
      List.of(
          "SLUICE_TEST_RGW_ENDPOINT",
          "SLUICE_TEST_RGW_REGION",
          "SLUICE_TEST_RGW_ACCESS_KEY",
          "SLUICE_TEST_RGW_SECRET_KEY",
          "SLUICE_TEST_RGW_ROLE_ARN",
          "SLUICE_TEST_RGW_CEPH_CONF");

  /** Where the AWS default chains would find keys; any of them would void the test. */
  static final List<String> AMBIENT_AWS_ENV =
      List.of(
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "AWS_SESSION_TOKEN",
          "AWS_PROFILE",
          "AWS_WEB_IDENTITY_TOKEN_FILE",
          "AWS_ROLE_ARN",
          "AWS_CONTAINER_CREDENTIALS_FULL_URI",
          "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
          "AWS_ENDPOINT_URL",
          "AWS_ENDPOINT_URL_S3");

  /**
   * The Sluice server's configuration on this bed: the RGW credential source {@code rgw} (the bed's
   * admin keys, which only the server holds), and credentials from 1 s on.
   */
  static final String SERVER_CONFIG =
      """
      storage:
        vendingMinDurationSeconds: 1
        credentialSources:
          rgw:
            type: static
            accessKeyId: ${SLUICE_TEST_RGW_ACCESS_KEY}
            secretAccessKey: ${SLUICE_TEST_RGW_SECRET_KEY}
      """;

  private final Map<String, String> env;
  private final S3Client admin;
  private final String bucket;
  private final RgwAccessLog rgwLog;

  private CometTestBed(
      Map<String, String> env, S3Client admin, String bucket, RgwAccessLog rgwLog) {
    this.env = env;
    this.admin = admin;
    this.bucket = bucket;
    this.rgwLog = rgwLog;
  }

  /**
   * The bed's variables; fails (never skips) {@code testName} when one is missing or when ambient
   * AWS credentials are set, or when RGW's log is not where the bed's ceph.conf puts it.
   */
  static Map<String, String> environment(String testName) {
    Map<String, String> rgw = new LinkedHashMap<>();
    List<String> missing = new ArrayList<>();
    for (String variable : RGW_ENV) {
      String value = System.getenv(variable);
      if (value == null || value.isBlank()) {
        missing.add(variable);
      } else {
        rgw.put(variable, value);
      }
    }
    if (!missing.isEmpty()) {
      fail(
          "%s needs a Ceph RGW with STS, described by the environment variables %s (missing: %s). "
              + "Run the tests with ./scripts/test-all.sh, which starts one and exports them.",
          testName, RGW_ENV, missing);
    }
    List<String> ambient = AMBIENT_AWS_ENV.stream().filter(n -> System.getenv(n) != null).toList();
    if (!ambient.isEmpty()) {
      fail(
          "The environment sets %s: an AWS SDK could use them instead of vended credentials, so "
              + "%s could not prove anything. Unset them.",
          ambient, testName);
    }
    return rgw;
  }

  /** Creates {@code <prefix>-<8 hex>} with the admin keys and finds RGW's log. */
  static CometTestBed create(Map<String, String> env, String prefix) {
    RgwAccessLog log = RgwAccessLog.ofBed();
    S3Client admin =
        S3Client.builder()
            .endpointOverride(URI.create(env.get("SLUICE_TEST_RGW_ENDPOINT")))
            .region(Region.of(env.get("SLUICE_TEST_RGW_REGION")))
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(
                        env.get("SLUICE_TEST_RGW_ACCESS_KEY"),
                        env.get("SLUICE_TEST_RGW_SECRET_KEY"))))
            .forcePathStyle(true)
            .build();
    String name = prefix + "-" + ProcessSupport.randomHex(4);
    try {
      admin.createBucket(b -> b.bucket(name));
    } catch (RuntimeException e) {
      admin.close();
      throw e;
    }
    return new CometTestBed(env, admin, name, log);
  }

  /** A client of the bed's RGW with a session credential (a vended one, to try it). */
  S3Client client(String accessKeyId, String secretAccessKey, String sessionToken) {
    return S3Client.builder()
        .endpointOverride(URI.create(env.get("SLUICE_TEST_RGW_ENDPOINT")))
        .region(Region.of(env.get("SLUICE_TEST_RGW_REGION")))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken)))
        .build();
  }

  String bucket() {
    return bucket;
  }

  String env(String name) {
    return env.get(name);
  }

  /** The bed's {@code SLUICE_TEST_RGW_*} variables. */
  Map<String, String> rgw() {
    return env;
  }

  /**
   * Lets anyone list the bucket (and nothing else): Spark's file listing runs on Hadoop S3A, which
   * gets no key at all in these tests, while every object read must carry a vended credential.
   */
  void allowAnonymousListing() {
    String policy =
        """
        {"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":["*"]},
         "Action":["s3:ListBucket"],"Resource":["arn:aws:s3:::%s"]}]}"""
            .formatted(bucket);
    admin.putBucketPolicy(b -> b.bucket(bucket).policy(policy));
  }

  /** Writes {@code bytes} at {@code key} with the admin keys (setup only). */
  void put(String key, byte[] bytes) {
    admin.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
  }

  /** The keys under {@code prefix}, sorted. */
  List<String> keys(String prefix) {
    return objects(prefix).stream().map(S3Object::key).sorted().toList();
  }

  private List<S3Object> objects(String prefix) {
    return admin.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
        .toList();
  }

  /** The size of RGW's log now: pass it to {@link #rgwAccessLinesSince}. */
  long rgwLogMark() {
    return rgwLog.mark();
  }

  /** RGW's access lines about this bed's bucket written since {@code mark}. */
  List<String> rgwAccessLinesSince(long mark) {
    return rgwLog.linesSince(mark, bucket);
  }

  /** Empties and deletes the bucket; a failure is reported, not thrown (cleanup only). */
  @Override
  public void close() {
    try {
      List<S3Object> objects = objects("");
      for (int i = 0; i < objects.size(); i += 1000) {
        List<ObjectIdentifier> ids =
            objects.subList(i, Math.min(objects.size(), i + 1000)).stream()
                .map(o -> ObjectIdentifier.builder().key(o.key()).build())
                .toList();
        admin.deleteObjects(d -> d.bucket(bucket).delete(Delete.builder().objects(ids).build()));
      }
      admin.deleteBucket(b -> b.bucket(bucket));
    } catch (RuntimeException e) {
      System.err.println("could not remove the test bucket " + bucket + ": " + e);
    } finally {
      admin.close();
    }
  }
}
