package dev.sluice.vending.s3;

import static dev.sluice.vending.s3.SessionPolicyGoldenTest.ACCESS_POINT;
import static dev.sluice.vending.s3.SessionPolicyGoldenTest.KEY_A;
import static dev.sluice.vending.s3.SessionPolicyGoldenTest.profile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The SSE-KMS and access point keys of storageConfigInfo: what is refused, naming the key. */
class KmsAndAccessPointConfigTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // alias ARNs: an IAM policy cannot name a key by them
        "'\"currentKmsKey\":\"arn:aws:kms:us-east-1:111122223333:alias/lake\"'|storageConfigInfo.currentKmsKey|alias ARN",
        // a key in another region than the bucket's
        "'\"currentKmsKey\":\"arn:aws:kms:eu-west-1:111122223333:key/abc\"'|storageConfigInfo.currentKmsKey|region eu-west-1",
        // a bare key id on AWS (no endpoint)
        "'\"currentKmsKey\":\"1234abcd-12ab\"'|storageConfigInfo.currentKmsKey|not a KMS key ARN",
        // something ARN-like that is no key ARN
        "'\"allowedKmsKeys\":[\"arn:aws:kms:us-east-1:1:key/abc\"]'|storageConfigInfo.allowedKmsKeys|not a KMS key ARN",
        "'\"allowedKmsKeys\":\"arn:aws:kms:us-east-1:111122223333:key/abc\"'|storageConfigInfo.allowedKmsKeys|array",
        "'\"allowedKmsKeys\":[7]'|storageConfigInfo.allowedKmsKeys|not a string",
        "'\"currentKmsKey\":7'|storageConfigInfo.currentKmsKey|string",
        // access points
        "'\"accessPoints\":[\"x\"]'|storageConfigInfo.accessPoints|object",
        "'\"accessPoints\":{\"other\":\"arn:aws:s3:us-east-1:111122223333:accesspoint/ap\"}'|storageConfigInfo.accessPoints|not a bucket of allowedLocations",
        "'\"accessPoints\":{\"acme-lake\":\"arn:aws:s3:::acme-lake\"}'|storageConfigInfo.accessPoints.acme-lake|not an access point ARN",
        "'\"accessPoints\":{\"acme-lake\":\"arn:aws:s3:us-east-1:111122223333:accesspoint/Bad_Name\"}'|storageConfigInfo.accessPoints.acme-lake|not an access point ARN",
        "'\"accessPoints\":{\"acme-lake\":\"arn:aws:s3:eu-west-1:111122223333:accesspoint/lake-ap\"}'|storageConfigInfo.accessPoints.acme-lake|region eu-west-1",
        "'\"accessPoints\":{\"acme-lake\":7}'|storageConfigInfo.accessPoints.acme-lake|not an access point ARN",
      })
  void aWrongValueIsRefusedNamingItsKey(String extra, String key, String why) {
    assertThatThrownBy(() -> profile("," + extra))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining(why);
  }

  @Test
  void aStoresOwnKeyIdNeedsAnEndpointAndAPlainName() throws Exception {
    assertThat(
            profile(",\"endpoint\":\"http://rgw:7480\",\"currentKmsKey\":\"testkey-1\"")
                .kms()
                .current())
        .isEqualTo("testkey-1");
    assertThatThrownBy(
            () -> profile(",\"endpoint\":\"http://rgw:7480\",\"currentKmsKey\":\"key*\""))
        .hasMessageContaining("storageConfigInfo.currentKmsKey");
    assertThatThrownBy(
            () ->
                profile(",\"endpoint\":\"http://rgw:7480\",\"currentKmsKey\":\"${aws:username}\""))
        .hasMessageContaining("storageConfigInfo.currentKmsKey");
  }

  @Test
  void theCurrentKeyIsNotRepeatedAmongTheAllowedOnes() throws Exception {
    S3StorageProfile p =
        profile(",\"currentKmsKey\":\"" + KEY_A + "\",\"allowedKmsKeys\":[\"" + KEY_A + "\"]");
    assertThat(p.kms().readable()).containsExactly(KEY_A);
  }

  /** An alias location without its access point's ARN would be scoped to a bucket of that name. */
  @Test
  void anAliasLocationNeedsItsAccessPointsArn() {
    assertThatThrownBy(() -> profile("s3://lake-ap-abc-s3alias/wh", ""))
        .hasMessageContaining("storageConfigInfo.accessPoints")
        .hasMessageContaining("access point alias");
  }

  /**
   * Remote signing reads requests to a bucket, not to an access point's host: the combination is
   * refused when the catalog is defined, naming both keys.
   */
  @Test
  void accessPointsAreRefusedWithRemoteSigningAndWithTemplates() {
    String ap = ",\"accessPoints\":{\"acme-lake\":\"" + ACCESS_POINT + "\"}";
    assertThatThrownBy(
            () -> profile(ap + ",\"delegation\":[\"vended-credentials\",\"remote-signing\"]"))
        .hasMessageContaining("storageConfigInfo.accessPoints")
        .hasMessageContaining("storageConfigInfo.delegation remote-signing");
    assertThatThrownBy(
            () ->
                profile(
                    ap
                        + ",\"readPolicyTemplate\":\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[]}\""))
        .hasMessageContaining("storageConfigInfo.accessPoints")
        .hasMessageContaining("readPolicyTemplate");
  }

  @Test
  void remoteSigningTellsEnginesToWriteWithTheKey() throws Exception {
    S3StorageProfile p =
        profile(",\"currentKmsKey\":\"" + KEY_A + "\",\"delegation\":[\"remote-signing\"]");
    assertThat(p.signingConfig("v1/lake/sign"))
        .containsEntry("s3.sse.type", "kms")
        .containsEntry("s3.sse.key", KEY_A);
  }
}
