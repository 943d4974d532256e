package dev.sluice.vending.gcs;

import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule.AvailabilityCondition;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ObjectPrefix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Credential Access Boundary for one table: per bucket, a read rule ({@code legacyObjectReader}
 * + {@code objectViewer}) and, for writers, a write rule ({@code objectUser}: create, overwrite and
 * delete objects, never their IAM policy as {@code objectAdmin} could), both conditioned on the
 * table's object prefixes: {@code resource.name} for objects, the list request's {@code
 * objectListPrefix} for listing. Prefixes end in {@code /}, so {@code t} never covers {@code t2}.
 * The source account's own IAM stays the outer bound.
 */
public final class AccessBoundaryBuilder {
  /**
   * Google documents 10 rules per boundary; google-auth 1.57 refuses a list of 10 or more, so one
   * rule per bucket allows 9 buckets.
   */
  static final int MAX_BUCKETS = 9;

  static final List<String> READ_ROLES =
      List.of("inRole:roles/storage.legacyObjectReader", "inRole:roles/storage.objectViewer");
  static final List<String> WRITE_ROLES = List.of("inRole:roles/storage.objectUser");
  private static final String LIST_PREFIX =
      "api.getAttribute('storage.googleapis.com/objectListPrefix', '')";

  /** Google documents at most 2,048 characters for a rule's availability condition. */
  static final int MAX_CONDITION_CHARS = 2048;

  private AccessBoundaryBuilder() {}

  /**
   * Why {@code location} cannot go into a boundary's condition: a quote would end the CEL string
   * literal it is written into (backslashes and control characters are refused for every backend).
   */
  public static Optional<String> unsafe(String location) {
    if (location.indexOf('\'') >= 0 || location.indexOf('"') >= 0) {
      return Optional.of("quote (ends the access boundary's condition string)");
    }
    return Optional.empty();
  }

  /** Why a table's locations ({@code location} first) cannot share one boundary, or empty. */
  public static Optional<String> unscopable(List<String> locations) {
    return unscopable(LocationPolicy.locationsByPosition(locations));
  }

  /** As {@link #unscopable(List)}, naming each location by its property. */
  public static Optional<String> unscopable(Map<String, String> locationsByProperty) {
    Map<String, ObjectPrefix> byName = new LinkedHashMap<>();
    locationsByProperty.forEach((name, location) -> byName.put(name, ObjectPrefix.of(location)));
    for (Map.Entry<String, ObjectPrefix> entry : byName.entrySet()) {
      if (entry.getValue().isBucketRoot()) {
        return Optional.of(
            entry.getKey()
                + " is the root of bucket "
                + entry.getValue().bucket()
                + ": a GCS access boundary is scoped to object prefixes, never a whole bucket");
      }
    }
    long buckets = byName.values().stream().map(ObjectPrefix::bucket).distinct().count();
    if (buckets > MAX_BUCKETS) {
      return Optional.of(
          "the locations span "
              + buckets
              + " buckets; one GCS access boundary covers at most "
              + MAX_BUCKETS);
    }
    return Optional.empty();
  }

  /** The boundary for {@code locations} in {@code mode}; they must not be {@link #unscopable}. */
  public static CredentialAccessBoundary build(List<String> locations, AccessMode mode) {
    return build(locations, List.of(), mode);
  }

  /**
   * As above, also allowing exactly {@code objects} (a scan plan's files, read-only): each by a
   * {@code resource.name ==} clause in its bucket's rule, with no listing for them.
   */
  public static CredentialAccessBoundary build(
      List<String> locations, List<String> objects, AccessMode mode) {
    CredentialAccessBoundary.Builder boundary = CredentialAccessBoundary.newBuilder();
    conditions(locations, objects, mode)
        .forEach(
            (bucket, condition) -> {
              List<String> roles = new ArrayList<>(READ_ROLES);
              if (mode == AccessMode.READ_WRITE) {
                roles.addAll(WRITE_ROLES);
              }
              boundary.addRule(rule(bucket, roles, condition));
            });
    return boundary.build();
  }

  /**
   * Whether one boundary can express {@code locations} and {@code objects}: at most {@link
   * #MAX_BUCKETS} rules, each condition within {@link #MAX_CONDITION_CHARS}.
   */
  public static boolean fits(List<String> locations, List<String> objects, AccessMode mode) {
    try {
      return conditions(locations, objects, mode).values().stream()
          .allMatch(condition -> condition.length() <= MAX_CONDITION_CHARS);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Each bucket's condition, by bucket. */
  private static Map<String, String> conditions(
      List<String> locations, List<String> objects, AccessMode mode) {
    if (!locations.isEmpty()) {
      unscopable(locations)
          .ifPresent(
              why -> {
                throw new IllegalArgumentException(why);
              });
    }
    if (!objects.isEmpty() && mode != AccessMode.READ) {
      throw new IllegalArgumentException("Exact objects are granted only for reading");
    }
    Map<String, List<String>> prefixesByBucket = new TreeMap<>();
    ObjectPrefix.folded(locations)
        .forEach(
            p ->
                prefixesByBucket
                    .computeIfAbsent(p.bucket(), b -> new ArrayList<>())
                    .add(p.prefix()));
    Map<String, List<String>> objectsByBucket = new TreeMap<>();
    for (String object : objects) {
      StorageLocation parsed = StorageLocation.parse(object);
      if (parsed.segments().isEmpty()) {
        throw new IllegalArgumentException("Not an object: " + object);
      }
      objectsByBucket
          .computeIfAbsent(parsed.authority(), b -> new ArrayList<>())
          .add(String.join("/", parsed.segments()));
    }
    java.util.TreeSet<String> buckets = new java.util.TreeSet<>(prefixesByBucket.keySet());
    buckets.addAll(objectsByBucket.keySet());
    if (buckets.size() > MAX_BUCKETS) {
      throw new IllegalArgumentException(
          buckets.size() + " buckets; one GCS access boundary covers at most " + MAX_BUCKETS);
    }
    Map<String, String> conditions = new TreeMap<>();
    for (String bucket : buckets) {
      conditions.put(
          bucket,
          condition(
              bucket,
              prefixesByBucket.getOrDefault(bucket, List.of()),
              objectsByBucket.getOrDefault(bucket, List.of()).stream()
                  .distinct()
                  .sorted()
                  .toList()));
    }
    return conditions;
  }

  /** The objects under the prefixes, or a list request for a prefix under them. */
  static String condition(String bucket, List<String> prefixes) {
    return condition(bucket, prefixes, List.of());
  }

  /** As above, and each of {@code keys} exactly. */
  static String condition(String bucket, List<String> prefixes, List<String> keys) {
    StringBuilder expression = new StringBuilder();
    for (String prefix : prefixes) {
      append(expression, "resource.name.startsWith(" + literal(objectName(bucket, prefix)) + ")");
    }
    for (String key : keys) {
      append(expression, "resource.name == " + objectLiteral(objectName(bucket, key)));
    }
    for (String prefix : prefixes) {
      append(expression, LIST_PREFIX + ".startsWith(" + literal(prefix) + ")");
    }
    return expression.toString();
  }

  private static void append(StringBuilder expression, String clause) {
    if (!expression.isEmpty()) {
      expression.append(" || ");
    }
    expression.append(clause);
  }

  private static String objectName(String bucket, String prefix) {
    return "projects/_/buckets/" + bucket + "/objects/" + prefix;
  }

  /** A CEL string literal; locations with a quote or backslash never get here ({@link #unsafe}). */
  private static String literal(String text) {
    if (text.indexOf('\'') >= 0 || text.indexOf('\\') >= 0 || !text.endsWith("/")) {
      throw new IllegalArgumentException("Cannot write a condition for prefix " + text);
    }
    return "'" + text + "'";
  }

  /** A CEL string literal naming one object; quotes and backslashes never get here. */
  private static String objectLiteral(String text) {
    if (text.indexOf('\'') >= 0 || text.indexOf('\\') >= 0 || text.endsWith("/")) {
      throw new IllegalArgumentException("Cannot write a condition for object " + text);
    }
    return "'" + text + "'";
  }

  private static AccessBoundaryRule rule(String bucket, List<String> roles, String condition) {
    AccessBoundaryRule.Builder rule =
        AccessBoundaryRule.newBuilder()
            .setAvailableResource("//storage.googleapis.com/projects/_/buckets/" + bucket)
            .setAvailabilityCondition(
                AvailabilityCondition.newBuilder().setExpression(condition).build());
    roles.forEach(rule::addAvailablePermission);
    return rule.build();
  }
}
