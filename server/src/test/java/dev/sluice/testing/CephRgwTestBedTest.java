package dev.sluice.testing;

import static dev.sluice.testing.CephRgw.delete;
import static dev.sluice.testing.CephRgw.get;
import static dev.sluice.testing.CephRgw.getBytes;
import static dev.sluice.testing.CephRgw.list;
import static dev.sluice.testing.CephRgw.put;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Proves that the Ceph RGW test bed enforces what the credential-vending tests rely on: an
 * AssumeRole session policy narrows the role to one prefix of one bucket, read-only means
 * read-only, and a credential stops working when it expires.
 */
@NeedsTestBeds
class CephRgwTestBedTest {
  private static CephRgw RGW;
  private static S3Client admin;
  private static StsClient sts;

  @BeforeAll
  static void clients() {
    RGW = CephRgw.bed(); // IllegalStateException (a failure, not a skip) outside test-all.sh
    admin = RGW.adminClient();
    sts = RGW.adminStsClient();
  }

  @AfterAll
  static void close() {
    if (admin != null) {
      admin.close();
    }
    if (sts != null) {
      sts.close();
    }
  }

  /**
   * GetObject/PutObject on bucket/allowed/*, ListBucket with s3:prefix allowed/* (minified JSON).
   */
  private static String readWritePolicy(String bucket) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":["
        + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\",\"s3:PutObject\"],"
        + "\"Resource\":[\"arn:aws:s3:::"
        + bucket
        + "/allowed/*\"]},"
        + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\"arn:aws:s3:::"
        + bucket
        + "\"],"
        + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"allowed/*\"]}}}]}";
  }

  private static String readOnlyPolicy(String bucket) {
    return "{\"Version\":\"2012-10-17\",\"Statement\":["
        + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],"
        + "\"Resource\":[\"arn:aws:s3:::"
        + bucket
        + "/allowed/*\"]},"
        + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\"arn:aws:s3:::"
        + bucket
        + "\"],"
        + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"allowed/*\"]}}}]}";
  }

  private static Credentials assume(String policy, Integer durationSeconds) {
    assertThat(policy)
        .as("RGW Pacific needs minified session policies")
        .doesNotContainAnyWhitespaces();
    return sts.assumeRole(
            r ->
                r.roleArn(RGW.roleArn())
                    .roleSessionName("bed-" + UUID.randomUUID().toString().substring(0, 8))
                    .policy(policy)
                    .durationSeconds(durationSeconds))
        .credentials();
  }

  private static S3Client client(Credentials c) {
    return RGW.clientWith(c.accessKeyId(), c.secretAccessKey(), c.sessionToken());
  }

  private static void assertStatus(int status, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(S3Exception.class)
        .satisfies(
            e -> assertThat(((S3Exception) e).statusCode()).as(e.getMessage()).isEqualTo(status));
  }

  @Test
  void sessionPolicyConfinesTheCredentialToOnePrefixOfOneBucket() {
    String bucket = RGW.newBucket("bed-scoped");
    String other = RGW.newBucket("bed-other");
    put(admin, bucket, "outside/existing", "secret".getBytes(UTF_8));
    put(admin, other, "allowed/existing", "secret".getBytes(UTF_8));

    try (S3Client vended = client(assume(readWritePolicy(bucket), null))) {
      assertThat(put(vended, bucket, "allowed/a", "hello".getBytes(UTF_8))).isEqualTo(200);
      assertThat(get(vended, bucket, "allowed/a")).isEqualTo(200);
      assertThat(new String(getBytes(vended, bucket, "allowed/a"), UTF_8)).isEqualTo("hello");
      assertThat(list(vended, bucket, "allowed/")).isEqualTo(200);

      assertStatus(403, () -> put(vended, bucket, "outside/b", "x".getBytes(UTF_8)));
      assertStatus(403, () -> put(vended, bucket, "allowedx", "x".getBytes(UTF_8)));
      assertStatus(403, () -> get(vended, bucket, "outside/existing"));
      assertStatus(403, () -> put(vended, other, "allowed/b", "x".getBytes(UTF_8)));
      assertStatus(403, () -> get(vended, other, "allowed/existing"));
      assertStatus(403, () -> list(vended, bucket, null));
      assertStatus(403, () -> list(vended, bucket, "outside/"));
    }
    // The denied PUTs wrote nothing.
    assertStatus(404, () -> get(admin, bucket, "outside/b"));
    assertStatus(404, () -> get(admin, other, "allowed/b"));
  }

  @Test
  void readOnlyCredentialCannotWriteOrDelete() {
    String bucket = RGW.newBucket("bed-ro");
    put(admin, bucket, "allowed/data", "v1".getBytes(UTF_8));

    try (S3Client readOnly = client(assume(readOnlyPolicy(bucket), null))) {
      assertThat(get(readOnly, bucket, "allowed/data")).isEqualTo(200);
      assertThat(list(readOnly, bucket, "allowed/")).isEqualTo(200);
      assertStatus(403, () -> put(readOnly, bucket, "allowed/data", "v2".getBytes(UTF_8)));
      assertStatus(403, () -> put(readOnly, bucket, "allowed/new", "v2".getBytes(UTF_8)));
      assertStatus(403, () -> delete(readOnly, bucket, "allowed/data"));
    }
    assertThat(new String(getBytes(admin, bucket, "allowed/data"), UTF_8)).isEqualTo("v1");
    assertStatus(404, () -> get(admin, bucket, "allowed/new"));
  }

  @Test
  void credentialStopsWorkingWhenItExpires() throws Exception {
    assertThat(RGW.stsMinDurationSeconds())
        .as("the bed must be started with CEPH_STS_MIN_DURATION<=2 (scripts/test-all.sh does)")
        .isLessThanOrEqualTo(2);
    String bucket = RGW.newBucket("bed-expiry");
    put(admin, bucket, "allowed/data", "v1".getBytes(UTF_8));

    Instant before = Instant.now();
    Credentials c = assume(readOnlyPolicy(bucket), 2);
    assertThat(c.expiration()).isBetween(before.plusSeconds(1), Instant.now().plusSeconds(3));
    try (S3Client shortLived = client(c)) {
      assertThat(get(shortLived, bucket, "allowed/data")).isEqualTo(200);
      Duration wait = Duration.between(Instant.now(), c.expiration()).plusMillis(1200);
      Thread.sleep(Math.max(0, wait.toMillis()));
      assertStatus(403, () -> get(shortLived, bucket, "allowed/data"));
    }
  }

  @Test
  void roleAllowsTwelveHourSessionsAndNoLonger() {
    assertThat(RGW.roleMaxDurationSeconds()).isEqualTo(43200);
    String bucket = RGW.newBucket("bed-long");
    Instant before = Instant.now();
    Credentials c = assume(readOnlyPolicy(bucket), 43200);
    assertThat(c.expiration()).isAfter(before.plusSeconds(43200 - 60));

    // Out of range is 400; Pacific answers STS errors in S3's <Error> shape, so the SDK finds no
    // error code: only the status is reliable.
    assertThatThrownBy(() -> assume(readOnlyPolicy(bucket), 43201))
        .isInstanceOf(AwsServiceException.class)
        .satisfies(e -> assertThat(((AwsServiceException) e).statusCode()).isEqualTo(400));
  }

  @Test
  void sessionPolicyWithWhitespaceIsRejected() {
    // The known Pacific quirk the vending code must work around: '+' (the SDK's form encoding of a
    // space) is not decoded, so a pretty-printed policy is malformed.
    String pretty = readOnlyPolicy(RGW.newBucket("bed-ws")).replace(",", ", ");
    assertThatThrownBy(
            () ->
                sts.assumeRole(
                    r -> r.roleArn(RGW.roleArn()).roleSessionName("bed-ws").policy(pretty)))
        .isInstanceOf(AwsServiceException.class)
        .satisfies(e -> assertThat(((AwsServiceException) e).statusCode()).isEqualTo(400));
  }
}
