package dev.sluice.vending.gcs;

import com.google.auth.oauth2.CredentialAccessBoundary;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule;
import com.google.auth.oauth2.CredentialAccessBoundary.AccessBoundaryRule.AvailabilityCondition;
import dev.sluice.location.LocationPolicy;
import dev.sluice.vending.AccessMode;
import dev.sluice.vending.ObjectPrefix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
    unscopable(locations)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(why);
            });
    Map<String, List<String>> prefixesByBucket =
        ObjectPrefix.folded(locations).stream()
            .collect(
                Collectors.groupingBy(
                    ObjectPrefix::bucket,
                    TreeMap::new,
                    Collectors.mapping(ObjectPrefix::prefix, Collectors.toList())));
    CredentialAccessBoundary.Builder boundary = CredentialAccessBoundary.newBuilder();
    prefixesByBucket.forEach(
        (bucket, prefixes) -> {
          List<String> roles = new ArrayList<>(READ_ROLES);
          if (mode == AccessMode.READ_WRITE) {
            roles.addAll(WRITE_ROLES);
          }
          boundary.addRule(rule(bucket, roles, condition(bucket, prefixes)));
        });
    return boundary.build();
  }

  /** The objects under the prefixes, or a list request for a prefix under them. */
  static String condition(String bucket, List<String> prefixes) {
    StringBuilder expression = new StringBuilder();
    for (String prefix : prefixes) {
      append(expression, "resource.name.startsWith(" + literal(objectName(bucket, prefix)) + ")");
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
