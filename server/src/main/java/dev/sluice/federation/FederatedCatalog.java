package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.CatalogSettings;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.MetadataCache;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.catalog.TableCreation;
import dev.sluice.store.ContentKind;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewBuilder;
import org.apache.iceberg.view.ViewOperations;

/**
 * A federated ({@code EXTERNAL}) catalog: every namespace, table and view is the remote catalog's,
 * reached through Iceberg's REST client ({@link RemoteConnection}); Sluice keeps only its grants,
 * its audit trail and the claims of the remote tables' locations. Every method of {@link
 * SluiceCatalog} that touches content is answered here from the remote (a test checks that none is
 * left to the store-backed one), so the operations above treat it as any catalog.
 *
 * <p>Not served: scan planning and multi-table transactions (not advertised, 406), replacing a
 * table whole, {@code Idempotency-Key} (not advertised; the remote has its own).
 */
public final class FederatedCatalog extends SluiceCatalog {
  private static final Set<Endpoint> NOT_SERVED =
      Set.of(
          Endpoint.V1_SUBMIT_TABLE_SCAN_PLAN,
          Endpoint.V1_FETCH_TABLE_SCAN_PLAN,
          Endpoint.V1_CANCEL_TABLE_SCAN_PLAN,
          Endpoint.V1_FETCH_TABLE_SCAN_PLAN_TASKS,
          Endpoint.V1_COMMIT_TRANSACTION);

  private final RemoteConnection remote;
  private final RemoteTables tables;
  private final FederatedNamespaces namespaces;
  private final FederatedViews views;
  private final RemoteLocationRules rules;

  FederatedCatalog(
      Store store,
      CatalogSettings settings,
      MetadataCache metadata,
      RemoteConnection remote,
      int maxListed) {
    // No namespace storage identities: a federated catalog's namespaces are not Sluice's.
    super(store, settings, new InertFileIO(), metadata);
    this.remote = requireNonNull(remote, "remote");
    this.tables = new RemoteTables(remote, maxListed);
    this.namespaces = new FederatedNamespaces(remote);
    this.views = new FederatedViews(remote);
    this.rules = new RemoteLocationRules(store, settings, namespaces, tables);
  }

  // ------------------------------------------------------------------ what differs

  @Override
  public Optional<String> unvendable(
      TableIdentifier table, String location, Map<String, String> properties) {
    return rules.check(table, location, properties).map(RemoteLocationRules.Breach::describe);
  }

  @Override
  public boolean serves(Endpoint endpoint) {
    return endpoint == null || !NOT_SERVED.contains(endpoint);
  }

  @Override
  public boolean honoursIdempotencyKeys() {
    return false;
  }

  /** One request's view is this catalog: a federated create writes nothing in Sluice's store. */
  @Override
  public SluiceCatalog creating(TableCreation creation) {
    return this;
  }

  @Override
  public SluiceCatalog claiming(IdempotencyClaim idempotency) {
    return this;
  }

  @Override
  public String namespaceLocation(Namespace namespace) {
    return rules.namespaceLocation(namespace);
  }

  // ------------------------------------------------------------------ tables

  @Override
  protected TableOperations newTableOps(TableIdentifier identifier) {
    throw new IllegalStateException("A federated catalog's tables are loaded from its remote");
  }

  @Override
  protected String defaultWarehouseLocation(TableIdentifier identifier) {
    return rules.defaultLocation(identifier);
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    LoadTableResponse loaded = tables.load(identifier);
    return new BaseTable(
        FederatedTableOperations.loaded(identifier, tables, rules, loaded), fullName(identifier));
  }

  @Override
  public boolean tableExists(TableIdentifier identifier) {
    return RemoteErrors.call(remote.remote(), () -> remote.tables().tableExists(identifier));
  }

  @Override
  public TableBuilder buildTable(TableIdentifier identifier, Schema schema) {
    IdentifierRules.checkIdentifier(identifier);
    return new FederatedTableBuilder(
        fullName(identifier), identifier, schema, tables, rules, settings().defaultBaseLocation());
  }

  /**
   * Nothing is written: the location (asked, else its namespace's plus its name) passes the rules a
   * create checks, without a claim (the commit of the create claims it).
   */
  @Override
  public LoadTableResponse stageTableCreate(Namespace namespace, CreateTableRequest request) {
    request.validate();
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    IdentifierRules.checkIdentifier(identifier);
    if (tableExists(identifier)) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
    Map<String, String> properties = new HashMap<>();
    properties.put("created-at", OffsetDateTime.now(ZoneOffset.UTC).toString());
    properties.putAll(request.properties());
    String location =
        request.location() != null ? request.location() : rules.defaultLocation(identifier);
    rules
        .checkShape(identifier, location, properties)
        .ifPresent(
            breach -> {
              throw new RemoteErrors.Refused(
                  "Refused for federated table " + identifier + ": " + breach.describe());
            });
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            request.schema(),
            request.spec() != null ? request.spec() : PartitionSpec.unpartitioned(),
            request.writeOrder() != null ? request.writeOrder() : SortOrder.unsorted(),
            location,
            properties);
    return LoadTableResponse.builder().withTableMetadata(metadata).build();
  }

  @Override
  public boolean stillHolds(TableIdentifier identifier, TableMetadata answered, boolean staged) {
    if (staged) {
      return !tableExists(identifier)
          && rules.checkShape(identifier, answered.location(), answered.properties()).isEmpty();
    }
    try {
      return tables.load(identifier).tableMetadata().uuid().equals(answered.uuid());
    } catch (NoSuchTableException e) {
      return false;
    }
  }

  /**
   * The metadata file is checked (confined, below its namespace) before the remote reads it; the
   * registered table's locations are then claimed, and a table breaking a rule is unregistered
   * again (dropped without purge: its files stay).
   */
  @Override
  public Table registerTable(TableIdentifier identifier, String metadataFileLocation) {
    IdentifierRules.checkIdentifier(identifier);
    if (metadataFileLocation == null || metadataFileLocation.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot register an empty metadata file location as a table");
    }
    refuseIf(identifier, rules.checkMetadataFile(identifier, metadataFileLocation));
    Table registered =
        RemoteErrors.call(
            remote.remote(), () -> remote.tables().registerTable(identifier, metadataFileLocation));
    TableMetadata metadata = ((BaseTable) registered).operations().current();
    Optional<RemoteLocationRules.Breach> breach =
        rules.check(identifier, metadata.location(), metadata.properties());
    if (breach.isPresent()) {
      RemoteErrors.call(remote.remote(), () -> remote.tables().dropTable(identifier, false));
      refuseIf(identifier, breach);
    }
    return loadTable(identifier);
  }

  private static void refuseIf(
      TableIdentifier identifier, Optional<RemoteLocationRules.Breach> breach) {
    if (breach.isPresent()) {
      throw new RemoteErrors.Refused(
          "Refused for federated table " + identifier + ": " + breach.get().describe());
    }
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return tables.tables(namespace);
  }

  @Override
  public Page<TableIdentifier> listTables(Namespace namespace, PageRequest page) {
    return RemotePages.page(tables.tables(namespace), page, TableIdentifier::name);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    boolean dropped =
        RemoteErrors.call(remote.remote(), () -> remote.tables().dropTable(identifier, purge));
    if (dropped) {
      rules.release(identifier);
    }
    return dropped;
  }

  @Override
  public List<String> tableLocationKeys(TableIdentifier identifier) {
    return rules.vendableKeys(identifier, tables.load(identifier));
  }

  @Override
  public void requireStagedLocationsFree(
      TableIdentifier identifier, String location, Map<String, String> properties) {
    if (tableExists(identifier)) {
      throw new ForbiddenException("Staged table %s has been created meanwhile", identifier);
    }
    Optional<RemoteLocationRules.Breach> breach = rules.check(identifier, location, properties);
    if (breach.isPresent()) {
      throw new ForbiddenException(
          "No storage access for staged table %s: %s", identifier, breach.get().describe());
    }
  }

  /** A staged table of a federated catalog is signed for once created only. */
  @Override
  public List<String> stagedLocationKeys(TableIdentifier identifier, List<String> grantedKeys) {
    if (!tableExists(identifier)) {
      throw new ForbiddenException(
          "Staged table %s of a federated catalog is signed for once its create commits",
          identifier);
    }
    return tableLocationKeys(identifier);
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    IdentifierRules.checkIdentifier(to);
    RemoteErrors.run(remote.remote(), () -> remote.tables().renameTable(from, to));
    rules.release(from); // claimed again under the new name on its next load
  }

  @Override
  public void invalidateTable(TableIdentifier identifier) {}

  // ------------------------------------------------------------------ views

  @Override
  protected ViewOperations newViewOps(TableIdentifier identifier) {
    throw new IllegalStateException("A federated catalog's views are loaded from its remote");
  }

  @Override
  public View loadView(TableIdentifier identifier) {
    return views.load(identifier);
  }

  @Override
  public boolean viewExists(TableIdentifier identifier) {
    return views.exists(identifier);
  }

  @Override
  public ViewBuilder buildView(TableIdentifier identifier) {
    IdentifierRules.checkIdentifier(identifier);
    return views.build(identifier);
  }

  @Override
  public View registerView(TableIdentifier identifier, String metadataFileLocation) {
    IdentifierRules.checkIdentifier(identifier);
    return views.register(identifier, metadataFileLocation);
  }

  @Override
  public List<TableIdentifier> listViews(Namespace namespace) {
    return tables.views(namespace);
  }

  @Override
  public Page<TableIdentifier> listViews(Namespace namespace, PageRequest page) {
    return RemotePages.page(tables.views(namespace), page, TableIdentifier::name);
  }

  @Override
  public boolean dropView(TableIdentifier identifier) {
    return views.drop(identifier);
  }

  @Override
  public void renameView(TableIdentifier from, TableIdentifier to) {
    IdentifierRules.checkIdentifier(to);
    views.rename(from, to);
  }

  // ------------------------------------------------------------------ namespaces

  /** The remote decides; a {@code location} given must lie inside allowedLocations. */
  @Override
  public void createNamespace(Namespace namespace, Map<String, String> metadata) {
    IdentifierRules.checkNamespace(namespace);
    checkLocation(namespace, metadata);
    namespaces.create(namespace, metadata);
  }

  @Override
  public List<Namespace> listNamespaces(Namespace namespace) {
    return tables.namespaces(namespace);
  }

  @Override
  public Page<Namespace> listNamespaces(Namespace parent, PageRequest page) {
    Function<Namespace, String> key = n -> new NamespacePath(List.of(n.levels())).key();
    return RemotePages.page(tables.namespaces(parent), page, key);
  }

  @Override
  public boolean namespaceExists(Namespace namespace) {
    return namespaces.exists(namespace);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace namespace) {
    return namespaces.load(namespace);
  }

  @Override
  public boolean dropNamespace(Namespace namespace) {
    return namespaces.drop(namespace);
  }

  @Override
  public boolean setProperties(Namespace namespace, Map<String, String> properties) {
    checkLocation(namespace, properties);
    return namespaces.set(namespace, properties);
  }

  @Override
  public boolean removeProperties(Namespace namespace, Set<String> properties) {
    return namespaces.remove(namespace, properties);
  }

  private void checkLocation(Namespace namespace, Map<String, String> properties) {
    String location = properties.get(FederatedNamespaces.LOCATION);
    if (location != null) {
      settings().locationPolicy().check("namespace " + namespace, location);
    }
  }

  // ------------------------------------------------------------------ helpers

  @Override
  public Optional<ContentKind> kindAt(TableIdentifier identifier) {
    if (tableExists(identifier)) {
      return Optional.of(ContentKind.TABLE);
    }
    return viewExists(identifier) ? Optional.of(ContentKind.VIEW) : Optional.empty();
  }

  private String fullName(TableIdentifier identifier) {
    return name() + "." + identifier;
  }

  @Override
  public String toString() {
    return "FederatedCatalog[" + name() + ", " + remote.remote() + "]";
  }
}
