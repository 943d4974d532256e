package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SortedMap;

/**
 * What to vend: the table's locations (already checked safe and inside allowedLocations), the
 * access mode, and who asks (for the session name and tags attributed to the credential).
 */
public record VendingRequest(
    String tableLocation,
    List<String> locations,
    AccessMode mode,
    String principal,
    SortedMap<String, String> attribution) {
  public VendingRequest {
    requireNonNull(tableLocation, "tableLocation");
    locations = List.copyOf(locations);
    requireNonNull(mode, "mode");
    requireNonNull(principal, "principal");
    attribution = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(attribution));
  }
}
