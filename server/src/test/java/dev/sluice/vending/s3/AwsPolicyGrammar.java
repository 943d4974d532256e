package dev.sluice.vending.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The part of AWS's IAM policy grammar that Sluice's policies and the S3-VENDING.md examples use,
 * as AWS documents it: the policy elements (IAM User Guide, "IAM JSON policy element reference"),
 * and for each action the resource types and condition keys of the Service Authorization Reference
 * (Amazon S3, AWS KMS, AWS STS). An action, resource shape or condition key outside it fails: these
 * are the offline checks of what Ceph RGW cannot show (it refuses every {@code kms:} statement).
 */
final class AwsPolicyGrammar {
  /**
   * A session or identity policy (no Principal), a resource policy (a Principal required), or a
   * role's trust policy (a Principal, and no Resource: the role is the resource).
   */
  enum Kind {
    IDENTITY,
    RESOURCE,
    TRUST
  }

  /**
   * AWS STS: "The plaintext that you use for both inline and managed session policies can't exceed
   * 2,048 characters".
   */
  static final int SESSION_POLICY_MAX_CHARS = 2048;

  private static final String P = "arn:aws[a-z-]*";
  private static final Pattern BUCKET =
      Pattern.compile(P + ":s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern OBJECT =
      Pattern.compile(P + ":s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/.+");
  private static final Pattern ACCESS_POINT =
      Pattern.compile(P + ":s3:[a-z0-9-]+:[0-9]{12}:accesspoint/[a-z0-9][a-z0-9-]{1,48}[a-z0-9]");
  private static final Pattern ACCESS_POINT_OBJECT =
      Pattern.compile(ACCESS_POINT.pattern() + "/object/.+");
  private static final Pattern KMS_KEY =
      Pattern.compile(P + ":kms:[a-z0-9-]+:[0-9]{12}:key/[A-Za-z0-9-]+");
  private static final Pattern ROLE = Pattern.compile(P + ":iam::[0-9]{12}:role/[\\w+=,.@/-]+");

  /** Action → the resource shapes AWS documents for it. */
  private static final Map<String, List<Pattern>> RESOURCES =
      Map.ofEntries(
          Map.entry("s3:GetObject", List.of(OBJECT, ACCESS_POINT_OBJECT)),
          Map.entry("s3:PutObject", List.of(OBJECT, ACCESS_POINT_OBJECT)),
          Map.entry("s3:DeleteObject", List.of(OBJECT, ACCESS_POINT_OBJECT)),
          Map.entry("s3:AbortMultipartUpload", List.of(OBJECT, ACCESS_POINT_OBJECT)),
          Map.entry("s3:ListBucket", List.of(BUCKET, ACCESS_POINT)),
          // A bucket policy delegating to access points grants all on the bucket and its objects.
          Map.entry("*", List.of(BUCKET, OBJECT)),
          Map.entry("kms:Decrypt", List.of(KMS_KEY)),
          Map.entry("kms:GenerateDataKey", List.of(KMS_KEY)),
          Map.entry("kms:DescribeKey", List.of(KMS_KEY)),
          Map.entry("sts:AssumeRole", List.of(ROLE)),
          Map.entry("sts:TagSession", List.of(ROLE)));

  /** Action → the service condition keys AWS documents for it ({@code aws:*} keys apply to all). */
  private static final Map<String, Set<String>> CONDITION_KEYS =
      Map.ofEntries(
          Map.entry("s3:GetObject", Set.of("s3:DataAccessPointArn", "s3:DataAccessPointAccount")),
          Map.entry(
              "s3:PutObject",
              Set.of(
                  "s3:x-amz-acl",
                  "s3:x-amz-grant-read",
                  "s3:x-amz-grant-write",
                  "s3:x-amz-grant-read-acp",
                  "s3:x-amz-grant-write-acp",
                  "s3:x-amz-grant-full-control",
                  "s3:x-amz-server-side-encryption",
                  "s3:x-amz-server-side-encryption-aws-kms-key-id",
                  "s3:DataAccessPointArn",
                  "s3:DataAccessPointAccount")),
          Map.entry(
              "s3:DeleteObject", Set.of("s3:DataAccessPointArn", "s3:DataAccessPointAccount")),
          Map.entry(
              "s3:AbortMultipartUpload",
              Set.of("s3:DataAccessPointArn", "s3:DataAccessPointAccount")),
          Map.entry(
              "s3:ListBucket",
              Set.of("s3:prefix", "s3:DataAccessPointArn", "s3:DataAccessPointAccount")),
          Map.entry("*", Set.of("s3:DataAccessPointArn", "s3:DataAccessPointAccount")),
          Map.entry("kms:Decrypt", Set.of("kms:ViaService", "kms:CallerAccount")),
          Map.entry("kms:GenerateDataKey", Set.of("kms:ViaService", "kms:CallerAccount")),
          Map.entry("kms:DescribeKey", Set.of("kms:ViaService", "kms:CallerAccount")),
          Map.entry("sts:AssumeRole", Set.of("sts:ExternalId")),
          Map.entry("sts:TagSession", Set.of("sts:ExternalId")));

  private static final Set<String> OPERATORS =
      Set.of(
          "StringEquals",
          "StringNotEquals",
          "StringLike",
          "StringEqualsIfExists",
          "Null",
          "ArnEquals",
          "ArnLike");
  // kms:ViaService: "<service>.<region>.amazonaws.com" (KMS Developer Guide, kms:ViaService).
  private static final Pattern VIA_SERVICE =
      Pattern.compile("s3\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?");

  private AwsPolicyGrammar() {}

  /**
   * Asserts that {@code policy} keeps to the grammar; a Resource in a resource policy may be "*".
   */
  static void check(JsonNode policy, Kind kind) {
    assertThat(policy.isObject()).as("a policy is an object").isTrue();
    assertThat(names(policy)).as("policy elements").isSubsetOf("Version", "Id", "Statement");
    assertThat(policy.path("Version").asText()).isEqualTo("2012-10-17");
    JsonNode statements = policy.path("Statement");
    assertThat(statements.isArray() && !statements.isEmpty()).as("Statement array").isTrue();
    for (JsonNode statement : statements) {
      checkStatement(statement, kind);
    }
  }

  private static void checkStatement(JsonNode statement, Kind kind) {
    assertThat(names(statement))
        .as("statement elements of %s", statement)
        .isSubsetOf("Sid", "Effect", "Principal", "Action", "Resource", "Condition");
    assertThat(statement.path("Effect").asText()).isIn("Allow", "Deny");
    assertThat(statement.has("Principal"))
        .as("Principal in a %s policy: %s", kind, statement)
        .isEqualTo(kind != Kind.IDENTITY);
    List<String> actions = values(statement.get("Action"));
    List<String> resources = values(statement.get("Resource"));
    assertThat(actions).as("Action of %s", statement).isNotEmpty();
    if (kind == Kind.TRUST) {
      assertThat(resources).as("a trust policy names no Resource: %s", statement).isEmpty();
      assertThat(actions).allMatch(a -> a.startsWith("sts:"));
      resources = List.of();
    } else {
      assertThat(resources).as("Resource of %s", statement).isNotEmpty();
    }
    for (String action : actions) {
      assertThat(RESOURCES).as("a documented action").containsKey(action);
    }
    for (String action : actions) {
      for (String resource : resources) {
        boolean starAllowed = kind == Kind.RESOURCE && resource.equals("*");
        assertThat(
                starAllowed
                    || RESOURCES.get(action).stream().anyMatch(p -> p.matcher(resource).matches()))
            .as("%s names resource %s as AWS documents it", action, resource)
            .isTrue();
        assertThat(resource)
            .as("no policy variable or wildcard in a bucket or key name")
            .doesNotContain("$");
      }
    }
    JsonNode condition = statement.get("Condition");
    if (condition == null) {
      return;
    }
    Iterator<Map.Entry<String, JsonNode>> operators = condition.fields();
    while (operators.hasNext()) {
      Map.Entry<String, JsonNode> operator = operators.next();
      String name = operator.getKey().replaceFirst("^ForAnyValue:|^ForAllValues:", "");
      assertThat(OPERATORS).as("condition operator").contains(name);
      Iterator<Map.Entry<String, JsonNode>> keys = operator.getValue().fields();
      while (keys.hasNext()) {
        Map.Entry<String, JsonNode> key = keys.next();
        String conditionKey = key.getKey();
        for (String action : actions) {
          assertThat(
                  conditionKey.startsWith("aws:")
                      || CONDITION_KEYS.get(action).contains(conditionKey))
              .as("%s is a condition key of %s", conditionKey, action)
              .isTrue();
        }
        if (conditionKey.equals("kms:ViaService")) {
          assertThat(values(key.getValue())).allMatch(v -> VIA_SERVICE.matcher(v).matches());
        }
        if (name.equals("Null")) {
          assertThat(values(key.getValue())).allMatch(v -> v.equals("true") || v.equals("false"));
        }
      }
    }
  }

  /** A string or an array of strings, as every element accepts. */
  static List<String> values(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node == null) {
      return out;
    }
    if (node.isTextual()) {
      out.add(node.asText());
      return out;
    }
    assertThat(node.isArray()).as("a string or an array of strings: %s", node).isTrue();
    node.forEach(
        item -> {
          assertThat(item.isTextual()).as("%s is a string", item).isTrue();
          out.add(item.asText());
        });
    return out;
  }

  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
