package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.SortedMap;

/**
 * What to vend: the prefixes (the table's locations, or a plan's narrower directories; already
 * checked safe and inside allowedLocations) and the exact objects the credential covers, the access
 * mode, and who asks (for the session name and tags attributed to the credential).
 *
 * @param locations prefixes: everything under each is covered
 * @param objects exact object locations (a scan plan's files); empty for none. A request with
 *     objects is always {@link AccessMode#READ}: plans only read.
 */
public record VendingRequest(
    String tableLocation,
    List<String> locations,
    List<String> objects,
    AccessMode mode,
    String principal,
    SortedMap<String, String> attribution) {
  public VendingRequest {
    requireNonNull(tableLocation, "tableLocation");
    locations = List.copyOf(locations);
    objects = List.copyOf(objects);
    requireNonNull(mode, "mode");
    if (!objects.isEmpty() && mode != AccessMode.READ) {
      throw new IllegalArgumentException(
          "A request for exact objects is read-only, not " + mode + ": " + objects.get(0));
    }
    if (locations.isEmpty() && objects.isEmpty()) {
      throw new IllegalArgumentException("A vending request names no location and no object");
    }
    requireNonNull(principal, "principal");
    attribution = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(attribution));
  }

  /**
   * The prefixes the vended credentials are offered under: the table's location for a table's
   * request (its locations include it), else the longest common directory of the objects and
   * prefixes in each storage root, so an engine matches a plan's credential to the plan's files.
   */
  public List<String> credentialPrefixes() {
    if (objects.isEmpty() && locations.contains(tableLocation)) {
      return List.of(tableLocation);
    }
    return FileScopes.commonDirectories(objects, locations);
  }

  /** A request for prefixes only (a table's locations). */
  public VendingRequest(
      String tableLocation,
      List<String> locations,
      AccessMode mode,
      String principal,
      SortedMap<String, String> attribution) {
    this(tableLocation, locations, List.of(), mode, principal, attribution);
  }
}
