package dev.sluice.vending.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.AccessMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inline session policy for one table: the least an Iceberg client needs, on exactly the
 * table's locations. Readers get s3:GetObject on the objects and s3:ListBucket with an {@code
 * s3:prefix} condition; writers also s3:PutObject (with no ACL that opens the object),
 * s3:DeleteObject and s3:AbortMultipartUpload. Nested locations are folded into their parent. A
 * bucket reached through an access point is named by the access point's resources ({@link
 * AccessPoints}); SSE-KMS keys add their KMS statements ({@link KmsKeys}). Rendered as minified
 * JSON, because Ceph RGW rejects a policy with whitespace.
 */
public final class SessionPolicyBuilder {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One bucket and key prefix ("" for the bucket root). */
  public record Scope(String bucket, String keyPrefix) {
    public String keyPattern() {
      return keyPrefix.isEmpty() ? "*" : keyPrefix + "/*";
    }

    String objectArn(AccessPoints accessPoints) {
      return accessPoints
          .of(bucket)
          .map(point -> point.objectArn(keyPattern()))
          .orElse("arn:aws:s3:::" + bucket + "/" + keyPattern());
    }

    boolean covers(Scope other) {
      return bucket.equals(other.bucket)
          && (keyPrefix.isEmpty()
              || other.keyPrefix.equals(keyPrefix)
              || other.keyPrefix.startsWith(keyPrefix + "/"));
    }
  }

  /** One exact object: a bucket and its key, never a pattern. */
  public record ObjectKey(String bucket, String key) {
    String objectArn(AccessPoints accessPoints) {
      return accessPoints
          .of(bucket)
          .map(point -> point.objectArn(key))
          .orElse("arn:aws:s3:::" + bucket + "/" + key);
    }
  }

  /**
   * AWS refuses a session policy longer than 2,048 characters (its plaintext; the packed size also
   * counts session tags, which are few and short here): a plan's policy is narrowed only while its
   * minified JSON stays within this.
   */
  public static final int MAX_POLICY_CHARS = 2048;

  private SessionPolicyBuilder() {}

  /** Parses s3:// object locations into exact keys, deduplicated and sorted. */
  public static List<ObjectKey> objects(List<String> locations) {
    java.util.TreeSet<String> seen = new java.util.TreeSet<>();
    List<ObjectKey> keys = new ArrayList<>();
    for (String location : locations) {
      StorageLocation parsed = StorageLocation.parse(location);
      String key = String.join("/", parsed.segments());
      if (key.isEmpty()) {
        throw new IllegalArgumentException("Not an object: " + location);
      }
      if (seen.add(parsed.authority() + "/" + key)) {
        keys.add(new ObjectKey(parsed.authority(), key));
      }
    }
    keys.sort(Comparator.comparing(ObjectKey::bucket).thenComparing(ObjectKey::key));
    return keys;
  }

  /**
   * Why {@code location} cannot be scoped safely in a session policy, or empty: IAM reads {@code *}
   * as a wildcard and {@code $} as a policy variable, Ceph RGW reads a space as '+' ("a b" would
   * scope to "a+b"), and Ceph RGW's STS refuses a policy whose resource has a ':' in the key (400),
   * which would fail every load of the table instead of serving it without credentials.
   */
  public static Optional<String> unsafe(String location) {
    for (int i = 0; i < location.length(); i++) {
      switch (location.charAt(i)) {
        case '*' -> {
          return Optional.of("IAM wildcard");
        }
        case '$' -> {
          return Optional.of("policy variable ($)");
        }
        case ' ' -> {
          return Optional.of("space");
        }
        default -> {}
      }
    }
    if (StorageLocation.parse(location).segments().stream().anyMatch(s -> s.indexOf(':') >= 0)) {
      return Optional.of("colon in the path");
    }
    return Optional.empty();
  }

  /** Parses s3:// locations into scopes, deduplicated, nested ones folded into their parents. */
  public static List<Scope> scopes(List<String> locations) {
    List<Scope> all = new ArrayList<>();
    for (String location : locations) {
      StorageLocation parsed = StorageLocation.parse(location);
      all.add(new Scope(parsed.authority(), String.join("/", parsed.segments())));
    }
    all.sort(Comparator.comparing(Scope::bucket).thenComparing(s -> s.keyPrefix().length()));
    List<Scope> folded = new ArrayList<>();
    for (Scope scope : all) {
      if (folded.stream().noneMatch(kept -> kept.covers(scope))) {
        folded.add(scope);
      }
    }
    // Same locations, same policy text: deterministic order for caching and review.
    folded.sort(Comparator.comparing(Scope::bucket).thenComparing(Scope::keyPrefix));
    return folded;
  }

  /** The built-in policy, or the catalog's template rendered per scope and merged. */
  public static String build(
      List<Scope> scopes,
      AccessMode mode,
      PolicyTemplate readTemplate,
      PolicyTemplate writeTemplate) {
    return build(scopes, mode, readTemplate, writeTemplate, KmsKeys.NONE, AccessPoints.NONE, null);
  }

  /**
   * As above, for a catalog with SSE-KMS keys and access points in {@code region}. A template's
   * statements get the KMS statements appended (the keys are the catalog's, not a scope's); the
   * built-in policy also allows a writer's PutObject only with the current key, when it names one.
   * Templates and access points never meet: the profile refuses the combination.
   */
  public static String build(
      List<Scope> scopes,
      AccessMode mode,
      PolicyTemplate readTemplate,
      PolicyTemplate writeTemplate,
      KmsKeys kms,
      AccessPoints accessPoints,
      String region) {
    return build(scopes, List.of(), mode, readTemplate, writeTemplate, kms, accessPoints, region);
  }

  /**
   * As above, also granting s3:GetObject on exactly {@code objects} (a scan plan's files: each
   * object's own ARN, no wildcard, and no listing for them: reading a file needs only GET and HEAD,
   * which s3:GetObject allows). Objects are read-only and never meet a template (a template is
   * written for prefixes; the vendor then offers prefixes instead).
   */
  public static String build(
      List<Scope> scopes,
      List<ObjectKey> objects,
      AccessMode mode,
      PolicyTemplate readTemplate,
      PolicyTemplate writeTemplate,
      KmsKeys kms,
      AccessPoints accessPoints,
      String region) {
    if (scopes.isEmpty() && objects.isEmpty()) {
      throw new IllegalArgumentException("No location to scope a policy to");
    }
    PolicyTemplate template = mode == AccessMode.READ_WRITE ? writeTemplate : readTemplate;
    if (!objects.isEmpty() && (mode != AccessMode.READ || template != null)) {
      throw new IllegalArgumentException(
          "Exact objects are granted only for reading, without a policy template");
    }
    ObjectNode policy = JSON.createObjectNode();
    policy.put("Version", "2012-10-17");
    ArrayNode statements = policy.putArray("Statement");
    if (template != null) {
      for (Scope scope : scopes) {
        try {
          JsonNode rendered =
              JSON.readTree(template.render(scope.bucket(), scope.keyPrefix(), scope.keyPattern()));
          rendered.path("Statement").forEach(statements::add);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          throw new IllegalStateException(
              "The session-policy template rendered invalid JSON for " + scope.bucket(), e);
        }
      }
      kms.addStatements(statements, mode, region);
      return policy.toString();
    }
    ArrayNode resources = JSON.createArrayNode();
    scopes.forEach(s -> resources.add(s.objectArn(accessPoints)));
    objects.forEach(o -> resources.add(o.objectArn(accessPoints)));
    statements.add(statement(List.of("s3:GetObject"), resources));
    if (mode == AccessMode.READ_WRITE) {
      ObjectNode put = statement(List.of("s3:PutObject"), resources);
      put.set("Condition", ownerOnlyAcl(kms));
      statements.add(put);
      statements.add(statement(List.of("s3:DeleteObject", "s3:AbortMultipartUpload"), resources));
    }
    Map<String, ArrayNode> prefixesByBucket = new LinkedHashMap<>();
    for (Scope s : scopes) {
      prefixesByBucket.computeIfAbsent(s.bucket(), b -> JSON.createArrayNode()).add(s.keyPattern());
    }
    prefixesByBucket.forEach(
        (bucket, patterns) -> {
          // Through an access point, a listing's resource is the access point itself.
          String listed =
              accessPoints
                  .of(bucket)
                  .map(AccessPoints.AccessPoint::arn)
                  .orElse("arn:aws:s3:::" + bucket);
          ObjectNode list = statement(List.of("s3:ListBucket"), JSON.createArrayNode().add(listed));
          list.putObject("Condition").putObject("StringLike").set("s3:prefix", patterns);
          statements.add(list);
        });
    kms.addStatements(statements, mode, region);
    return policy.toString();
  }

  /**
   * A PUT may carry no ACL that opens the object: a canned ACL only of the owner's ({@code ""} is
   * Ceph RGW's value when none is sent, which AWS never has) and no {@code x-amz-grant-*}. AWS
   * refuses ACL headers without s3:PutObjectAcl anyway; Ceph RGW 16 checks only s3:PutObject, so
   * without this a writer, or a header added after Sluice signed, could publish the object. With a
   * current KMS key, the encryption a PUT names must be SSE-KMS with that key: measured on Ceph RGW
   * 16, the one KMS rule its session policies can carry.
   */
  private static ObjectNode ownerOnlyAcl(KmsKeys kms) {
    ObjectNode condition = JSON.createObjectNode();
    ObjectNode ifExists = condition.putObject("StringEqualsIfExists");
    ArrayNode acls = ifExists.putArray("s3:x-amz-acl");
    for (String acl : List.of("", "private", "bucket-owner-read", "bucket-owner-full-control")) {
      acls.add(acl);
    }
    kms.putConditions().forEach((key, value) -> ifExists.putArray(key).add(value));
    ObjectNode none = condition.putObject("Null");
    for (String grant : List.of("read", "write", "read-acp", "write-acp", "full-control")) {
      none.put("s3:x-amz-grant-" + grant, "true");
    }
    return condition;
  }

  private static ObjectNode statement(List<String> actions, ArrayNode resources) {
    ObjectNode statement = JSON.createObjectNode();
    statement.put("Effect", "Allow");
    ArrayNode action = statement.putArray("Action");
    actions.forEach(action::add);
    statement.set("Resource", resources.deepCopy());
    return statement;
  }
}
