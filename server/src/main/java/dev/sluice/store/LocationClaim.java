package dev.sluice.store;

import java.util.List;

/**
 * One location a table or view claims, as the keys of its ancestry: the storage root first, the
 * location itself last (keys end in {@code /}, see {@code StorageLocation.key()}).
 */
public record LocationClaim(List<String> ancestry) {
  public LocationClaim {
    ancestry = List.copyOf(ancestry);
    if (ancestry.isEmpty()) {
      throw new IllegalArgumentException("A location claim needs at least its root");
    }
  }

  public String key() {
    return ancestry.get(ancestry.size() - 1);
  }

  public String root() {
    return ancestry.get(0);
  }
}
