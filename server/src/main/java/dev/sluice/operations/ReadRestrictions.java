package dev.sluice.operations;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.MaskAction;
import dev.sluice.catalog.TableRestriction;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Store;
import dev.sluice.store.StoredReadRestriction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The read restriction that applies to a caller on a table: those set for the caller's active
 * principal roles, combined ({@link TableRestriction#combine}) against the table's current schema.
 * A caller holding a restricted role is restricted, whatever other roles it holds (fail closed).
 * The stored restrictions are read once per table and second ({@code CACHE_TTL}); a change through
 * the management API invalidates them on this server at once ({@link #invalidate}), on other
 * replicas within the second.
 */
public final class ReadRestrictions {
  static final Duration CACHE_TTL = Duration.ofSeconds(1);

  private final Store store;
  private final Function<String, Function<TableIdentifier, Schema>> schemas;
  private final Cache<Key, List<StoredReadRestriction>> cache =
      Caffeine.newBuilder().expireAfterWrite(CACHE_TTL).maximumSize(10_000).build();

  private record Key(String catalog, NamespacePath namespace, String table) {}

  public ReadRestrictions(Store store, CatalogRegistry catalogs) {
    this(store, catalog -> table -> catalogs.resolve(catalog).loadTable(table).schema());
  }

  /** With {@code schemas}: a catalog's name to a table's current schema (tests). */
  ReadRestrictions(Store store, Function<String, Function<TableIdentifier, Schema>> schemas) {
    this.store = requireNonNull(store, "store");
    this.schemas = requireNonNull(schemas, "schemas");
  }

  /**
   * Empty when none of the caller's active roles has a restriction on the table; else the
   * combination of theirs, with the row filter by the names of the table's current schema.
   */
  public Optional<TableRestriction> of(Caller caller, String catalog, TableIdentifier table) {
    return of(caller, catalog, table, null);
  }

  /**
   * As {@link #of(Caller, String, TableIdentifier)}, with the table's current schema the caller
   * already holds (a load's, a plan's), so no table is loaded here; null: load it.
   */
  public Optional<TableRestriction> of(
      Caller caller, String catalog, TableIdentifier table, Schema current) {
    List<StoredReadRestriction> stored = stored(catalog, table);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    Set<String> active = new HashSet<>(caller.activeRoles());
    List<TableRestriction.RoleRestriction> mine = new ArrayList<>();
    for (StoredReadRestriction restriction : stored) {
      if (active.contains(restriction.principalRole())) {
        mine.add(roleRestriction(restriction));
      }
    }
    if (mine.isEmpty()) {
      return Optional.empty();
    }
    Schema schema = current != null ? current : schemas.apply(catalog).apply(table);
    return Optional.of(TableRestriction.combine(mine, schema));
  }

  /** Whether any principal role has a restriction on the table (cached as {@link #of}). */
  public boolean anyOn(String catalog, TableIdentifier table) {
    return !stored(catalog, table).isEmpty();
  }

  /** Forgets what is cached of one table's restrictions: after a change on this server. */
  public void invalidate(String catalog, TableIdentifier table) {
    cache.invalidate(key(catalog, table));
  }

  private List<StoredReadRestriction> stored(String catalog, TableIdentifier table) {
    Key key = key(catalog, table);
    return cache.get(
        key, k -> store.readRestrictions().forTable(k.catalog(), k.namespace(), k.table()));
  }

  private static Key key(String catalog, TableIdentifier table) {
    return new Key(catalog, new NamespacePath(List.of(table.namespace().levels())), table.name());
  }

  /** A stored restriction as {@code catalog} takes it; an action unknown here hides its column. */
  static TableRestriction.RoleRestriction roleRestriction(StoredReadRestriction stored) {
    Set<Integer> hidden = new HashSet<>(stored.hiddenFieldIds());
    Map<Integer, MaskAction> masks = new HashMap<>();
    stored
        .maskedFieldIds()
        .forEach(
            (id, name) -> {
              try {
                masks.put(id, MaskAction.fromSpec(name));
              } catch (IllegalArgumentException e) {
                hidden.add(id); // fail closed
              }
            });
    return new TableRestriction.RoleRestriction(
        stored.principalRole(), stored.rowFilterJson(), hidden, masks);
  }
}
