package dev.sluice.catalog;

import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.LocationClaim;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every location a table or view writes to: its {@code location} and each location-bearing property
 * ({@link LocationPolicy#LOCATION_PROPERTIES}). These are what it claims in the store, what a
 * credential for it is scoped to, and the only places a server-side delete may touch. Built only
 * from locations that parse (callers check them with {@link LocationPolicy} first).
 */
record ContentLocations(List<StorageLocation> all) {
  ContentLocations {
    all = List.copyOf(new LinkedHashSet<>(all));
  }

  static ContentLocations of(String location, Map<String, String> properties) {
    return new ContentLocations(
        LocationPolicy.locationsOf(location, properties).stream()
            .map(StorageLocation::parse)
            .toList());
  }

  /** Locations here that {@code previous} does not have (all of them when it is null). */
  List<StorageLocation> addedSince(ContentLocations previous) {
    if (previous == null) {
      return all;
    }
    Set<StorageLocation> before = Set.copyOf(previous.all);
    return all.stream().filter(l -> !before.contains(l)).toList();
  }

  boolean sameAs(ContentLocations other) {
    return other != null && Set.copyOf(all).equals(Set.copyOf(other.all));
  }

  boolean covers(String path) {
    return StorageLocation.anyCovers(all, path);
  }

  List<LocationClaim> claims() {
    return all.stream().map(l -> new LocationClaim(l.ancestorKeys())).toList();
  }

  ContentLocations plus(ContentLocations other) {
    List<StorageLocation> both = new ArrayList<>(all);
    if (other != null) {
      both.addAll(other.all);
    }
    return new ContentLocations(both);
  }
}
