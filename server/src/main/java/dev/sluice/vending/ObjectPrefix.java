package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.StorageLocation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One bucket and an object-name prefix that ends in {@code /} ({@code ""} for the bucket root), so
 * that {@code db/t/} never covers {@code db/t2/}: the unit that prefix-scoped credentials (R2's
 * paths, GCS's access boundaries) are built from.
 */
public record ObjectPrefix(String bucket, String prefix) {
  public ObjectPrefix {
    requireNonNull(bucket, "bucket");
    requireNonNull(prefix, "prefix");
    if (!prefix.isEmpty() && !prefix.endsWith("/")) {
      throw new IllegalArgumentException("Object prefix must end in '/': " + prefix);
    }
  }

  /** The location's bucket and its path segments joined, with a trailing {@code /}. */
  public static ObjectPrefix of(String location) {
    StorageLocation parsed = StorageLocation.parse(location);
    String path = String.join("/", parsed.segments());
    return new ObjectPrefix(parsed.authority(), path.isEmpty() ? "" : path + "/");
  }

  /** True when this prefix is the whole bucket. */
  public boolean isBucketRoot() {
    return prefix.isEmpty();
  }

  /** True when every object under {@code other} is under this prefix. */
  public boolean covers(ObjectPrefix other) {
    return bucket.equals(other.bucket) && other.prefix.startsWith(prefix);
  }

  /**
   * The prefixes of {@code locations}, deduplicated, nested ones folded into their parents, sorted
   * by bucket then prefix (same locations, same credential: deterministic for caching and review).
   */
  public static List<ObjectPrefix> folded(List<String> locations) {
    List<ObjectPrefix> all = new ArrayList<>();
    locations.forEach(location -> all.add(of(location)));
    all.sort(Comparator.comparing((ObjectPrefix p) -> p.prefix.length()));
    List<ObjectPrefix> folded = new ArrayList<>();
    for (ObjectPrefix candidate : all) {
      if (folded.stream().noneMatch(kept -> kept.covers(candidate))) {
        folded.add(candidate);
      }
    }
    folded.sort(Comparator.comparing(ObjectPrefix::bucket).thenComparing(ObjectPrefix::prefix));
    return folded;
  }
}
