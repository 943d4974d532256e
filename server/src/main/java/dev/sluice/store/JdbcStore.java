package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import io.opentelemetry.api.trace.Tracer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store on JDBC: H2 (embedded default) or PostgreSQL, migrated by Flyway at open. Single
 * statements run in auto-commit; anything that must be atomic runs in one explicit transaction.
 * Catalogs, location-claim queries and signing keys are here; namespaces are {@link
 * JdbcNamespaces}, table and view pointers {@link JdbcContents} (versioned and published by {@link
 * PointerVersions}), federated tables' location claims {@link JdbcRemoteClaims}, principals, roles
 * and grants {@link JdbcAccessStore}.
 */
public final class JdbcStore extends JdbcSupport implements Store {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcStore.class);

  /** The catalog role every catalog is created with. */
  public static final String CATALOG_ADMIN = "catalog_admin";

  private final JdbcAccessStore access;
  private final JdbcIdempotencyKeys idempotencyKeys;
  private final JdbcNamespaces namespaces;
  private final JdbcContents contents;
  private final JdbcNamespaceIdentities namespaceIdentities;
  private final JdbcDelegations delegations;
  private final JdbcReadRestrictions readRestrictions;
  private final JdbcRemoteClaims remoteClaims;

  private final StoreConnections connections;
  private final PointerVersions versions;
  private final StoreProbe probe;

  /** What this view's mutations record ({@link #claiming}); null in the store itself. */
  private final IdempotencyClaim idempotency;

  private JdbcStore(
      HikariDataSource dataSource, StoreConnections connections, DatabaseConfig config) {
    super(dataSource, connections);
    this.connections = connections;
    this.access = new JdbcAccessStore(dataSource, connections);
    this.versions = PointerVersions.start(config, dataSource);
    // One set of known storage roots for namespaces and contents: each saves the other's inserts.
    JdbcLocationClaims claimSql = new JdbcLocationClaims();
    this.namespaces = new JdbcNamespaces(dataSource, connections, claimSql);
    this.contents = new JdbcContents(dataSource, connections, versions, claimSql);
    this.remoteClaims = new JdbcRemoteClaims(dataSource, connections, claimSql);
    this.idempotencyKeys = new JdbcIdempotencyKeys(dataSource, connections);
    this.namespaceIdentities = new JdbcNamespaceIdentities(dataSource, connections);
    this.delegations = new JdbcDelegations(dataSource, connections);
    this.readRestrictions = new JdbcReadRestrictions(dataSource, connections);
    this.probe = new StoreProbe(connections);
    this.housekeeping = config.h2File() ? new H2Housekeeping(dataSource) : null;
    this.idempotency = null;
  }

  /** {@code base} for one request whose mutations record {@code idempotency}. */
  private JdbcStore(JdbcStore base, IdempotencyClaim idempotency) {
    super(base.dataSource, base.connections);
    this.connections = base.connections;
    this.access = base.access;
    this.versions = base.versions;
    this.namespaces = base.namespaces;
    this.contents = base.contents;
    this.idempotencyKeys = base.idempotencyKeys;
    this.namespaceIdentities = base.namespaceIdentities;
    this.delegations = base.delegations;
    this.readRestrictions = base.readRestrictions;
    this.remoteClaims = base.remoteClaims;
    this.probe = base.probe;
    this.housekeeping = base.housekeeping;
    this.idempotency = requireNonNull(idempotency, "idempotency");
  }

  @Override
  public Store claiming(IdempotencyClaim idempotency) {
    return new JdbcStore(this, idempotency);
  }

  /** For an embedded H2 file: the space reuse its background writer would do; else null. */
  private final H2Housekeeping housekeeping;

  private static final int MIN_IDLE = 2;
  private static final long VALIDATION_TIMEOUT_MS = 1_000;

  /**
   * The longest a request's statement may wait on PostgreSQL's socket. A frozen database holds a
   * thread this long at most; the slowest statement a request runs (a page of a listing, a
   * multi-table commit) takes milliseconds.
   */
  static final int NETWORK_TIMEOUT_MS = 30_000;

  /** Opens a pool on the database and brings its schema up to date. */
  public static JdbcStore open(DatabaseConfig config) {
    requireNonNull(config, "config");
    HikariConfig hikari = new HikariConfig();
    hikari.setDataSource(
        new PatientConnector(
            new DriverDataSource(
                config.jdbcUrl(), null, new Properties(), config.user(), config.password())));
    hikari.setMaximumPoolSize(config.maxPoolSize());
    // Replicas share one database's connection slots: an idle pool shrinks back to two.
    hikari.setMinimumIdle(Math.min(MIN_IDLE, config.maxPoolSize()));
    // A borrowed connection idle for a while is checked; on a stalled database that check must
    // not hold the request for HikariCP's default 5 s.
    hikari.setValidationTimeout(VALIDATION_TIMEOUT_MS);
    hikari.setConnectionTimeout(config.connectionTimeoutMs());
    hikari.setPoolName("sluice-store");
    hikari.setAutoCommit(true);
    // Start even while the database is briefly unreachable; requests then fail with 503.
    hikari.setInitializationFailTimeout(-1);
    hikari.setExceptionOverride(new EvictBrokenConnections());
    HikariDataSource ds = new HikariDataSource(hikari);
    // Start-up waits for its own store (migrations, bootstrap); ready() ends the wait.
    StoreConnections connections =
        new StoreConnections(
            ds, config.startupTimeoutMs(), config.postgres() ? NETWORK_TIMEOUT_MS : 0);
    try {
      SchemaMigrations migrations = new SchemaMigrations(connections.asDataSource());
      SchemaMigrations.Applied applied = migrations.migrate();
      LOG.info(
          "store schema at version {} ({} migrations applied now)",
          applied.version(),
          applied.count());
    } catch (RuntimeException e) {
      ds.close();
      throw new StoreUnavailable(
          "Cannot migrate the store schema at " + config.url() + ": " + e.getMessage(), e);
    }
    return new JdbcStore(ds, connections, config);
  }

  /**
   * Start-up is over: from now on a request waits at most {@code connectionTimeoutMs} for a
   * connection, so an outage fails fast with 503 instead of holding requests.
   */
  public void ready() {
    connections.ready();
  }

  /** The pointer cache (for metrics and tests). */
  public PointerCache pointerCache() {
    return versions.cache();
  }

  /** Registers the pointer cache's and change feed's meters. */
  public void bindMetrics(io.micrometer.core.instrument.MeterRegistry metrics) {
    versions.bindTo(metrics);
    // HikariCP's own meters (hikaricp_connections_active, _pending, _timeout_total, ...).
    dataSource.setMetricRegistry(metrics);
  }

  /** Each statement a request's span runs becomes a span of its own ({@link TracedConnections}). */
  public void bindTracing(Tracer tracer) {
    connections.trace(tracer);
  }

  /** A connection as the store's own operations get one, for tests of the start-up wait. */
  java.sql.Connection connectionForTest() throws java.sql.SQLException {
    return connection();
  }

  // ---------------------------------------------------------------- catalogs

  @Override
  public void createCatalog(CatalogRecord c, String adminPrincipalRole) {
    inTransaction(
        conn -> {
          long now = System.currentTimeMillis();
          try {
            update(
                conn,
                "INSERT INTO catalogs (name, catalog_type, properties, storage_config, connection_config,"
                    + " entity_version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                c.name(),
                c.type(),
                toJson(c.properties()),
                c.storageConfig(),
                c.connectionConfig(),
                now,
                now);
          } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
              throw new AlreadyExists("Catalog already exists: " + c.name());
            }
            throw e;
          }
          update(
              conn,
              "INSERT INTO catalog_roles (catalog_name, name, properties, created_at) VALUES (?, ?, '{}', ?)",
              c.name(),
              CATALOG_ADMIN,
              now);
          for (String privilege : List.of("CATALOG_MANAGE_ACCESS", "CATALOG_MANAGE_CONTENT")) {
            update(
                conn,
                "INSERT INTO privilege_grants (catalog_name, catalog_role, securable_type, securable_ns, securable_name, privilege, created_at)"
                    + " VALUES (?, ?, 'CATALOG', '', '', ?, ?)",
                c.name(),
                CATALOG_ADMIN,
                privilege,
                now);
          }
          try {
            update(
                conn,
                "INSERT INTO catalog_role_assignments (catalog_name, catalog_role, principal_role) VALUES (?, ?, ?)",
                c.name(),
                CATALOG_ADMIN,
                adminPrincipalRole);
          } catch (SQLException e) {
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotFound("Principal role not found: " + adminPrincipalRole);
            }
            throw e;
          }
          return null;
        });
  }

  @Override
  public Optional<CatalogRecord> getCatalog(String name) {
    return queryOne(
        "SELECT name, catalog_type, properties, storage_config, entity_version, created_at, updated_at,"
            + " connection_config FROM catalogs WHERE name = ?",
        JdbcStore::catalogRow,
        name);
  }

  @Override
  public Page<CatalogRecord> listCatalogs(PageRequest page) {
    return pageOf(
        "SELECT name, catalog_type, properties, storage_config, entity_version, created_at, updated_at,"
            + " connection_config FROM catalogs WHERE 1 = 1",
        List.of("name"),
        JdbcStore::catalogRow,
        c -> List.of(c.name()),
        page);
  }

  @Override
  public CatalogRecord updateCatalog(CatalogRecord updated, long expectedVersion) {
    try (Connection conn = connection();
        PreparedStatement ps =
            conn.prepareStatement(
                "UPDATE catalogs SET properties = ?, storage_config = ?,"
                    + " connection_config = COALESCE(?, connection_config),"
                    + " entity_version = entity_version + 1, updated_at = ?"
                    + " WHERE name = ? AND entity_version = ?")) {
      ps.setString(1, toJson(updated.properties()));
      ps.setString(2, updated.storageConfig());
      ps.setString(3, updated.connectionConfig());
      ps.setLong(4, System.currentTimeMillis());
      ps.setString(5, updated.name());
      ps.setLong(6, expectedVersion);
      if (ps.executeUpdate() == 1) {
        return getCatalog(updated.name())
            .orElseThrow(() -> new NotFound("Catalog not found: " + updated.name()));
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
    if (getCatalog(updated.name()).isEmpty()) {
      throw new NotFound("Catalog not found: " + updated.name());
    }
    throw new Conflict(
        "Catalog "
            + updated.name()
            + " was changed concurrently (expected version "
            + expectedVersion
            + ")");
  }

  @Override
  public void deleteCatalog(String name) {
    try (Connection conn = connection();
        PreparedStatement ps = conn.prepareStatement("DELETE FROM catalogs WHERE name = ?")) {
      ps.setString(1, name);
      if (ps.executeUpdate() == 0) {
        throw new NotFound("Catalog not found: " + name);
      }
    } catch (SQLException e) {
      if (FK_VIOLATION.contains(e.getSQLState())) {
        throw new NotEmpty("Catalog " + name + " is not empty: drop its namespaces first");
      }
      throw unavailable(e);
    }
  }

  // ---------------------------------------------------------------- namespaces

  @Override
  public void createNamespace(
      String catalog, NamespacePath path, Map<String, String> properties, LocationClaim claim) {
    namespaces.createNamespace(catalog, path, properties, claim, idempotency);
  }

  @Override
  public Optional<Map<String, String>> loadNamespace(String catalog, NamespacePath path) {
    return namespaces.loadNamespace(catalog, path);
  }

  @Override
  public Page<NamespacePath> listNamespaces(
      String catalog, NamespacePath parent, PageRequest page) {
    return namespaces.listNamespaces(catalog, parent, page);
  }

  @Override
  public boolean dropNamespace(String catalog, NamespacePath path) {
    return namespaces.dropNamespace(catalog, path, idempotency);
  }

  @Override
  public Map<String, String> updateNamespaceProperties(
      String catalog,
      NamespacePath path,
      Set<String> removals,
      Map<String, String> updates,
      LocationClaim newClaim) {
    return namespaces.updateNamespaceProperties(
        catalog, path, removals, updates, newClaim, idempotency);
  }

  // ---------------------------------------------------------------- tables and views

  @Override
  public Optional<ContentRecord> getContent(String catalog, NamespacePath ns, String name) {
    return contents.getContent(catalog, ns, name);
  }

  /** The pointer as the database holds it now, past the cache (for tests). */
  Optional<ContentRecord> readContent(String catalog, NamespacePath ns, String name) {
    return contents.readContent(catalog, ns, name);
  }

  @Override
  public Page<String> listContents(
      String catalog, NamespacePath ns, ContentKind kind, PageRequest page) {
    return contents.listContents(catalog, ns, kind, page);
  }

  @Override
  public void createContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      String metadataLocation,
      List<LocationClaim> claims) {
    contents.createContent(catalog, ns, name, kind, metadataLocation, claims, idempotency);
  }

  @Override
  public void swapMetadata(String catalog, List<MetadataSwap> swaps) {
    contents.swapMetadata(catalog, swaps, idempotency);
  }

  @Override
  public boolean dropContent(String catalog, NamespacePath ns, String name, ContentKind kind) {
    return contents.dropContent(catalog, ns, name, kind, idempotency);
  }

  @Override
  public boolean dropContentIfAt(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation) {
    return contents.dropContentIfAt(catalog, ns, name, kind, metadataLocation);
  }

  @Override
  public void renameContent(
      String catalog,
      ContentKind kind,
      NamespacePath fromNs,
      String fromName,
      NamespacePath toNs,
      String toName) {
    contents.renameContent(catalog, kind, fromNs, fromName, toNs, toName, idempotency);
  }

  // ---------------------------------------------------------------- location claims

  @Override
  public Optional<LocationConflict> findLocationConflict(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims) {
    try (Connection conn = connection()) {
      return JdbcLocationClaims.findConflict(conn, catalog, ns, name, claims);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<String> claimedLocations(String catalog, NamespacePath ns, String name) {
    return queryList(
        "SELECT DISTINCT location_key FROM location_claims WHERE catalog_name = ? AND ns_path = ? AND name = ?"
            + " ORDER BY location_key",
        rs -> rs.getString(1),
        catalog,
        ns.key(),
        name);
  }

  @Override
  public Page<ClaimedContent> contentsClaimingUnder(
      String catalog, ContentKind kind, List<String> prefixKeys, PageRequest page) {
    try (Connection conn = connection()) {
      return JdbcLocationClaims.contentsClaimingUnder(conn, catalog, kind, prefixKeys, page);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public Optional<String> claimOutside(String catalog, List<String> rootKeys) {
    if (rootKeys.isEmpty()) {
      return queryOne(
          "SELECT location_key FROM location_claims WHERE catalog_name = ? FETCH FIRST 1 ROWS ONLY",
          rs -> rs.getString(1),
          catalog);
    }
    // A location lies under a root exactly when it has a claim row whose prefix is that root.
    String placeholders = String.join(", ", java.util.Collections.nCopies(rootKeys.size(), "?"));
    List<Object> args = new ArrayList<>();
    args.add(catalog);
    args.addAll(rootKeys);
    return queryOne(
        "SELECT c.location_key FROM location_claims c WHERE c.catalog_name = ? AND c.prefix_key = c.location_key"
            + " AND NOT EXISTS (SELECT 1 FROM location_claims p WHERE p.location_key = c.location_key"
            + " AND p.prefix_key IN ("
            + placeholders
            + ")) FETCH FIRST 1 ROWS ONLY",
        rs -> rs.getString(1),
        args.toArray());
  }

  @Override
  public Optional<LocationConflict> claimRemoteLocations(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims) {
    return remoteClaims.claim(catalog, ns, name, claims);
  }

  @Override
  public void releaseRemoteLocations(String catalog, NamespacePath ns, String name) {
    remoteClaims.release(catalog, ns, name);
  }

  @Override
  public Optional<RemoteClaimHolder> remoteClaimHolder(String locationKey) {
    return remoteClaims.holder(locationKey);
  }

  @Override
  public AccessStore access() {
    return access;
  }

  @Override
  public DelegationStore delegations() {
    return delegations;
  }

  @Override
  public ReadRestrictionStore readRestrictions() {
    return readRestrictions;
  }

  @Override
  public NamespaceIdentityStore namespaceIdentities() {
    return namespaceIdentities;
  }

  @Override
  public IdempotencyKeys idempotencyKeys() {
    return idempotencyKeys;
  }

  // ---------------------------------------------------------------- signing keys

  @Override
  public List<SigningKey> ensureSigningKey(SigningKey candidate) {
    try (Connection conn = connection();
        PreparedStatement ps =
            conn.prepareStatement(
                "INSERT INTO signing_keys (kid, key_material, created_at) VALUES (?, ?, ?)")) {
      ps.setString(1, candidate.kid());
      ps.setString(2, candidate.material());
      ps.setLong(3, candidate.createdAt());
      ps.executeUpdate();
    } catch (SQLException e) {
      if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw unavailable(e);
      }
    }
    return signingKeys();
  }

  @Override
  public List<SigningKey> signingKeys() {
    return queryList(
        "SELECT kid, key_material, created_at FROM signing_keys ORDER BY created_at DESC, kid",
        rs -> new SigningKey(rs.getString(1), rs.getString(2), rs.getLong(3)));
  }

  @Override
  public boolean deleteSigningKey(String kid) {
    return inTransaction(conn -> update(conn, "DELETE FROM signing_keys WHERE kid = ?", kid) > 0);
  }

  @Override
  public boolean ping() {
    return probe.writable();
  }

  @Override
  public void close() {
    if (idempotency != null) {
      return; // a request's view: the store itself owns the pool
    }
    if (housekeeping != null) {
      housekeeping.close();
    }
    versions.close();
    dataSource.close();
  }

  // ---------------------------------------------------------------- row helpers

  private static CatalogRecord catalogRow(ResultSet rs) throws SQLException {
    return new CatalogRecord(
        rs.getString(1),
        rs.getString(2),
        fromJson(rs.getString(3)),
        rs.getString(4),
        rs.getString(8),
        rs.getLong(5),
        rs.getLong(6),
        rs.getLong(7));
  }
}
