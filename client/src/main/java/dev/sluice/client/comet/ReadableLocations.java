package dev.sluice.client.comet;

import static java.util.Objects.requireNonNull;

import dev.sluice.client.ReadableTable;
import dev.sluice.client.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The locations in one bucket of the tables a principal may read, and which table owns a path: the
 * table with the longest location covering it, compared segment by segment. A location Comet could
 * not use (an invalid segment) is left out with a warning rather than failing every read in the
 * bucket; paths under it then belong to no table and are refused.
 */
final class ReadableLocations {
  private static final Logger LOG = Logger.getLogger(ReadableLocations.class.getName());

  /** A location and the table it belongs to. */
  record Owned(S3Location location, TableRef table) {}

  private final String bucket;
  private final List<Owned> owned;

  private ReadableLocations(String bucket, List<Owned> owned) {
    this.bucket = bucket;
    this.owned = List.copyOf(owned);
  }

  static ReadableLocations of(String bucket, List<ReadableTable> tables) {
    requireNonNull(bucket, "bucket");
    List<Owned> owned = new ArrayList<>();
    for (ReadableTable table : tables) {
      for (String uri : table.locations()) {
        S3Location location;
        try {
          location = S3Location.parse(uri);
        } catch (IllegalArgumentException e) {
          LOG.log(
              Level.WARNING,
              "Ignoring location {0} of table {1}: {2}",
              new Object[] {uri, table.table(), e.getMessage()});
          continue;
        }
        if (location.bucket().equals(bucket)) {
          owned.add(new Owned(location, table.table()));
        }
      }
    }
    return new ReadableLocations(bucket, owned);
  }

  /** The table whose location is the longest one covering {@code path}; empty if none does. */
  Optional<Owned> owner(List<String> path) {
    Owned best = null;
    for (Owned o : owned) {
      if (o.location().covers(bucket, path)
          && (best == null || o.location().segments().size() > best.location().segments().size())) {
        best = o;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Every location but the bucket root (Comet's root needs no entry), encoded, without duplicates,
   * in Sluice's order.
   */
  List<String> policyLocations() {
    Set<String> out = new LinkedHashSet<>();
    for (Owned o : owned) {
      if (!o.location().isBucketRoot()) {
        out.add(o.location().policyLocation());
      }
    }
    return List.copyOf(out);
  }

  int size() {
    return owned.size();
  }

  String bucket() {
    return bucket;
  }
}
