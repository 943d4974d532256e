package dev.sluice.client.comet;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/**
 * A location in S3: a bucket and the raw segments of a key prefix (none for the bucket root).
 * Containment is by whole segments: {@code a} covers {@code a} and {@code a/b}, never {@code a_eu}.
 */
record S3Location(String bucket, List<String> segments) {
  S3Location {
    requireNonNull(bucket, "bucket");
    segments = List.copyOf(requireNonNull(segments, "segments"));
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("empty bucket name");
    }
  }

  /**
   * Parses {@code s3://bucket/key/prefix} ({@code s3a://} and {@code s3n://} too); the key is taken
   * as written, not URI-decoded, as Iceberg's S3FileIO does. Invalid segments are refused.
   */
  static S3Location parse(String uri) {
    requireNonNull(uri, "uri");
    int sep = uri.indexOf("://");
    String scheme = sep < 0 ? "" : uri.substring(0, sep).toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
      throw new IllegalArgumentException("not an s3:// location: '" + uri + "'");
    }
    String rest = uri.substring(sep + 3);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("no bucket in '" + uri + "'");
    }
    return new S3Location(bucket, ObjectPaths.segmentsOfKey(key));
  }

  /**
   * Whether {@code path} (raw segments in {@code pathBucket}) is this location or lies below it.
   */
  boolean covers(String pathBucket, List<String> path) {
    return bucket.equals(pathBucket)
        && path.size() >= segments.size()
        && path.subList(0, segments.size()).equals(segments);
  }

  boolean isBucketRoot() {
    return segments.isEmpty();
  }

  /** The location as Comet's {@code getPolicyLocations} wants it: encoded, no scheme or bucket. */
  String policyLocation() {
    return ObjectPaths.encodePath(segments);
  }

  @Override
  public String toString() {
    return "s3://" + bucket + "/" + String.join("/", segments);
  }
}
