package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a storage request would touch, as its backend parsed it: the paths ({@code <bucket>/<key>}
 * of an object, or {@code <bucket>/<prefix>} of a listing, never decoded twice and never
 * normalised), whether they are listing prefixes, the access the request needs, and a short name of
 * the operation for messages and the audit trail.
 */
public record RequestTarget(
    List<String> paths, boolean listing, AccessMode needed, String operation) {
  public RequestTarget {
    paths = List.copyOf(paths);
    requireNonNull(needed, "needed");
    requireNonNull(operation, "operation");
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("A request target names at least one path");
    }
  }

  /**
   * True when every path lies inside one of {@code locationKeys}, the table's claimed locations
   * ({@code scheme://bucket/seg/…/}, each ending in '/'). A path must start with a whole key, so
   * {@code wh/t2/x} is not inside {@code wh/t/}, and a listing prefix {@code wh/t} (which would
   * also match {@code wh/t2/…}) is inside nothing.
   */
  public boolean within(List<String> locationKeys) {
    for (String path : paths) {
      boolean inside = false;
      for (String key : locationKeys) {
        int scheme = key.indexOf("://");
        String bucketAndPrefix = scheme < 0 ? key : key.substring(scheme + 3);
        if (bucketAndPrefix.endsWith("/") && path.startsWith(bucketAndPrefix)) {
          inside = true;
          break;
        }
      }
      if (!inside) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when this is a read of objects only (no listing, no write), each one of {@code objects}
   * exactly ({@code scheme://bucket/key}; the scheme is not compared, as {@code s3a://} and {@code
   * s3://} name the same object).
   */
  public boolean readsOnly(java.util.Set<String> objects) {
    if (listing || needed != AccessMode.READ) {
      return false;
    }
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (String object : objects) {
      int scheme = object.indexOf("://");
      keys.add(scheme < 0 ? object : object.substring(scheme + 3));
    }
    return keys.containsAll(paths);
  }
}
