package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.CatalogSettings;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.location.LocationNames;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.LocationConflict;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.RemoteClaimHolder;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sluice's location rules for the tables of a federated catalog, whose metadata the remote keeps:
 * before a create, register or commit is forwarded, and before anything is vended or signed for a
 * loaded table, each of its locations ({@code location} and every location-bearing property) must
 * be
 *
 * <ul>
 *   <li><b>confined</b>: inside the catalog's allowedLocations, trying no escape ({@link
 *       LocationPolicy});
 *   <li><b>structured</b>: in its own folder, its namespace's location (the remote namespace's
 *       {@code location} property, else the catalog's base location plus the namespace's path) plus
 *       its name as one escaped segment, so that no two tables of one namespace have folders that
 *       equal or hold each other. A table {@code a.b} whose folder is that of namespace {@code a.b}
 *       is refused while that namespace exists. Claims are taken lazily (below), so this rule, not
 *       the claims, is what keeps a table placed first over a neighbour's folder that Sluice never
 *       checked from being vended it. A catalog that allows unstructured locations skips it;
 *   <li><b>non-overlapping</b>: claimed in Sluice's store ({@link Store#claimRemoteLocations}), so
 *       that no other table or view of any catalog, internal or federated, covers or lies inside
 *       it. A conflicting claim of another table of this same catalog that the remote no longer
 *       holds there (dropped or moved behind Sluice's back) is released, and the claim made again.
 * </ul>
 */
final class RemoteLocationRules {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteLocationRules.class);

  /** Which rule a table breaks, for the audit trail and the caller. */
  enum Rule {
    CONFINED,
    STRUCTURED,
    NON_OVERLAPPING
  }

  /** A broken rule: which, and why (no other table is named). */
  record Breach(Rule rule, String why) {
    String describe() {
      return "location rule " + rule.name().toLowerCase(java.util.Locale.ROOT) + ": " + why;
    }
  }

  private final Store store;
  private final CatalogSettings settings;
  private final LocationPolicy policy;
  private final FederatedNamespaces namespaces;
  private final RemoteTables tables;

  RemoteLocationRules(
      Store store, CatalogSettings settings, FederatedNamespaces namespaces, RemoteTables tables) {
    this.store = requireNonNull(store, "store");
    this.settings = requireNonNull(settings, "settings");
    this.policy = settings.locationPolicy();
    this.namespaces = requireNonNull(namespaces, "namespaces");
    this.tables = requireNonNull(tables, "tables");
  }

  /**
   * Where a namespace's tables go: its remote {@code location} property, else its parent's (the
   * catalog's base location at the top) plus its name as one escaped segment.
   */
  String namespaceLocation(Namespace namespace) {
    Optional<String> explicit = namespaces.location(namespace);
    if (explicit.isPresent()) {
      return stripSlash(explicit.get());
    }
    if (namespace.isEmpty()) {
      return stripSlash(settings.defaultBaseLocation());
    }
    Namespace parent = Namespace.of(Arrays.copyOf(namespace.levels(), namespace.length() - 1));
    String parentLocation =
        parent.isEmpty() ? stripSlash(settings.defaultBaseLocation()) : namespaceLocation(parent);
    return parentLocation + "/" + LocationNames.segment(namespace.level(namespace.length() - 1));
  }

  /** A table's own folder, where a create that names no location puts it: see {@link #check}. */
  String defaultLocation(TableIdentifier table) {
    return namespaceLocation(table.namespace()) + "/" + LocationNames.segment(table.name());
  }

  /** The first rule a table at {@code location} with {@code properties} breaks, or empty. */
  Optional<Breach> check(TableIdentifier table, String location, Map<String, String> properties) {
    return check(table, location, properties, java.util.Set.of());
  }

  /**
   * As {@link #check(TableIdentifier, String, Map)} for a commit from a table that held {@code
   * held}: locations it already had are not checked against the structure again (a namespace that
   * moved later does not stop its tables from committing), as for an internal table.
   */
  Optional<Breach> check(
      TableIdentifier table,
      String location,
      Map<String, String> properties,
      java.util.Set<String> held) {
    Optional<Breach> shape = checkShape(table, location, properties, held);
    if (shape.isPresent()) {
      return shape;
    }
    return claim(table, claimsOf(location, properties));
  }

  /** Confined and structured, claiming nothing (a staged create, a metadata file to register). */
  Optional<Breach> checkShape(
      TableIdentifier table, String location, Map<String, String> properties) {
    return checkShape(table, location, properties, java.util.Set.of());
  }

  private Optional<Breach> checkShape(
      TableIdentifier table,
      String location,
      Map<String, String> properties,
      java.util.Set<String> held) {
    String what = "table " + table;
    try {
      policy.checkTable(what, location, properties);
    } catch (RuntimeException e) {
      return Optional.of(new Breach(Rule.CONFINED, e.getMessage()));
    }
    Optional<String> unusable = settings.storage().unusableLocations(location, properties);
    if (unusable.isPresent()) {
      return Optional.of(new Breach(Rule.CONFINED, unusable.get()));
    }
    if (settings.allowUnstructuredLocations()) {
      return Optional.empty();
    }
    List<String> added =
        LocationPolicy.locationsOf(location, properties).stream()
            .filter(l -> !held.contains(StorageLocation.parse(l).key()))
            .toList();
    if (added.isEmpty()) {
      return Optional.empty();
    }
    String container = defaultLocation(table);
    StorageLocation outer = StorageLocation.parse(container);
    for (String each : added) {
      if (!outer.covers(StorageLocation.parse(each))) {
        return Optional.of(
            new Breach(
                Rule.STRUCTURED,
                String.format(
                    "location '%s' of %s is not in its own folder %s (a federated table is vended"
                        + " only there)",
                    each, what, container)));
      }
    }
    String[] levels = Arrays.copyOf(table.namespace().levels(), table.namespace().length() + 1);
    levels[levels.length - 1] = table.name();
    Namespace sameFolder = Namespace.of(levels);
    if (namespaces.exists(sameFolder)) {
      return Optional.of(
          new Breach(
              Rule.STRUCTURED,
              String.format(
                  "the folder %s of %s is that of namespace %s, whose tables lie in it",
                  container, what, sameFolder)));
    }
    return Optional.empty();
  }

  /** A metadata file to register: confined and below its namespace, before the remote reads it. */
  Optional<Breach> checkMetadataFile(TableIdentifier table, String metadataFile) {
    return checkShape(table, metadataFile, Map.of());
  }

  /**
   * Claims the table's locations; on a conflict with a stale claim of another table of this catalog
   * (the remote no longer has it there), releases that claim and tries once more.
   */
  private Optional<Breach> claim(TableIdentifier table, List<LocationClaim> claims) {
    NamespacePath ns = path(table.namespace());
    Optional<LocationConflict> conflict =
        store.claimRemoteLocations(settings.name(), ns, table.name(), claims);
    if (conflict.isPresent() && releasedStale(conflict.get())) {
      conflict = store.claimRemoteLocations(settings.name(), ns, table.name(), claims);
    }
    return conflict.map(
        c -> {
          LOG.info(
              "Federated table {}.{}: location {} overlaps claimed location {}",
              settings.name(),
              table,
              c.location(),
              c.claimed());
          return new Breach(
              Rule.NON_OVERLAPPING,
              String.format(
                  "location '%s' overlaps the location of another table or view", c.location()));
        });
  }

  /**
   * True when the conflicting claim was another table's of this catalog that is gone from there.
   */
  private boolean releasedStale(LocationConflict conflict) {
    Optional<RemoteClaimHolder> holder = store.remoteClaimHolder(conflict.claimed());
    if (holder.isEmpty() || !holder.get().catalog().equals(settings.name())) {
      return false;
    }
    RemoteClaimHolder h = holder.get();
    TableIdentifier other =
        TableIdentifier.of(Namespace.of(h.ns().levels().toArray(String[]::new)), h.name());
    boolean stale;
    try {
      TableMetadata metadata = tables.load(other).tableMetadata();
      stale =
          claimsOf(metadata.location(), metadata.properties()).stream()
              .noneMatch(c -> c.key().equals(conflict.claimed()));
    } catch (NoSuchTableException e) {
      stale = true;
    }
    if (stale) {
      LOG.info(
          "Releasing the stale claims of federated table {}.{}: the remote no longer holds it at {}",
          settings.name(),
          other,
          conflict.claimed());
      store.releaseRemoteLocations(settings.name(), h.ns(), h.name());
    }
    return stale;
  }

  /** Forgets the claims of a table dropped or renamed through Sluice. */
  void release(TableIdentifier table) {
    store.releaseRemoteLocations(settings.name(), path(table.namespace()), table.name());
  }

  /** The location keys of a loaded table, once it passes every rule; a refusal otherwise. */
  List<String> vendableKeys(TableIdentifier table, LoadTableResponse loaded) {
    TableMetadata metadata = loaded.tableMetadata();
    Optional<Breach> breach = check(table, metadata.location(), metadata.properties());
    if (breach.isPresent()) {
      throw new RemoteErrors.Refused(
          "No storage access for federated table " + table + ": " + breach.get().describe());
    }
    return SluiceCatalog.locationKeysOf(metadata);
  }

  static List<LocationClaim> claimsOf(String location, Map<String, String> properties) {
    List<LocationClaim> out = new ArrayList<>();
    for (String key : SluiceCatalog.locationKeysOf(location, properties)) {
      out.add(new LocationClaim(StorageLocation.parse(key).ancestorKeys()));
    }
    return out;
  }

  static NamespacePath path(Namespace namespace) {
    return new NamespacePath(List.of(namespace.levels()));
  }

  private static String stripSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }
}
