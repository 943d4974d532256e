package dev.sluice.vending.r2;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.vending.ObjectPrefix;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one R2 temporary credential can be scoped to: one bucket and key prefixes, each ending in
 * {@code /} (so {@code db/t/} never covers {@code db/t2/}), deduplicated, nested ones folded. A
 * table whose locations do not fit (a bucket root, two buckets) has no scope: it is refused at
 * create and commit, and never answered with a bucket-wide credential.
 */
record R2Scope(String bucket, List<String> prefixPaths, List<String> objectPaths) {
  R2Scope {
    requireNonNull(bucket, "bucket");
    prefixPaths = List.copyOf(prefixPaths);
    objectPaths = List.copyOf(objectPaths);
  }

  /**
   * The scope of prefixes ({@code locations}, which must have no {@link #problem}; may be empty)
   * and exact objects (a scan plan's files), all in one bucket.
   */
  static R2Scope of(List<String> locations, List<String> objects) {
    if (objects.isEmpty()) {
      return of(locations);
    }
    R2Scope prefixes = locations.isEmpty() ? null : of(locations);
    String bucket = prefixes == null ? null : prefixes.bucket();
    List<String> keys = new java.util.ArrayList<>();
    for (String object : objects) {
      StorageLocation parsed = StorageLocation.parse(object);
      if (bucket == null) {
        bucket = parsed.authority();
      } else if (!bucket.equals(parsed.authority())) {
        throw new IllegalArgumentException(
            object + " is not in bucket " + bucket + ": one R2 credential covers one bucket");
      }
      if (parsed.segments().isEmpty()) {
        throw new IllegalArgumentException("Not an object: " + object);
      }
      keys.add(String.join("/", parsed.segments()));
    }
    return new R2Scope(
        bucket,
        prefixes == null ? List.of() : prefixes.prefixPaths(),
        keys.stream().distinct().sorted().toList());
  }

  /** Why a table's locations ({@code location} first) cannot share one credential, or empty. */
  static Optional<String> problem(List<String> locations) {
    return problem(LocationPolicy.locationsByPosition(locations));
  }

  /** The scope of a table's locations; they must have no {@link #problem}. */
  static R2Scope of(List<String> locations) {
    problem(locations)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(why);
            });
    String bucket = StorageLocation.parse(locations.get(0)).authority();
    List<String> folded =
        ObjectPrefix.folded(locations).stream().map(ObjectPrefix::prefix).toList();
    return new R2Scope(bucket, folded, List.of());
  }

  /**
   * Why locations named by property ({@code location} first) cannot share one R2 credential, naming
   * the property; empty when they can.
   */
  static Optional<String> problem(Map<String, String> locationsByProperty) {
    String bucket = null;
    String first = null;
    for (Map.Entry<String, String> entry : locationsByProperty.entrySet()) {
      StorageLocation parsed = StorageLocation.parse(entry.getValue());
      if (parsed.segments().isEmpty()) {
        return Optional.of(
            entry.getKey()
                + " is the root of bucket "
                + parsed.authority()
                + ": an R2 credential is scoped to key prefixes, never to a whole bucket");
      }
      if (bucket == null) {
        bucket = parsed.authority();
        first = entry.getKey();
      } else if (!bucket.equals(parsed.authority())) {
        return Optional.of(
            entry.getKey()
                + " is in bucket "
                + parsed.authority()
                + " but "
                + first
                + " is in bucket "
                + bucket
                + ": one R2 credential covers one bucket");
      }
    }
    return Optional.empty();
  }
}
