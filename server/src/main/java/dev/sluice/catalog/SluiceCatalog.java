package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import dev.sluice.io.ConfinedFileIO;
import dev.sluice.location.LocationPolicy;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.ContentKind;
import dev.sluice.store.ContentRecord;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.LocationConflict;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.NotEmpty;
import dev.sluice.store.NotFound;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import dev.sluice.vending.StorageProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.view.BaseMetastoreViewCatalog;
import org.apache.iceberg.view.BaseView;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.apache.iceberg.view.ViewOperations;
import org.apache.iceberg.view.ViewUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Sluice catalog as an Iceberg {@link org.apache.iceberg.catalog.Catalog}: Iceberg's own
 * builders and {@code CatalogHandlers} drive it, and every pointer lives in the {@link Store}.
 * Holds no per-request state: {@link CatalogRegistry} shares one instance between requests.
 *
 * <p>A federated ({@code EXTERNAL}) catalog is a subclass (in {@code dev.sluice.federation}) that
 * answers every Iceberg call and every method here from its remote catalog, so the operations above
 * (RBAC, audit, vending, ETags) treat both alike; {@link #unvendable} and {@link #serves} are the
 * two questions whose answer differs.
 */
public class SluiceCatalog extends BaseMetastoreViewCatalog implements SupportsNamespaces {
  private static final Logger LOG = LoggerFactory.getLogger(SluiceCatalog.class);
  public static final String NAMESPACE_LOCATION = "location";

  private final Store store;
  private final CatalogSettings settings;
  private final FileIO io;
  private final LocationRules locations;
  private final MetadataCache metadata;
  private final TableCreation creation;
  private final Supplier<NamespaceStorage> namespaceStorage;

  public SluiceCatalog(Store store, CatalogSettings settings, FileIO io, MetadataCache metadata) {
    this(store, settings, io, metadata, () -> NamespaceStorage.none(settings.storage()));
  }

  /** With the namespaces' storage identities, read when first needed ({@code namespaceStorage}). */
  public SluiceCatalog(
      Store store,
      CatalogSettings settings,
      FileIO io,
      MetadataCache metadata,
      Supplier<NamespaceStorage> namespaceStorage) {
    this(store, settings, io, metadata, null, namespaceStorage);
  }

  private SluiceCatalog(
      Store store,
      CatalogSettings settings,
      FileIO io,
      MetadataCache metadata,
      TableCreation creation,
      Supplier<NamespaceStorage> namespaceStorage) {
    this.namespaceStorage = requireNonNull(namespaceStorage, "namespaceStorage");
    this.store = requireNonNull(store, "store");
    this.settings = requireNonNull(settings, "settings");
    this.io = requireNonNull(io, "io");
    this.metadata = requireNonNull(metadata, "metadata");
    this.locations = new LocationRules(store, settings);
    this.creation = creation;
  }

  /**
   * A create of {@code identifier} that runs {@code beforeWrite} on its checked metadata before
   * anything is written, and can be undone if the request fails after the pointer committed.
   */
  public TableCreation newCreation(
      TableIdentifier identifier, Consumer<TableMetadata> beforeWrite) {
    return new TableCreation(store, name(), identifier, io, beforeWrite);
  }

  /**
   * This catalog for one request that creates {@code creation}'s table (through Iceberg's handlers:
   * create, the commit of a staged create, register); everything else as this catalog.
   */
  public SluiceCatalog creating(TableCreation creation) {
    return new SluiceCatalog(
        store, settings, io, metadata, requireNonNull(creation, "creation"), namespaceStorage);
  }

  /**
   * This catalog for one request under an {@code Idempotency-Key}: its store mutations record
   * {@code idempotency} ({@link Store#claiming}); everything else as this catalog.
   */
  public SluiceCatalog claiming(IdempotencyClaim idempotency) {
    return new SluiceCatalog(
        store.claiming(idempotency), settings, io, metadata, creation, namespaceStorage);
  }

  /** The store this catalog reads and writes through (a request's claiming view, if it is one). */
  Store store() {
    return store;
  }

  @Override
  public String name() {
    return settings.name();
  }

  /**
   * Catalog properties; Iceberg's table builder applies their table-default.* and table-override.*
   * entries.
   */
  @Override
  protected Map<String, String> properties() {
    return settings.properties();
  }

  public CatalogSettings settings() {
    return settings;
  }

  public FileIO io() {
    return io;
  }

  /**
   * The storage profile that vends for tables in {@code namespace}: the nearest namespace storage
   * identity at or above it, else the catalog's ({@link NamespaceStorage}).
   */
  public StorageProfile storageFor(Namespace namespace) {
    return namespaceStorage.get().profileFor(namespace);
  }

  /** The namespaces' storage identities as this catalog resolved them. */
  public NamespaceStorage namespaceStorage() {
    return namespaceStorage.get();
  }

  /** Where a namespace's tables go: its location property, or its parent's plus its name. */
  public String namespaceLocation(Namespace namespace) {
    return locations.namespaceLocation(namespace);
  }

  /**
   * The metadata of a table response from this catalog. {@link LoadTableResponse#tableMetadata()}
   * rebuilds the metadata on every call; the cached copy of the same (immutable) file is free.
   */
  public TableMetadata metadataOf(TableIdentifier table, LoadTableResponse response) {
    TableMetadata cached =
        response.metadataLocation() == null
            ? null
            : metadata.cached(
                new MetadataCache.TableKey(settings.name(), table), response.metadataLocation());
    return cached != null ? cached : response.tableMetadata();
  }

  /**
   * Why no credential or signature may be given for {@code table} at {@code location} with {@code
   * properties}, or empty. A stored table's locations passed every rule when it was committed, so
   * here always empty; a federated table's are checked on every load.
   */
  public Optional<String> unvendable(
      TableIdentifier table, String location, Map<String, String> properties) {
    return Optional.empty();
  }

  /**
   * Whether this catalog serves {@code endpoint} (what {@code /v1/config} advertises for it; the
   * others answer 406). Every declared endpoint here.
   */
  public boolean serves(org.apache.iceberg.rest.Endpoint endpoint) {
    return true;
  }

  /** Whether a client may send {@code Idempotency-Key} (a store change records it): yes here. */
  public boolean honoursIdempotencyKeys() {
    return true;
  }

  // ------------------------------------------------------------------ tables

  @Override
  protected TableOperations newTableOps(TableIdentifier identifier) {
    return tableOps(identifier);
  }

  SluiceTableOperations tableOps(TableIdentifier identifier) {
    TableCreation create =
        creation != null && creation.identifier().equals(identifier) ? creation : null;
    return new SluiceTableOperations(store, name(), identifier, io, locations, metadata, create);
  }

  /** Its namespace's location plus its name as one escaped segment (see {@link LocationRules}). */
  @Override
  protected String defaultWarehouseLocation(TableIdentifier identifier) {
    return locations.defaultLocation(identifier);
  }

  /**
   * A staged create writes nothing, but its answer may carry a credential for the location: the
   * location is checked as a create would check it.
   */
  public LoadTableResponse stageTableCreate(Namespace namespace, CreateTableRequest request) {
    LoadTableResponse staged = CatalogHandlers.stageTableCreate(this, namespace, request);
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    TableMetadata metadata = staged.tableMetadata();
    locations.checkContent(
        "table " + identifier, identifier, metadata.location(), metadata.properties(), null);
    return staged;
  }

  /**
   * Whether an answer about {@code answered} may still carry credentials for {@code identifier}:
   * the name still holds that very table (same UUID: not dropped and created again), or, for a
   * staged create ({@code staged}), no table holds the name and its locations are still free.
   */
  public boolean stillHolds(TableIdentifier identifier, TableMetadata answered, boolean staged) {
    if (staged) {
      if (content(identifier, ContentKind.TABLE).isPresent()) {
        return false;
      }
      try {
        locations.checkContent(
            "table " + identifier, identifier, answered.location(), answered.properties(), null);
        return true;
      } catch (ForbiddenException | BadRequestException e) {
        return false;
      }
    }
    try {
      TableMetadata now = ((BaseTable) loadTable(identifier)).operations().current();
      return now.uuid().equals(answered.uuid());
    } catch (NoSuchTableException e) {
      return false;
    }
  }

  /**
   * Registers an existing metadata file. The file is checked before the server reads it (allowed,
   * inside the namespace, not inside another table), and then must lie inside the new table's own
   * locations, which obey the rules of a create: so one cannot register a copy of another table's
   * metadata to read it or to have its files deleted.
   */
  @Override
  public Table registerTable(TableIdentifier identifier, String metadataFileLocation) {
    IdentifierRules.checkIdentifier(identifier);
    if (metadataFileLocation == null || metadataFileLocation.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot register an empty metadata file location as a table");
    }
    if (tableExists(identifier)) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
    locations.checkRegisteredFile("table", identifier, metadataFileLocation);
    TableMetadata registered = TableMetadataParser.read(io, metadataFileLocation);
    SluiceTableOperations ops = tableOps(identifier);
    ops.commit(null, registered);
    return new BaseTable(ops, fullTableName(name(), identifier), metricsReporter());
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return listTables(namespace, PageRequest.all()).items();
  }

  public Page<TableIdentifier> listTables(Namespace namespace, PageRequest page) {
    return listContents(namespace, ContentKind.TABLE, page);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    Optional<ContentRecord> record = content(identifier, ContentKind.TABLE);
    if (record.isEmpty()) {
      return false;
    }
    TableMetadata lastMetadata = null;
    List<String> claimed = List.of();
    if (purge) {
      lastMetadata = TableMetadataParser.read(io, record.get().metadataLocation());
      WriteFreeze.checkUnfrozen("drop", "table " + identifier, lastMetadata.properties());
      claimed = store.claimedLocations(name(), path(identifier.namespace()), identifier.name());
    } else {
      WriteFreeze.checkUnfrozen(
          "drop", "table " + identifier, currentProperties(record.get(), ContentKind.TABLE));
    }
    if (!store.dropContent(
        name(), path(identifier.namespace()), identifier.name(), ContentKind.TABLE)) {
      return false;
    }
    if (lastMetadata != null) {
      // The pointer is gone first: a purge that fails half-way leaves orphans, never a torn table.
      purge(identifier, lastMetadata, claimed);
    }
    return true;
  }

  /**
   * The location keys a table owns, which a credential or a signature for it may reach: its claims
   * in the store, or, for a table created before claims were recorded, its metadata's locations
   * inside allowedLocations. A view of that name does not count.
   *
   * @throws NoSuchTableException when there is no such table
   */
  public List<String> tableLocationKeys(TableIdentifier identifier) {
    ContentRecord record =
        content(identifier, ContentKind.TABLE)
            .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", identifier));
    List<String> claimed =
        store.claimedLocations(name(), path(identifier.namespace()), identifier.name());
    if (!claimed.isEmpty()) {
      return claimed;
    }
    TableMetadata metadata = TableMetadataParser.read(io, record.metadataLocation());
    return ownLocations(metadata, List.of()).stream().map(StorageLocation::key).toList();
  }

  /**
   * The location keys a table with {@code metadata} claims once created ({@link ContentLocations}):
   * what a staged table's signing grant names.
   */
  public static List<String> locationKeysOf(TableMetadata metadata) {
    return locationKeysOf(metadata.location(), metadata.properties());
  }

  /** The location keys a table at {@code location} with {@code properties} claims. */
  public static List<String> locationKeysOf(String location, Map<String, String> properties) {
    return ContentLocations.of(location, properties).all().stream()
        .map(StorageLocation::key)
        .toList();
  }

  /**
   * That a staged table at {@code location} with {@code properties} could still be created now: its
   * locations pass every check a create makes (allowed, inside its namespace, overlapping no other
   * table or view); a 403 otherwise, since the caller's grant no longer covers them.
   */
  public void requireStagedLocationsFree(
      TableIdentifier identifier, String location, Map<String, String> properties) {
    try {
      locations.checkContent("staged table " + identifier, identifier, location, properties, null);
    } catch (BadRequestException e) {
      throw new ForbiddenException("%s", e.getMessage());
    }
  }

  /**
   * The location keys a staged table may be signed for: {@code grantedKeys}, the locations its
   * stage-create answered, as long as no other table or view has since claimed an overlapping
   * location and no view holds its name; once its create has committed, the table's own keys.
   */
  public List<String> stagedLocationKeys(TableIdentifier identifier, List<String> grantedKeys) {
    Optional<ContentKind> kind = kindAt(identifier);
    if (kind.isPresent()) {
      if (kind.get() != ContentKind.TABLE) {
        throw new ForbiddenException("A view holds the name of staged table %s", identifier);
      }
      return tableLocationKeys(identifier);
    }
    locations.requireFree(
        "staged table " + identifier,
        identifier,
        grantedKeys.stream()
            .map(key -> new LocationClaim(StorageLocation.parse(key).ancestorKeys()))
            .toList());
    return grantedKeys;
  }

  /**
   * Deletes a dropped table's files, and only its own: what its metadata names inside its own
   * locations, then everything left under the locations it claimed (files of failed writes, and
   * what a metadata file pointing elsewhere kept Iceberg's walk from reaching). A path its metadata
   * names elsewhere is skipped and logged; a failure is logged, the drop stands.
   */
  private void purge(TableIdentifier identifier, TableMetadata metadata, List<String> claimed) {
    ConfinedFileIO confined =
        new ConfinedFileIO(io, "table " + identifier, ownLocations(metadata, claimed));
    try {
      CatalogUtil.dropTableData(confined, metadata);
    } catch (RuntimeException e) {
      LOG.warn("Purge of {}.{} stopped walking its metadata: {}", name(), identifier, e.toString());
    }
    // Claimed locations never overlap another table's, so everything under them is this table's.
    for (String location : claimed) {
      try {
        confined.deletePrefix(location);
      } catch (RuntimeException e) {
        LOG.warn(
            "Purge of {}.{} could not delete under {}: {}",
            name(),
            identifier,
            location,
            e.toString());
      }
    }
  }

  /**
   * The locations the store records for a table; for a table created before locations were
   * recorded, those of its metadata that lie inside allowedLocations.
   */
  private List<StorageLocation> ownLocations(TableMetadata metadata, List<String> claimed) {
    if (!claimed.isEmpty()) {
      return claimed.stream().map(StorageLocation::parse).toList();
    }
    return LocationPolicy.locationsOf(metadata.location(), metadata.properties()).stream()
        .filter(locations.policy()::allows)
        .map(StorageLocation::parse)
        .toList();
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    rename(from, to, ContentKind.TABLE);
  }

  // ------------------------------------------------------------------ views

  @Override
  protected ViewOperations newViewOps(TableIdentifier identifier) {
    return new SluiceViewOperations(store, name(), identifier, io, locations);
  }

  @Override
  public List<TableIdentifier> listViews(Namespace namespace) {
    return listViews(namespace, PageRequest.all()).items();
  }

  public Page<TableIdentifier> listViews(Namespace namespace, PageRequest page) {
    return listContents(namespace, ContentKind.VIEW, page);
  }

  @Override
  public boolean dropView(TableIdentifier identifier) {
    Optional<ContentRecord> record = content(identifier, ContentKind.VIEW);
    if (record.isEmpty()) {
      return false;
    }
    WriteFreeze.checkUnfrozen(
        "drop", "view " + identifier, currentProperties(record.get(), ContentKind.VIEW));
    return store.dropContent(
        name(), path(identifier.namespace()), identifier.name(), ContentKind.VIEW);
  }

  /**
   * Registers an existing view metadata file, checked as a registered table's is: allowed, inside
   * the namespace and overlapping no other table or view before the server reads it, then inside
   * the view's own locations, which obey the rules of a create.
   */
  @Override
  public View registerView(TableIdentifier identifier, String metadataFileLocation) {
    IdentifierRules.checkIdentifier(identifier);
    if (metadataFileLocation == null || metadataFileLocation.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot register an empty metadata file location as a view");
    }
    Optional<ContentKind> taken = kindAt(identifier);
    if (taken.isPresent()) {
      throw taken.get() == ContentKind.VIEW
          ? new AlreadyExistsException("View already exists: %s", identifier)
          : new AlreadyExistsException("Table with same name already exists: %s", identifier);
    }
    locations.checkRegisteredFile("view", identifier, metadataFileLocation);
    ViewMetadata registered = ViewMetadataParser.read(io, metadataFileLocation);
    ViewOperations ops = newViewOps(identifier);
    ops.commit(null, registered);
    return new BaseView(ops, ViewUtil.fullViewName(name(), identifier));
  }

  @Override
  public void renameView(TableIdentifier from, TableIdentifier to) {
    rename(from, to, ContentKind.VIEW);
  }

  // ------------------------------------------------------------------ namespaces

  @Override
  public void createNamespace(Namespace namespace, Map<String, String> metadata) {
    IdentifierRules.checkNamespace(namespace);
    String location = metadata.get(NAMESPACE_LOCATION);
    if (location != null) {
      locations.checkNamespaceLocation(namespace, location);
    }
    LocationClaim claim =
        LocationRules.claimOf(
            location != null ? location : locations.defaultNamespaceLocation(namespace));
    try {
      store.createNamespace(name(), path(namespace), metadata, claim);
    } catch (LocationConflict e) {
      throw LocationRules.refusal("namespace " + namespace, e);
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Namespace already exists: %s", namespace);
    } catch (NotFound e) {
      throw new NoSuchNamespaceException("%s", e.getMessage());
    }
  }

  @Override
  public List<Namespace> listNamespaces(Namespace namespace) {
    return listNamespaces(namespace, PageRequest.all()).items();
  }

  public Page<Namespace> listNamespaces(Namespace parent, PageRequest page) {
    Page<NamespacePath> children = store.listNamespaces(name(), path(parent), page);
    if (children.items().isEmpty() && !parent.isEmpty()) {
      requireNamespace(parent); // a child exists only under an existing parent
    }
    return new Page<>(
        children.items().stream()
            .map(p -> Namespace.of(p.levels().toArray(String[]::new)))
            .toList(),
        children.nextToken());
  }

  /**
   * The namespace's properties, with its effective {@code location}: the one it was given, or else
   * where its tables go by default (its parent's location plus its name). Engines such as Trino
   * place a new table at this location plus the table's name and stage-create it there; without it
   * they create first and find the folder holding the first metadata file. Nothing is stored.
   */
  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace namespace) {
    Map<String, String> stored = storedProperties(namespace);
    if (stored.containsKey(NAMESPACE_LOCATION)) {
      return stored;
    }
    Map<String, String> answered = new java.util.LinkedHashMap<>(stored);
    answered.put(NAMESPACE_LOCATION, locations.defaultNamespaceLocation(namespace));
    return answered;
  }

  private Map<String, String> storedProperties(Namespace namespace) {
    return store
        .loadNamespace(name(), path(namespace))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", namespace));
  }

  @Override
  public boolean dropNamespace(Namespace namespace) {
    try {
      return store.dropNamespace(name(), path(namespace));
    } catch (NotEmpty e) {
      throw new NamespaceNotEmptyException("Namespace %s is not empty", namespace);
    }
  }

  /**
   * A {@code location} equal to the answered default of a namespace that has none is an echo of
   * {@link #loadNamespaceMetadata}, not an override: it is not stored, so the namespace keeps
   * following its parent as before.
   */
  @Override
  public boolean setProperties(Namespace namespace, Map<String, String> properties) {
    String location = properties.get(NAMESPACE_LOCATION);
    if (location == null) {
      return updateProperties(namespace, Set.of(), properties, null);
    }
    Map<String, String> stored = storedProperties(namespace);
    locations.checkNamespaceLocation(namespace, location);
    if (!stored.containsKey(NAMESPACE_LOCATION)
        && sameLocation(location, locations.defaultNamespaceLocation(namespace))) {
      Map<String, String> rest = new java.util.LinkedHashMap<>(properties);
      rest.remove(NAMESPACE_LOCATION);
      return updateProperties(namespace, Set.of(), rest, null);
    }
    return updateProperties(namespace, Set.of(), properties, location);
  }

  /**
   * Removing {@code location} returns the namespace to its default location (only while it is
   * empty, if that moves it); for a namespace without one, it changes nothing.
   */
  @Override
  public boolean removeProperties(Namespace namespace, Set<String> properties) {
    if (!properties.contains(NAMESPACE_LOCATION)
        || !storedProperties(namespace).containsKey(NAMESPACE_LOCATION)) {
      return updateProperties(namespace, properties, Map.of(), null);
    }
    return updateProperties(
        namespace, properties, Map.of(), locations.defaultNamespaceLocation(namespace));
  }

  /**
   * Stores a property change; {@code newLocation}, when the namespace's location changes, is
   * claimed in the same transaction, and only an empty namespace may move: its tables would
   * otherwise stay where they are, outside it.
   */
  private boolean updateProperties(
      Namespace namespace, Set<String> removals, Map<String, String> updates, String newLocation) {
    LocationClaim claim = null;
    if (newLocation != null && !sameLocation(newLocation, locations.namespaceLocation(namespace))) {
      claim = LocationRules.claimOf(newLocation);
    }
    try {
      store.updateNamespaceProperties(name(), path(namespace), removals, updates, claim);
      return true;
    } catch (NotFound e) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    } catch (NotEmpty e) {
      throw new ForbiddenException(
          "Cannot change the location of namespace %s: it holds tables, views or namespaces",
          namespace);
    } catch (LocationConflict e) {
      throw LocationRules.refusal("namespace " + namespace, e);
    }
  }

  // ------------------------------------------------------------------ helpers

  private static boolean sameLocation(String a, String b) {
    return StorageLocation.parse(a).equals(StorageLocation.parse(b));
  }

  private Page<TableIdentifier> listContents(
      Namespace namespace, ContentKind kind, PageRequest page) {
    Page<String> names = store.listContents(name(), path(namespace), kind, page);
    // A table or view exists only in an existing namespace (a foreign key): the lookup is needed,
    // one database round trip more, only when the page is empty.
    if (names.items().isEmpty()) {
      requireNamespace(namespace);
    }
    return new Page<>(
        names.items().stream().map(n -> TableIdentifier.of(namespace, n)).toList(),
        names.nextToken());
  }

  private void rename(TableIdentifier from, TableIdentifier to, ContentKind kind) {
    IdentifierRules.checkIdentifier(to);
    if (content(from, kind).isEmpty()) {
      throw kind == ContentKind.TABLE
          ? new NoSuchTableException("Table does not exist: %s", from)
          : new NoSuchViewException("View does not exist: %s", from);
    }
    WriteFreeze.checkUnfrozen(
        "rename",
        (kind == ContentKind.TABLE ? "table " : "view ") + from,
        currentProperties(content(from, kind).orElseThrow(), kind));
    requireNamespace(to.namespace());
    Optional<ContentRecord> target = store.getContent(name(), path(to.namespace()), to.name());
    if (target.isPresent()) {
      if (target.get().kind() == kind && kind == ContentKind.TABLE) {
        throw new AlreadyExistsException("Table already exists: %s", to);
      }
      String other = target.get().kind() == ContentKind.TABLE ? "Table" : "View";
      throw new AlreadyExistsException(
          "Cannot rename %s to %s. %s already exists", from, to, other);
    }
    try {
      store.renameContent(
          name(), kind, path(from.namespace()), from.name(), path(to.namespace()), to.name());
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("%s", e.getMessage());
    } catch (NotFound e) {
      throw kind == ContentKind.TABLE
          ? new NoSuchTableException("%s", e.getMessage())
          : new NoSuchViewException("%s", e.getMessage());
    }
  }

  /**
   * The properties of the metadata {@code record} points at, for the write freeze; none when that
   * file is gone (such a table can still be dropped).
   */
  private Map<String, String> currentProperties(ContentRecord record, ContentKind kind) {
    try {
      return kind == ContentKind.TABLE
          ? TableMetadataParser.read(io, record.metadataLocation()).properties()
          : ViewMetadataParser.read(io, record.metadataLocation()).properties();
    } catch (NotFoundException e) {
      return Map.of();
    }
  }

  /**
   * What holds {@code identifier}'s name now, a table or a view (tables and views share names in a
   * namespace), or empty: one store read, no metadata file.
   */
  public Optional<ContentKind> kindAt(TableIdentifier identifier) {
    return store
        .getContent(name(), path(identifier.namespace()), identifier.name())
        .map(ContentRecord::kind);
  }

  private Optional<ContentRecord> content(TableIdentifier identifier, ContentKind kind) {
    return store
        .getContent(name(), path(identifier.namespace()), identifier.name())
        .filter(c -> c.kind() == kind);
  }

  private void requireNamespace(Namespace namespace) {
    if (store.loadNamespace(name(), path(namespace)).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
  }

  static NamespacePath path(Namespace namespace) {
    return new NamespacePath(List.of(namespace.levels()));
  }
}
