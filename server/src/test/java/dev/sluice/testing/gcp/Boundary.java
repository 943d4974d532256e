package dev.sluice.testing.gcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Credential Access Boundary as the STS accepted it (the {@code options} of a token exchange),
 * validated the way Google documents
 * (https://cloud.google.com/iam/docs/downscoping-short-lived-credentials, STS reference
 * AccessBoundary): 1 to 10 rules, each on one bucket ({@code
 * //storage.googleapis.com/projects/_/buckets/B}), with {@code inRole:} permissions of storage
 * roles and an optional availability condition ({@link Condition}). The effective boundary is the
 * union of its rules.
 */
public final class Boundary {
  static final int MAX_RULES = 10;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BUCKET_RESOURCE =
      Pattern.compile(
          "//storage\\.googleapis\\.com/projects/_/buckets/([a-z0-9][a-z0-9._-]{1,220})");
  private static final Set<String> RULE_FIELDS =
      Set.of("availableResource", "availablePermissions", "availabilityCondition");
  private static final Set<String> CONDITION_FIELDS = Set.of("expression", "title", "description");

  /**
   * One access boundary rule: the bucket it applies to, its roles (without the {@code inRole:}
   * prefix), and its condition when it has one.
   */
  public record Rule(
      String availableResource,
      String bucket,
      List<String> roles,
      Optional<Condition> condition,
      Optional<String> title) {
    public Rule {
      requireNonNull(availableResource, "availableResource");
      requireNonNull(bucket, "bucket");
      roles = List.copyOf(roles);
      requireNonNull(condition, "condition");
      requireNonNull(title, "title");
    }

    /** The permissions this rule makes available (the union of its roles'). */
    public Set<String> permissions() {
      Set<String> all = new HashSet<>();
      for (String role : roles) {
        all.addAll(StorageRoles.permissions(role).orElseThrow());
      }
      return all;
    }

    /** True when this rule makes {@code permission} available for the request described. */
    boolean grants(
        String permission, String requestBucket, String resourceName, String listPrefix) {
      return bucket.equals(requestBucket)
          && permissions().contains(permission)
          && condition.map(c -> c.evaluate(resourceName, listPrefix)).orElse(true);
    }
  }

  private final List<Rule> rules;

  private Boundary(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  public List<Rule> rules() {
    return rules;
  }

  /** The buckets the rules name, in rule order. */
  public List<String> buckets() {
    return rules.stream().map(Rule::bucket).distinct().toList();
  }

  /** True when some rule grants {@code permission} on the request described (see {@link Rule}). */
  boolean grants(String permission, String bucket, String resourceName, String listPrefix) {
    for (Rule rule : rules) {
      if (rule.grants(permission, bucket, resourceName, listPrefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parses the STS {@code options} JSON ({@code {"accessBoundary":{"accessBoundaryRules":[...]}}});
   * an {@link IllegalArgumentException} carries what Google would answer 400 for.
   */
  public static Boundary parseOptions(String optionsJson) {
    JsonNode root;
    try {
      root = JSON.readTree(requireNonNull(optionsJson, "optionsJson"));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("options is not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("options must be a JSON object");
    }
    unknownFields(root, Set.of("accessBoundary"), "options");
    JsonNode boundary = root.get("accessBoundary");
    if (boundary == null || !boundary.isObject()) {
      throw new IllegalArgumentException("options.accessBoundary is required");
    }
    unknownFields(boundary, Set.of("accessBoundaryRules"), "accessBoundary");
    JsonNode rules = boundary.get("accessBoundaryRules");
    if (rules == null || !rules.isArray() || rules.isEmpty()) {
      throw new IllegalArgumentException(
          "accessBoundary.accessBoundaryRules must list at least one rule");
    }
    if (rules.size() > MAX_RULES) {
      throw new IllegalArgumentException(
          "an access boundary can contain at most "
              + MAX_RULES
              + " rules; this one has "
              + rules.size());
    }
    List<Rule> parsed = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      parsed.add(rule(rules.get(i), "accessBoundaryRules[" + i + "]"));
    }
    return new Boundary(parsed);
  }

  private static Rule rule(JsonNode rule, String where) {
    if (!rule.isObject()) {
      throw new IllegalArgumentException(where + " must be an object");
    }
    unknownFields(rule, RULE_FIELDS, where);
    String resource = text(rule, "availableResource", where);
    Matcher bucket = BUCKET_RESOURCE.matcher(resource);
    if (!bucket.matches()) {
      throw new IllegalArgumentException(
          where
              + ".availableResource "
              + resource
              + " is not a Cloud Storage bucket (//storage.googleapis.com/projects/_/buckets/NAME)");
    }
    JsonNode permissions = rule.get("availablePermissions");
    if (permissions == null || !permissions.isArray() || permissions.isEmpty()) {
      throw new IllegalArgumentException(where + ".availablePermissions must not be empty");
    }
    List<String> roles = new ArrayList<>();
    for (JsonNode permission : permissions) {
      String value = permission.isTextual() ? permission.asText() : String.valueOf(permission);
      if (!value.startsWith("inRole:")) {
        throw new IllegalArgumentException(
            where + ".availablePermissions: " + value + " is not of the form inRole:ROLE");
      }
      String role = value.substring("inRole:".length());
      if (StorageRoles.permissions(role).isEmpty()) {
        throw new IllegalArgumentException(
            where
                + ".availablePermissions: unknown role "
                + role
                + " (the fake knows "
                + String.join(", ", new java.util.TreeSet<>(StorageRoles.known()))
                + ")");
      }
      roles.add(role);
    }
    Optional<Condition> condition = Optional.empty();
    Optional<String> title = Optional.empty();
    JsonNode availability = rule.get("availabilityCondition");
    if (availability != null && !availability.isNull()) {
      if (!availability.isObject()) {
        throw new IllegalArgumentException(where + ".availabilityCondition must be an object");
      }
      unknownFields(availability, CONDITION_FIELDS, where + ".availabilityCondition");
      String expression = text(availability, "expression", where + ".availabilityCondition");
      try {
        condition = Optional.of(Condition.parse(expression));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(where + ".availabilityCondition: " + e.getMessage());
      }
      title = Optional.ofNullable(availability.get("title")).map(JsonNode::asText);
    }
    return new Rule(resource, bucket.group(1), roles, condition, title);
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new IllegalArgumentException(where + "." + field + " is required");
    }
    return value.asText();
  }

  /** Google parses options as a proto message: unknown fields are an error, not ignored. */
  private static void unknownFields(JsonNode node, Set<String> known, String where) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!known.contains(name)) {
        throw new IllegalArgumentException(
            "Invalid JSON payload: unknown name \"" + name + "\" in " + where);
      }
    }
  }

  @Override
  public String toString() {
    return "Boundary" + rules;
  }
}
