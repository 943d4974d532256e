package dev.sluice.vending.azure;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one SAS covers: a directory (hierarchical namespace) or, where the operator allowed it, a
 * whole container, in one account. Iceberg's ADLSFileIO takes exactly one SAS per account, so a
 * table's locations must fold into one directory (or one container) per account; a container root
 * is never a table's directory.
 *
 * @param location the directory or container the SAS is for
 * @param container true for a container SAS ({@code sr=c}), false for a directory SAS ({@code
 *     sr=d})
 */
record SasScope(AzureLocation location, boolean container) {
  SasScope {
    requireNonNull(location, "location");
  }

  /** The location string this scope is for: the credential's prefix. */
  String prefix(String scheme) {
    String base = scheme + "://" + location.container() + "@" + location.host();
    return container ? base : base + "/" + location.directory();
  }

  /** Why a table's locations ({@code location} first) cannot be covered, or empty. */
  static Optional<String> problem(List<String> locations, boolean containerScope) {
    try {
      of(locations, containerScope);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** One scope per account, sorted by host; an {@link IllegalArgumentException} names the cause. */
  static List<SasScope> of(List<String> locations, boolean containerScope) {
    return of(LocationPolicy.locationsByPosition(locations), containerScope);
  }

  /** As {@link #problem(List, boolean)}, naming each location by its property. */
  static Optional<String> problem(Map<String, String> locationsByProperty, boolean containerScope) {
    try {
      of(locationsByProperty, containerScope);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static List<SasScope> of(Map<String, String> locationsByName, boolean containerScope) {
    Map<String, AzureLocation> byName = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : locationsByName.entrySet()) {
      try {
        byName.put(entry.getKey(), AzureLocation.parse(entry.getValue()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(entry.getKey() + ": " + e.getMessage());
      }
    }
    Map<String, String> firstByHost = new LinkedHashMap<>();
    Map<String, AzureLocation> widest = new LinkedHashMap<>();
    for (Map.Entry<String, AzureLocation> entry : byName.entrySet()) {
      AzureLocation l = entry.getValue();
      if (l.isContainerRoot()) {
        throw new IllegalArgumentException(
            entry.getKey()
                + " is the root of container "
                + l.container()
                + ": a table's credential never covers a whole container by its location");
      }
      AzureLocation scope =
          containerScope ? new AzureLocation(l.container(), l.host(), l.account(), List.of()) : l;
      AzureLocation kept = widest.get(l.host());
      if (kept == null) {
        widest.put(l.host(), scope);
        firstByHost.put(l.host(), entry.getKey());
      } else if (scope.covers(kept)) {
        widest.put(l.host(), scope);
      } else if (!kept.covers(scope)) {
        throw new IllegalArgumentException(
            entry.getKey()
                + " is outside "
                + firstByHost.get(l.host())
                + (containerScope ? "'s container" : "'s directory")
                + " in account "
                + l.account()
                + ": Iceberg takes one SAS per account, which covers one "
                + (containerScope ? "container" : "directory"));
      }
    }
    List<SasScope> scopes = new ArrayList<>();
    widest.values().forEach(l -> scopes.add(new SasScope(l, containerScope)));
    scopes.sort(Comparator.comparing(s -> s.location().host()));
    return scopes;
  }
}
