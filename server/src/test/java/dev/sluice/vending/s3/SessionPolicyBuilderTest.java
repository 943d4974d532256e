package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.vending.AccessMode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SessionPolicyBuilderTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Characters an S3 session policy cannot scope: never vended for, on top of LocationSafety. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://bucket/wh/ns/*", // IAM wildcard
        "s3://bucket/wh/ns/t*", // wildcard in a name
        "s3://bucket/wh/ns/${aws:username}", // policy variable
        "s3://bucket/wh/ns/$t", // dollar
        "s3://bucket/wh/ns/table with space", // Ceph RGW scopes it to "table+with+space"
        "s3://bucket/wh/ns/a:b", // Ceph RGW STS refuses the policy (400)
      })
  void policyCharactersAreUnsafe(String location) {
    assertThat(SessionPolicyBuilder.unsafe(location)).as(location).isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"s3://bucket/wh/ns/t", "s3://bucket/wh/ns/t%20x", "s3://b/a-b_c.d/e~f"})
  void ordinaryKeysAreSafe(String location) {
    assertThat(SessionPolicyBuilder.unsafe(location)).as(location).isEmpty();
  }

  @Test
  void foldsNestedAndDuplicateLocations() {
    List<SessionPolicyBuilder.Scope> scopes =
        SessionPolicyBuilder.scopes(
            List.of(
                "s3://b/wh/ns/t",
                "s3://b/wh/ns/t/data",
                "s3://b/wh/ns/t/metadata",
                "s3://b/wh/ns/t",
                "s3://b/other/meta",
                "s3://c/x"));
    assertThat(scopes)
        .containsExactly(
            new SessionPolicyBuilder.Scope("b", "other/meta"),
            new SessionPolicyBuilder.Scope("b", "wh/ns/t"),
            new SessionPolicyBuilder.Scope("c", "x"));
    // a sibling with a common string prefix is not nested
    assertThat(SessionPolicyBuilder.scopes(List.of("s3://b/wh/t", "s3://b/wh/t2"))).hasSize(2);
  }

  @Test
  void readPolicyIsMinimalAndMinified() throws Exception {
    String policy =
        SessionPolicyBuilder.build(
            SessionPolicyBuilder.scopes(List.of("s3://b/wh/ns/t")), AccessMode.READ, null, null);
    assertThat(policy).doesNotContain(" ").doesNotContain("\n");
    JsonNode statements = JSON.readTree(policy).get("Statement");
    assertThat(statements).hasSize(2);
    assertThat(statements.get(0).get("Action").toString()).isEqualTo("[\"s3:GetObject\"]");
    assertThat(statements.get(0).get("Resource").toString())
        .isEqualTo("[\"arn:aws:s3:::b/wh/ns/t/*\"]");
    assertThat(statements.get(1).get("Action").toString()).isEqualTo("[\"s3:ListBucket\"]");
    assertThat(statements.get(1).get("Resource").toString()).isEqualTo("[\"arn:aws:s3:::b\"]");
    assertThat(statements.get(1).at("/Condition/StringLike/s3:prefix").toString())
        .isEqualTo("[\"wh/ns/t/*\"]");
    assertThat(policy).doesNotContain("PutObject").doesNotContain("DeleteObject");
  }

  @Test
  void writePolicyAddsPutDeleteAbortOnTheSameObjects() throws Exception {
    String policy =
        SessionPolicyBuilder.build(
            SessionPolicyBuilder.scopes(List.of("s3://b/wh/ns/t", "s3://b/data/t")),
            AccessMode.READ_WRITE,
            null,
            null);
    JsonNode statements = JSON.readTree(policy).get("Statement");
    assertThat(statements.get(1).get("Action").toString()).isEqualTo("[\"s3:PutObject\"]");
    assertThat(statements.get(1).get("Resource").toString())
        .isEqualTo("[\"arn:aws:s3:::b/data/t/*\",\"arn:aws:s3:::b/wh/ns/t/*\"]");
    assertThat(statements.get(1).get("Condition").toString())
        .isEqualTo(
            "{\"StringEqualsIfExists\":{\"s3:x-amz-acl\":[\"\",\"private\",\"bucket-owner-read\","
                + "\"bucket-owner-full-control\"]},\"Null\":{\"s3:x-amz-grant-read\":\"true\","
                + "\"s3:x-amz-grant-write\":\"true\",\"s3:x-amz-grant-read-acp\":\"true\","
                + "\"s3:x-amz-grant-write-acp\":\"true\",\"s3:x-amz-grant-full-control\":\"true\"}}");
    assertThat(statements.get(2).get("Action").toString())
        .isEqualTo("[\"s3:DeleteObject\",\"s3:AbortMultipartUpload\"]");
    assertThat(statements.get(2).get("Resource")).isEqualTo(statements.get(1).get("Resource"));
    assertThat(statements.get(3).at("/Condition/StringLike/s3:prefix").toString())
        .isEqualTo("[\"data/t/*\",\"wh/ns/t/*\"]");
  }

  @Test
  void bucketRootTableScopesTheWholeBucketAndNothingElse() throws Exception {
    String policy =
        SessionPolicyBuilder.build(
            SessionPolicyBuilder.scopes(List.of("s3://rootb")), AccessMode.READ, null, null);
    assertThat(policy).contains("\"arn:aws:s3:::rootb/*\"").doesNotContain("rootb//");
    assertThat(JSON.readTree(policy).at("/Statement/1/Condition/StringLike/s3:prefix").toString())
        .isEqualTo("[\"*\"]");
  }

  @Test
  void templatesRenderPerScopeWithEscapedValues() throws Exception {
    PolicyTemplate template =
        PolicyTemplate.parse(
            "storageConfigInfo.readPolicyTemplate",
            "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\","
                + "\"Resource\":\"arn:aws:s3:::{{.Bucket}}/{{ .KeyPattern }}\"}]}");
    String policy =
        SessionPolicyBuilder.build(
            SessionPolicyBuilder.scopes(List.of("s3://b/a\"q", "s3://b/x")),
            AccessMode.READ,
            template,
            null);
    JsonNode statements = JSON.readTree(policy).get("Statement");
    assertThat(statements).hasSize(2);
    assertThat(statements.get(0).get("Resource").asText()).isEqualTo("arn:aws:s3:::b/a\"q/*");
  }

  @Test
  void badTemplatesAreRefusedNamingTheKey() {
    assertThatThrownBy(
            () ->
                PolicyTemplate.parse(
                    "storageConfigInfo.writePolicyTemplate", "{\"Statement\": [{{.Nope}}]}"))
        .hasMessageContaining("storageConfigInfo.writePolicyTemplate")
        .hasMessageContaining(".Nope");
    assertThatThrownBy(
            () ->
                PolicyTemplate.parse(
                    "storageConfigInfo.writePolicyTemplate", "{\"Statement\": [ }"))
        .hasMessageContaining("storageConfigInfo.writePolicyTemplate")
        .hasMessageContaining("valid JSON");
    assertThatThrownBy(
            () ->
                PolicyTemplate.parse(
                    "storageConfigInfo.readPolicyTemplate", "{\"Version\": \"{{.Bucket}\"}"))
        .hasMessageContaining("storageConfigInfo.readPolicyTemplate");
    assertThatThrownBy(() -> PolicyTemplate.parse("storageConfigInfo.readPolicyTemplate", "[1, 2]"))
        .hasMessageContaining("Statement");
  }

  @Test
  void sessionNamesFitStsRules() {
    assertThat(
            SessionNames.of(List.of("principal"), java.util.Map.of("principal", "jane analyst!")))
        .isEqualTo("jane-analyst-");
    assertThat(
            SessionNames.of(
                List.of("principal", "catalog"),
                java.util.Map.of("principal", "jane", "catalog", "prod")))
        .isEqualTo("jane@prod");
    assertThat(
            SessionNames.of(List.of("principal"), java.util.Map.of("principal", "x".repeat(100))))
        .hasSize(64);
    assertThat(SessionNames.of(List.of("principal"), java.util.Map.of("principal", "x")))
        .hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void planObjectsAreNamedExactlyWithoutListing() throws Exception {
    String policy =
        SessionPolicyBuilder.build(
            List.of(),
            SessionPolicyBuilder.objects(
                List.of(
                    "s3://b/wh/t/data/p=1/y.parquet",
                    "s3://b/wh/t/data/p=1/x.parquet",
                    "s3a://b/wh/t/data/p=1/x.parquet")),
            AccessMode.READ,
            null,
            null,
            KmsKeys.NONE,
            AccessPoints.NONE,
            null);
    JsonNode statements = JSON.readTree(policy).get("Statement");
    assertThat(statements).hasSize(1);
    assertThat(statements.get(0).get("Action").toString()).isEqualTo("[\"s3:GetObject\"]");
    assertThat(statements.get(0).get("Resource").toString())
        .isEqualTo(
            "[\"arn:aws:s3:::b/wh/t/data/p=1/x.parquet\",\"arn:aws:s3:::b/wh/t/data/p=1/y.parquet\"]");
    assertThat(policy).doesNotContain("*").doesNotContain("ListBucket");
  }

  @Test
  void planPrefixesEndAtTheirSegment() throws Exception {
    String policy =
        SessionPolicyBuilder.build(
            SessionPolicyBuilder.scopes(List.of("s3://b/wh/t/data/p=1/")),
            AccessMode.READ,
            null,
            null);
    assertThat(JSON.readTree(policy).at("/Statement/0/Resource").toString())
        .isEqualTo("[\"arn:aws:s3:::b/wh/t/data/p=1/*\"]");
  }

  @Test
  void objectsAreNeverWritableNorTemplated() {
    List<SessionPolicyBuilder.ObjectKey> objects =
        SessionPolicyBuilder.objects(List.of("s3://b/wh/t/x"));
    assertThatThrownBy(
            () ->
                SessionPolicyBuilder.build(
                    List.of(),
                    objects,
                    AccessMode.READ_WRITE,
                    null,
                    null,
                    KmsKeys.NONE,
                    AccessPoints.NONE,
                    null))
        .isInstanceOf(IllegalArgumentException.class);
    PolicyTemplate template =
        PolicyTemplate.parse(
            "t",
            "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Action\":[\"s3:GetObject\"],\"Resource\":[\"arn:aws:s3:::{{.Bucket}}/{{.KeyPattern}}\"]}]}");
    assertThatThrownBy(
            () ->
                SessionPolicyBuilder.build(
                    List.of(),
                    objects,
                    AccessMode.READ,
                    template,
                    null,
                    KmsKeys.NONE,
                    AccessPoints.NONE,
                    null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
