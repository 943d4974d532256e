package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.location.LocationNames;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.LocationConflict;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Store;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a catalog's namespaces, tables and views may live, so that a credential scoped to a table
 * covers that table's files and nobody else's:
 *
 * <ul>
 *   <li>every location is inside the catalog's allowedLocations and tries no escape ({@link
 *       LocationPolicy});
 *   <li>structured: a namespace's location lies inside its parent's (the catalog's base location at
 *       the top), and every location of a table or view inside its namespace's, unless the catalog
 *       allows unstructured locations;
 *   <li>no overlap: no location of a table or view equals, contains or lies inside one that another
 *       table or view claims in the same storage, in any catalog. Checked here first (before a file
 *       is written or a credential vended), decided by the store atomically.
 * </ul>
 *
 * A namespace without a {@code location} property lives at its parent's location plus its name, and
 * a table or view at its namespace's plus its name, each name made one safe path segment by {@link
 * LocationNames}.
 */
final class LocationRules {
  private static final Logger LOG = LoggerFactory.getLogger(LocationRules.class);

  private final Store store;
  private final CatalogSettings settings;
  private final LocationPolicy policy;

  LocationRules(Store store, CatalogSettings settings) {
    this.store = requireNonNull(store, "store");
    this.settings = requireNonNull(settings, "settings");
    this.policy = settings.locationPolicy();
  }

  LocationPolicy policy() {
    return policy;
  }

  /**
   * The location a namespace's children go to: its {@code location} property, or its parent's plus
   * its name.
   */
  String namespaceLocation(Namespace namespace) {
    String location = stripSlash(settings.defaultBaseLocation());
    String[] levels = namespace.levels();
    for (int depth = 1; depth <= levels.length; depth++) {
      Namespace current = Namespace.of(Arrays.copyOf(levels, depth));
      Map<String, String> properties =
          store
              .loadNamespace(settings.name(), new NamespacePath(List.of(current.levels())))
              .orElseThrow(
                  () -> new NoSuchNamespaceException("Namespace does not exist: %s", current));
      String explicit = properties.get(SluiceCatalog.NAMESPACE_LOCATION);
      location =
          explicit != null
              ? stripSlash(explicit)
              : location + "/" + LocationNames.segment(levels[depth - 1]);
    }
    return location;
  }

  /**
   * Where a namespace lives when it has no {@code location} property: its parent's location plus
   * its name.
   */
  String defaultNamespaceLocation(Namespace namespace) {
    Namespace parent = Namespace.of(Arrays.copyOf(namespace.levels(), namespace.length() - 1));
    String parentLocation =
        parent.isEmpty() ? stripSlash(settings.defaultBaseLocation()) : namespaceLocation(parent);
    return parentLocation + "/" + LocationNames.segment(namespace.level(namespace.length() - 1));
  }

  /** The claim of a namespace at {@code location}. */
  static LocationClaim claimOf(String location) {
    return new LocationClaim(StorageLocation.parse(location).ancestorKeys());
  }

  /**
   * Its namespace's location plus its name; when a table renamed away still holds that folder (its
   * files stay where they were written), the name plus a random suffix, so a new table of the old
   * name is created instead of refused.
   */
  String defaultLocation(TableIdentifier identifier) {
    String location =
        namespaceLocation(identifier.namespace()) + "/" + LocationNames.segment(identifier.name());
    if (isFree(identifier, location)) {
      return location;
    }
    return location + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  private boolean isFree(TableIdentifier identifier, String location) {
    return store
        .findLocationConflict(
            settings.name(),
            new NamespacePath(List.of(identifier.namespace().levels())),
            identifier.name(),
            List.of(claimOf(location)))
        .isEmpty();
  }

  /** Checks a namespace's explicit {@code location} property before it is stored. */
  void checkNamespaceLocation(Namespace namespace, String location) {
    String what = "namespace " + namespace;
    policy.check(what, location);
    if (settings.allowUnstructuredLocations() || namespace.length() == 0) {
      return;
    }
    Namespace parent = Namespace.of(Arrays.copyOf(namespace.levels(), namespace.length() - 1));
    String parentLocation =
        parent.isEmpty() ? settings.defaultBaseLocation() : namespaceLocation(parent);
    requireInside(
        what,
        location,
        parentLocation,
        parent.isEmpty() ? "the catalog's base location" : "namespace " + parent,
        false);
  }

  /**
   * Checks the locations of a table or view being created ({@code previous} null) or changed, and
   * returns them. Locations it already had are not checked against the structure again: a namespace
   * that moved later does not stop its existing tables from committing.
   */
  ContentLocations checkContent(
      String what,
      TableIdentifier identifier,
      String location,
      Map<String, String> properties,
      ContentLocations previous) {
    policy.checkTable(what, location, properties);
    settings
        .storage()
        .unusableLocations(location, properties)
        .ifPresent(
            problem -> {
              throw new BadRequestException("Invalid location for %s: %s", what, problem);
            });
    ContentLocations next = ContentLocations.of(location, properties);
    List<StorageLocation> added = next.addedSince(previous);
    if (added.isEmpty()) {
      return next;
    }
    if (!settings.allowUnstructuredLocations()) {
      String namespaceLocation = namespaceLocation(identifier.namespace());
      for (StorageLocation each : added) {
        requireInside(
            what, each.toString(), namespaceLocation, "namespace " + identifier.namespace(), true);
      }
    }
    requireFree(what, identifier, next.claims());
    return next;
  }

  /**
   * Checks a metadata file to be registered as a {@code kind} ("table" or "view") before the server
   * reads it.
   */
  void checkRegisteredFile(String kind, TableIdentifier identifier, String metadataFile) {
    String what = kind + " " + identifier + " (registered metadata file)";
    policy.check(what, metadataFile);
    if (!settings.allowUnstructuredLocations()) {
      requireInside(
          what,
          metadataFile,
          namespaceLocation(identifier.namespace()),
          "namespace " + identifier.namespace(),
          true);
    }
    requireFree(
        what,
        identifier,
        List.of(new LocationClaim(StorageLocation.parse(metadataFile).ancestorKeys())));
  }

  void requireFree(String what, TableIdentifier identifier, List<LocationClaim> claims) {
    Optional<LocationConflict> conflict =
        store.findLocationConflict(
            settings.name(),
            new NamespacePath(List.of(identifier.namespace().levels())),
            identifier.name(),
            claims);
    if (conflict.isPresent()) {
      throw refusal(what, conflict.get());
    }
  }

  /** The caller's answer to an overlap: which other table holds the location is not said. */
  static ForbiddenException refusal(String what, LocationConflict conflict) {
    LOG.info(
        "Refused location {} for {}: overlaps claimed location {}",
        conflict.location(),
        what,
        conflict.claimed());
    return new ForbiddenException(
        "Invalid location '%s' for %s: it overlaps the location of another table or view",
        conflict.location(), what);
  }

  /**
   * {@code strictly}: below the container, not at it; a table at its namespace's own location would
   * cover every sibling's folder.
   */
  private static void requireInside(
      String what, String location, String container, String owner, boolean strictly) {
    StorageLocation parsed = StorageLocation.parse(location);
    StorageLocation outer = StorageLocation.parse(container);
    if (!outer.covers(parsed) || (strictly && outer.equals(parsed))) {
      throw new ForbiddenException(
          "Invalid location '%s' for %s: not %s the location of %s (%s)",
          location, what, strictly ? "below" : "inside", owner, container);
    }
  }

  static String stripSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
