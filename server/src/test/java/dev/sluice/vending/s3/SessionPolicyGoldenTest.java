package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.StandardBackends;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.CredentialSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The session policies of SSE-KMS and access-point catalogs, exactly (goldens), each checked
 * against AWS's documented policy grammar ({@link AwsPolicyGrammar}): action names, resource ARNs
 * and condition keys as the Service Authorization Reference gives them for S3 and KMS, and the
 * 2,048 characters STS allows a session policy. Ceph RGW cannot show these: its STS refuses every
 * {@code kms:} statement (MalformedPolicyDocument, measured in {@code S3KmsVendingTest}) and it has
 * no access points.
 */
class SessionPolicyGoldenTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String KEY_A =
      "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
  static final String KEY_B =
      "arn:aws:kms:us-east-1:111122223333:key/0987dcba-09fe-87dc-65ba-ab0987654321";
  static final String ACCESS_POINT = "arn:aws:s3:us-east-1:111122223333:accesspoint/lake-ap";
  private static final List<String> TABLE = List.of("s3://acme-lake/wh/sales/orders");

  /** A profile as a catalog definition is parsed, with {@code extra} storageConfigInfo keys. */
  static S3StorageProfile profile(String extra) throws Exception {
    return profile("s3://acme-lake/wh", extra);
  }

  /** As above, with {@code allowed} as the only allowed location and the base location. */
  static S3StorageProfile profile(String allowed, String extra) throws Exception {
    ObjectNode info =
        (ObjectNode)
            JSON.readTree(
                "{\"storageType\":\"S3\",\"allowedLocations\":[\""
                    + allowed
                    + "\"],"
                    + "\"roleArn\":\"arn:aws:iam::111122223333:role/SluiceTableAccess\","
                    + "\"region\":\"us-east-1\",\"credentialSource\":\"aws\""
                    + extra
                    + "}");
    Map<String, CredentialSource> sources =
        Map.of("aws", AwsCredentialSource.staticKeys("aws", "AKID", "secret"));
    return (S3StorageProfile)
        StandardBackends.create()
            .parse("lake", info, allowed, sources, S3StorageProfile.MIN_DURATION)
            .profile();
  }

  static String policy(S3StorageProfile p, List<String> locations, AccessMode mode) {
    return SessionPolicyBuilder.build(
        SessionPolicyBuilder.scopes(locations),
        mode,
        p.readTemplate(),
        p.writeTemplate(),
        p.kms(),
        p.accessPoints(),
        p.region());
  }

  private static void assertGolden(String policy, String golden) throws Exception {
    assertThat(JSON.readTree(policy)).isEqualTo(JSON.readTree(golden));
    assertThat(policy).as("minified, as Ceph RGW needs").doesNotContain(" ", "\n");
    assertThat(policy.length()).isLessThanOrEqualTo(AwsPolicyGrammar.SESSION_POLICY_MAX_CHARS);
    AwsPolicyGrammar.check(JSON.readTree(policy), AwsPolicyGrammar.Kind.IDENTITY);
  }

  private static final String OBJECTS = "[\"arn:aws:s3:::acme-lake/wh/sales/orders/*\"]";
  private static final String ACL =
      "\"s3:x-amz-acl\":[\"\",\"private\",\"bucket-owner-read\",\"bucket-owner-full-control\"]";
  private static final String NO_GRANTS =
      "\"Null\":{\"s3:x-amz-grant-read\":\"true\",\"s3:x-amz-grant-write\":\"true\","
          + "\"s3:x-amz-grant-read-acp\":\"true\",\"s3:x-amz-grant-write-acp\":\"true\","
          + "\"s3:x-amz-grant-full-control\":\"true\"}";
  private static final String VIA =
      "{\"StringEquals\":{\"kms:ViaService\":[\"s3.us-east-1.amazonaws.com\"]}}";

  @Test
  void aReaderMayDecryptWithEveryKeyOnlyThroughS3() throws Exception {
    S3StorageProfile p =
        profile(",\"currentKmsKey\":\"" + KEY_A + "\",\"allowedKmsKeys\":[\"" + KEY_B + "\"]");
    assertGolden(
        policy(p, TABLE, AccessMode.READ),
        "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":"
            + OBJECTS
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\"arn:aws:s3:::acme-lake\"],"
            + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"wh/sales/orders/*\"]}}},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\""
            + KEY_A
            + "\",\""
            + KEY_B
            + "\"],"
            + "\"Condition\":"
            + VIA
            + "}]}");
  }

  /**
   * A writer generates data keys with the current key only, decrypts with all (S3 decrypts the
   * parts of a multipart upload to complete it, as AWS documents), and may PUT only with SSE-KMS
   * under the current key when it names any encryption.
   */
  @Test
  void aWriterGeneratesDataKeysWithTheCurrentKeyOnly() throws Exception {
    S3StorageProfile p =
        profile(",\"currentKmsKey\":\"" + KEY_A + "\",\"allowedKmsKeys\":[\"" + KEY_B + "\"]");
    assertGolden(
        policy(p, TABLE, AccessMode.READ_WRITE),
        "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":"
            + OBJECTS
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:PutObject\"],\"Resource\":"
            + OBJECTS
            + ","
            + "\"Condition\":{\"StringEqualsIfExists\":{"
            + ACL
            + ","
            + "\"s3:x-amz-server-side-encryption\":[\"aws:kms\"],"
            + "\"s3:x-amz-server-side-encryption-aws-kms-key-id\":[\""
            + KEY_A
            + "\"]},"
            + NO_GRANTS
            + "}},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:DeleteObject\",\"s3:AbortMultipartUpload\"],\"Resource\":"
            + OBJECTS
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\"arn:aws:s3:::acme-lake\"],"
            + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"wh/sales/orders/*\"]}}},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\""
            + KEY_A
            + "\",\""
            + KEY_B
            + "\"],\"Condition\":"
            + VIA
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"kms:GenerateDataKey\"],\"Resource\":[\""
            + KEY_A
            + "\"],\"Condition\":"
            + VIA
            + "}]}");
  }

  @Test
  void onlyAllowedKeysGiveReadersAndWritersDecryptAndNoWritingKey() throws Exception {
    S3StorageProfile p = profile(",\"allowedKmsKeys\":[\"" + KEY_B + "\"]");
    JsonNode write = JSON.readTree(policy(p, TABLE, AccessMode.READ_WRITE));
    assertThat(write.toString()).doesNotContain("GenerateDataKey", "x-amz-server-side-encryption");
    assertThat(write.path("Statement").get(write.path("Statement").size() - 1).toString())
        .contains("kms:Decrypt", KEY_B);
    assertThat(p.storageProperties()).isEmpty();
  }

  /**
   * Through an access point, objects are named {@code …:accesspoint/<name>/object/<key>} and a
   * listing's resource is the access point's ARN, with the same s3:prefix condition.
   */
  @Test
  void anAccessPointNamesItsOwnResources() throws Exception {
    S3StorageProfile p = profile(",\"accessPoints\":{\"acme-lake\":\"" + ACCESS_POINT + "\"}");
    String objects = "[\"" + ACCESS_POINT + "/object/wh/sales/orders/*\"]";
    assertGolden(
        policy(p, TABLE, AccessMode.READ_WRITE),
        "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":"
            + objects
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:PutObject\"],\"Resource\":"
            + objects
            + ","
            + "\"Condition\":{\"StringEqualsIfExists\":{"
            + ACL
            + "},"
            + NO_GRANTS
            + "}},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:DeleteObject\",\"s3:AbortMultipartUpload\"],\"Resource\":"
            + objects
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\""
            + ACCESS_POINT
            + "\"],"
            + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"wh/sales/orders/*\"]}}}]}");
    assertThat(p.storageProperties())
        .containsExactly(Map.entry("s3.access-points.acme-lake", ACCESS_POINT));
  }

  @Test
  void anAccessPointAndAKmsKeyTogether() throws Exception {
    S3StorageProfile p =
        profile(
            ",\"currentKmsKey\":\""
                + KEY_A
                + "\",\"accessPoints\":{\"acme-lake\":\""
                + ACCESS_POINT
                + "\"}");
    String objects = "[\"" + ACCESS_POINT + "/object/wh/sales/orders/*\"]";
    assertGolden(
        policy(p, TABLE, AccessMode.READ),
        "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":"
            + objects
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\""
            + ACCESS_POINT
            + "\"],"
            + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"wh/sales/orders/*\"]}}},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\""
            + KEY_A
            + "\"],\"Condition\":"
            + VIA
            + "}]}");
    assertThat(p.storageProperties())
        .containsExactly(
            Map.entry("s3.sse.type", "kms"),
            Map.entry("s3.sse.key", KEY_A),
            Map.entry("s3.access-points.acme-lake", ACCESS_POINT));
  }

  /** An alias location is scoped by its access point's ARN, never by the alias as a bucket. */
  @Test
  void anAccessPointAliasLocationIsScopedByTheAccessPointsArn() throws Exception {
    String alias = "lake-ap-hrzrlukc5m36ft7okagglf3gmwluquse1b-s3alias";
    S3StorageProfile p =
        profile(
            "s3://" + alias + "/wh",
            ",\"accessPoints\":{\"" + alias + "\":\"" + ACCESS_POINT + "\"}");
    String policy = policy(p, List.of("s3://" + alias + "/wh/ns/t"), AccessMode.READ);
    assertThat(policy).doesNotContain("arn:aws:s3:::").contains(ACCESS_POINT + "/object/wh/ns/t/*");
    AwsPolicyGrammar.check(JSON.readTree(policy), AwsPolicyGrammar.Kind.IDENTITY);
  }

  /**
   * A store's own key id (Ceph RGW, with an endpoint) is no IAM resource: no KMS statement (RGW's
   * STS would refuse it), but a writer's PUT is pinned to it, which RGW 16 enforces.
   */
  @Test
  void aStoresOwnKeyIdGetsThePutConditionAndNoKmsStatement() throws Exception {
    S3StorageProfile p =
        profile(
            ",\"endpoint\":\"http://127.0.0.1:7480\",\"currentKmsKey\":\"testkey-1\",\"allowedKmsKeys\":[\"testkey-2\"]");
    String write = policy(p, TABLE, AccessMode.READ_WRITE);
    assertThat(write).doesNotContain("kms:");
    assertThat(JSON.readTree(write).at("/Statement/1/Condition/StringEqualsIfExists"))
        .isEqualTo(
            JSON.readTree(
                "{"
                    + ACL
                    + ",\"s3:x-amz-server-side-encryption\":[\"aws:kms\"],"
                    + "\"s3:x-amz-server-side-encryption-aws-kms-key-id\":[\"testkey-1\"]}"));
    assertThat(policy(p, TABLE, AccessMode.READ)).doesNotContain("kms:", "encryption");
  }

  /** A template's statements stay as written; the catalog's KMS statements follow them. */
  @Test
  void aTemplateGetsTheKmsStatementsAppended() throws Exception {
    String template =
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],"
            + "\"Resource\":[\"arn:aws:s3:::{{.Bucket}}/{{.KeyPattern}}\"]}]}";
    S3StorageProfile p =
        profile(
            ",\"currentKmsKey\":\""
                + KEY_A
                + "\",\"readPolicyTemplate\":"
                + JSON.writeValueAsString(template));
    assertGolden(
        policy(p, TABLE, AccessMode.READ),
        "{\"Version\":\"2012-10-17\",\"Statement\":["
            + "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":"
            + OBJECTS
            + "},"
            + "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\""
            + KEY_A
            + "\"],\"Condition\":"
            + VIA
            + "}]}");
  }

  @Test
  void chinaRegionsNameS3UnderAmazonawsComCn() {
    assertThat(KmsKeys.viaService("aws-cn", "cn-north-1"))
        .isEqualTo("s3.cn-north-1.amazonaws.com.cn");
    assertThat(KmsKeys.viaService("aws-us-gov", "us-gov-west-1"))
        .isEqualTo("s3.us-gov-west-1.amazonaws.com");
  }

  /** The grammar itself refuses what AWS would: it is no test that cannot fail. */
  @Test
  void theGrammarRefusesAnAliasResourceAnUnknownActionAndAForeignConditionKey() throws Exception {
    for (String bad :
        List.of(
            "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\"arn:aws:kms:us-east-1:111122223333:alias/lake\"]}",
            "{\"Effect\":\"Allow\",\"Action\":[\"kms:GenerateDataKeys\"],\"Resource\":[\""
                + KEY_A
                + "\"]}",
            "{\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\"],\"Resource\":[\"arn:aws:s3:::acme-lake/x/*\"],\"Condition\":{\"StringLike\":{\"s3:prefix\":\"x/*\"}}}",
            "{\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\"],\"Resource\":[\""
                + ACCESS_POINT
                + "/object/x\"]}",
            "{\"Effect\":\"Allow\",\"Action\":[\"kms:Decrypt\"],\"Resource\":[\""
                + KEY_A
                + "\"],\"Condition\":{\"StringEquals\":{\"kms:ViaService\":\"s3.amazonaws.com\"}}}")) {
      JsonNode policy = JSON.readTree("{\"Version\":\"2012-10-17\",\"Statement\":[" + bad + "]}");
      assertThatThrownBy(() -> AwsPolicyGrammar.check(policy, AwsPolicyGrammar.Kind.IDENTITY))
          .as(bad)
          .isInstanceOf(AssertionError.class);
    }
  }
}
