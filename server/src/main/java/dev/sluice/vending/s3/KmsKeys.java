package dev.sluice.vending.s3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ClientProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A catalog's SSE-KMS keys, under Apache Polaris's names: {@code currentKmsKey}, the key engines
 * write with, and {@code allowedKmsKeys}, further keys whose objects they may read (keys rotated
 * out, objects written before). Both may be omitted (no SSE-KMS).
 *
 * <p>A key is either a <b>key ARN</b> ({@code arn:<partition>:kms:<region>:<account>:key/<id>}),
 * which the session policy grants by name, or, only on a store at an {@code endpoint} of its own,
 * that store's <b>own key id</b> (Ceph RGW's, a Vault key name): such an id is no IAM resource, so
 * no KMS statement can name it; the store's KMS integration, not the session policy, decides who
 * uses it. An alias ARN is refused: AWS documents that an IAM policy names a KMS key only by its
 * key ARN, and that an alias ARN as a Resource controls the alias, never the key behind it.
 */
public record KmsKeys(String current, List<String> allowed) {
  public static final KmsKeys NONE = new KmsKeys(null, List.of());
  private static final String KEY = "storageConfigInfo.";
  // AWS's own pattern for a key ARN (S3's SSEKMSFilter.KmsKeyArn), the region and account captured.
  private static final Pattern KEY_ARN =
      Pattern.compile("arn:(aws[a-z-]*):kms:([a-z0-9-]+):([0-9]{12}):key/[A-Za-z0-9-]+");
  private static final Pattern ALIAS_ARN = Pattern.compile("arn:aws[a-z-]*:kms:.*:alias/.*");
  // A store's own key id: no IAM wildcard, policy variable, quote or space can reach a header.
  private static final Pattern OWN_KEY_ID =
      Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:=+@-]{0,255}");

  public KmsKeys {
    allowed = List.copyOf(allowed);
  }

  /** Reads and validates the two keys; {@code ownEndpoint}: the catalog has an {@code endpoint}. */
  static KmsKeys parse(JsonNode info, String region, boolean ownEndpoint) {
    JsonNode currentNode = info.get("currentKmsKey");
    String current = null;
    if (currentNode != null && !currentNode.isNull()) {
      if (!currentNode.isTextual()) {
        throw new IllegalArgumentException(KEY + "currentKmsKey must be a string");
      }
      current = check("currentKmsKey", currentNode.asText(), region, ownEndpoint);
    }
    List<String> allowed = new ArrayList<>();
    JsonNode allowedNode = info.get("allowedKmsKeys");
    if (allowedNode != null && !allowedNode.isNull()) {
      if (!allowedNode.isArray()) {
        throw new IllegalArgumentException(KEY + "allowedKmsKeys must be an array of key ARNs");
      }
      for (JsonNode item : allowedNode) {
        if (!item.isTextual()) {
          throw new IllegalArgumentException(
              KEY + "allowedKmsKeys: " + item + " is not a string (a key ARN)");
        }
        String key = check("allowedKmsKeys", item.asText(), region, ownEndpoint);
        if (!key.equals(current) && !allowed.contains(key)) {
          allowed.add(key);
        }
      }
    }
    return current == null && allowed.isEmpty() ? NONE : new KmsKeys(current, allowed);
  }

  private static String check(String field, String key, String region, boolean ownEndpoint) {
    if (ALIAS_ARN.matcher(key).matches()) {
      throw new IllegalArgumentException(
          KEY
              + field
              + ": "
              + key
              + " is an alias ARN; an IAM policy names a KMS key only by its key ARN"
              + " (arn:<partition>:kms:<region>:<account>:key/<id>): give the key the alias"
              + " points to");
    }
    Matcher arn = KEY_ARN.matcher(key);
    if (arn.matches()) {
      if (!arn.group(2).equals(region)) {
        throw new IllegalArgumentException(
            KEY
                + field
                + ": "
                + key
                + " is in region "
                + arn.group(2)
                + ", but the catalog's region is "
                + region
                + ": S3 encrypts an object only with a key in its bucket's region");
      }
      return key;
    }
    if (key.startsWith("arn:")) {
      throw new IllegalArgumentException(
          KEY
              + field
              + ": "
              + key
              + " is not a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<id>)");
    }
    if (!ownEndpoint) {
      throw new IllegalArgumentException(
          KEY
              + field
              + ": "
              + key
              + " is not a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<id>); a key"
              + " id of the store's own is accepted only with an endpoint (S3-compatible stores)");
    }
    if (!OWN_KEY_ID.matcher(key).matches()) {
      throw new IllegalArgumentException(
          KEY
              + field
              + ": "
              + key
              + " is not a key id (letters, digits and ._/:=+@- only, at most 256)");
    }
    return key;
  }

  public boolean isEmpty() {
    return current == null && allowed.isEmpty();
  }

  /** Every key whose objects a session may read: the current one first. */
  public List<String> readable() {
    Set<String> all = new LinkedHashSet<>();
    if (current != null) {
      all.add(current);
    }
    all.addAll(allowed);
    return List.copyOf(all);
  }

  /** True for a key the session policy can name (a key ARN), false for a store's own key id. */
  static boolean nameable(String key) {
    return KEY_ARN.matcher(key).matches();
  }

  /**
   * The KMS statements a session needs on these keys, appended to {@code statements}: {@code
   * kms:Decrypt} on every readable key ARN (readers; writers too, since S3 decrypts the parts of a
   * multipart upload to complete it), and for writers {@code kms:GenerateDataKey} on the current
   * key ARN only (S3 asks it for each new object's data key), each usable only through S3 in the
   * catalog's region ({@code kms:ViaService}). Nothing for a store's own key ids.
   */
  void addStatements(ArrayNode statements, AccessMode mode, String region) {
    List<String> decrypt = readable().stream().filter(KmsKeys::nameable).toList();
    if (decrypt.isEmpty()) {
      return;
    }
    statements.add(statement("kms:Decrypt", decrypt, region));
    if (mode == AccessMode.READ_WRITE && current != null && nameable(current)) {
      statements.add(statement("kms:GenerateDataKey", List.of(current), region));
    }
  }

  private static ObjectNode statement(String action, List<String> keys, String region) {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode statement = json.objectNode();
    statement.put("Effect", "Allow");
    statement.putArray("Action").add(action);
    ArrayNode resources = statement.putArray("Resource");
    keys.forEach(resources::add);
    Set<String> via = new LinkedHashSet<>();
    for (String key : keys) {
      Matcher arn = KEY_ARN.matcher(key);
      if (arn.matches()) {
        via.add(viaService(arn.group(1), region));
      }
    }
    ArrayNode values =
        statement.putObject("Condition").putObject("StringEquals").putArray("kms:ViaService");
    via.forEach(values::add);
    return statement;
  }

  /** S3's service name in {@code region} as kms:ViaService reads it (China's end in .com.cn). */
  static String viaService(String partition, String region) {
    return "s3." + region + (partition.equals("aws-cn") ? ".amazonaws.com.cn" : ".amazonaws.com");
  }

  /**
   * What a writer's s3:PutObject may say about encryption: when it names any, SSE-KMS with the
   * current key. Empty without a current key.
   */
  Map<String, String> putConditions() {
    Map<String, String> conditions = new LinkedHashMap<>();
    if (current != null) {
      conditions.put("s3:x-amz-server-side-encryption", "aws:kms");
      conditions.put("s3:x-amz-server-side-encryption-aws-kms-key-id", current);
    }
    return conditions;
  }

  /** Iceberg's S3FileIO keys that make engines write with the current key; none without one. */
  public Map<String, String> clientProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    if (current != null) {
      properties.put(ClientProperties.S3_SSE_TYPE, ClientProperties.S3_SSE_TYPE_KMS);
      properties.put(ClientProperties.S3_SSE_KEY, current);
    }
    return properties;
  }
}
