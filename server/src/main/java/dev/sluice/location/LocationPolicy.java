package dev.sluice.location;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * The catalog's allowedLocations, applied to every location a table or namespace names. Checked on
 * create, register and every commit: a property that moves data or metadata outside the allowed
 * area is refused before anything is written.
 */
public final class LocationPolicy {
  /** Every table property that names where files go; newer ones belong here too. */
  public static final List<String> LOCATION_PROPERTIES =
      List.of(
          TableProperties.WRITE_DATA_LOCATION,
          TableProperties.WRITE_METADATA_LOCATION,
          TableProperties.OBJECT_STORE_PATH,
          TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  /**
   * A table's or view's {@code location} and each location-bearing property it sets, distinct, in
   * that order.
   */
  public static List<String> locationsOf(String location, Map<String, String> properties) {
    java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>();
    all.add(location);
    for (String key : LOCATION_PROPERTIES) {
      String value = properties.get(key);
      if (value != null) {
        all.add(value);
      }
    }
    return List.copyOf(all);
  }

  /**
   * The same locations keyed by what names them ({@code location}, then each {@code write.*.path}
   * set), for messages that name the property.
   */
  public static Map<String, String> locationsByProperty(
      String location, Map<String, String> properties) {
    Map<String, String> byProperty = new java.util.LinkedHashMap<>();
    byProperty.put("location", location);
    for (String key : LOCATION_PROPERTIES) {
      if (properties.get(key) != null) {
        byProperty.put(key, properties.get(key));
      }
    }
    return byProperty;
  }

  /**
   * Locations named by position for messages: {@code location} for the first (the table's own),
   * then {@code location 2}, {@code location 3}, ...
   */
  public static Map<String, String> locationsByPosition(List<String> locations) {
    Map<String, String> byName = new java.util.LinkedHashMap<>();
    for (int i = 0; i < locations.size(); i++) {
      byName.put(i == 0 ? "location" : "location " + (i + 1), locations.get(i));
    }
    return byName;
  }

  private final String catalog;
  private final List<StorageLocation> allowed;

  public LocationPolicy(String catalog, List<String> allowedLocations) {
    this.catalog = catalog;
    this.allowed = allowedLocations.stream().map(StorageLocation::parse).toList();
  }

  public List<StorageLocation> allowed() {
    return allowed;
  }

  /** True when {@code location} parses and an allowed location covers it. */
  public boolean allows(String location) {
    return StorageLocation.anyCovers(allowed, location);
  }

  /** Refuses {@code location} unless an allowed location covers it and it tries no escape. */
  public void check(String what, String location) {
    java.util.Optional<String> escape = LocationSafety.escapes(location);
    if (escape.isPresent()) {
      throw new ForbiddenException("Invalid location for %s: %s", what, escape.get());
    }
    if (allows(location)) {
      return;
    }
    throw new ForbiddenException(
        "Invalid location '%s' for %s: not in the allowed locations of catalog %s %s",
        location, what, catalog, allowed);
  }

  /** Checks a table's base location and every location-bearing property. */
  public void checkTable(String what, String location, Map<String, String> properties) {
    check(what, location);
    for (String key : LOCATION_PROPERTIES) {
      String value = properties.get(key);
      if (value != null) {
        check(what + " (" + key + ")", value);
      }
    }
  }
}
