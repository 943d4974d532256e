package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;

/**
 * The store on JDBC: H2 (embedded default) or PostgreSQL, migrated by Flyway at open. Single
 * statements run in auto-commit; anything that must be atomic runs in one explicit transaction.
 */
public final class JdbcStore extends JdbcSupport implements Store {
  /** The catalog role every catalog is created with. */
  public static final String CATALOG_ADMIN = "catalog_admin";

  private final JdbcAccessStore access;
  private final JdbcIdempotencyKeys idempotencyKeys;
  private final JdbcLocationClaims claimSql = new JdbcLocationClaims();

  private final StartupWait connections;
  private final boolean postgres;
  private final PointerCache pointers;
  private final PgChangeListener listener;

  private JdbcStore(HikariDataSource dataSource, StartupWait connections, DatabaseConfig config) {
    super(dataSource, connections);
    this.connections = connections;
    this.access = new JdbcAccessStore(dataSource, connections);
    this.postgres = config.postgres();
    // Several replicas share a PostgreSQL: their caches follow its change feed. H2 is one process.
    boolean feed = config.pointerCache() && postgres;
    this.pointers =
        config.pointerCache()
            ? new PointerCache(true, config.pointerCacheMaxEntries(), feed)
            : PointerCache.disabled();
    this.listener = feed ? new PgChangeListener(config, pointers) : null;
    if (listener != null) {
      listener.start();
    }
    this.idempotencyKeys = new JdbcIdempotencyKeys(dataSource, connections);
  }

  /** Opens a pool on the database and brings its schema up to date. */
  public static JdbcStore open(DatabaseConfig config) {
    requireNonNull(config, "config");
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(config.jdbcUrl());
    if (config.user() != null) {
      hikari.setUsername(config.user());
    }
    if (config.password() != null) {
      hikari.setPassword(config.password());
    }
    hikari.setMaximumPoolSize(config.maxPoolSize());
    hikari.setConnectionTimeout(config.connectionTimeoutMs());
    hikari.setPoolName("sluice-store");
    hikari.setAutoCommit(true);
    // Start even while the database is briefly unreachable; requests then fail with 503.
    hikari.setInitializationFailTimeout(-1);
    HikariDataSource ds = new HikariDataSource(hikari);
    // Start-up waits for its own store (migrations, bootstrap); ready() ends the wait.
    StartupWait connections = new StartupWait(ds, config.startupTimeoutMs());
    try {
      Flyway.configure()
          .dataSource(connections.asDataSource())
          .locations("classpath:db/migration")
          .load()
          .migrate();
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
    return pointers;
  }

  /** Registers the pointer cache's and change feed's meters. */
  public void bindMetrics(io.micrometer.core.instrument.MeterRegistry metrics) {
    pointers.bindTo(metrics);
    if (listener != null) {
      io.micrometer.core.instrument.FunctionCounter.builder(
              "sluice.store.pointer.listener.reconnects", listener, PgChangeListener::reconnects)
          .description("Times the pointer change feed's connection was lost and re-established")
          .register(metrics);
    }
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
                "INSERT INTO catalogs (name, catalog_type, properties, storage_config, entity_version, created_at, updated_at)"
                    + " VALUES (?, ?, ?, ?, 1, ?, ?)",
                c.name(),
                c.type(),
                toJson(c.properties()),
                c.storageConfig(),
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
        "SELECT name, catalog_type, properties, storage_config, entity_version, created_at, updated_at FROM catalogs WHERE name = ?",
        JdbcStore::catalogRow,
        name);
  }

  @Override
  public Page<CatalogRecord> listCatalogs(PageRequest page) {
    return pageOf(
        "SELECT name, catalog_type, properties, storage_config, entity_version, created_at, updated_at FROM catalogs WHERE 1 = 1",
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
                "UPDATE catalogs SET properties = ?, storage_config = ?, entity_version = entity_version + 1, updated_at = ?"
                    + " WHERE name = ? AND entity_version = ?")) {
      ps.setString(1, toJson(updated.properties()));
      ps.setString(2, updated.storageConfig());
      ps.setLong(3, System.currentTimeMillis());
      ps.setString(4, updated.name());
      ps.setLong(5, expectedVersion);
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
    List<LocationClaim> claims = claim == null ? List.of() : List.of(claim);
    ensureRoots(claims);
    inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(conn); // in the change's own transaction
          JdbcLocationClaims.lockRoots(conn, claims);
          if (!path.parent().isRoot() && !lockNamespace(conn, catalog, path.parent())) {
            throw new NotFound("Namespace does not exist: " + path.parent());
          }
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "INSERT INTO namespaces (catalog_name, ns_path, parent_path, properties, created_at, updated_at)"
                      + " VALUES (?, ?, ?, ?, ?, ?)")) {
            long now = System.currentTimeMillis();
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            ps.setString(3, path.parent().key());
            ps.setString(4, toJson(properties));
            ps.setLong(5, now);
            ps.setLong(6, now);
            ps.executeUpdate();
          } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
              throw new AlreadyExists("Namespace already exists: " + path);
            }
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotFound("Catalog not found: " + catalog);
            }
            throw e;
          }
          if (claim != null) {
            claimNamespace(conn, catalog, path, claim);
          }
          return null;
        });
  }

  private static void claimNamespace(
      Connection conn, String catalog, NamespacePath path, LocationClaim claim)
      throws SQLException {
    Optional<LocationConflict> conflict =
        JdbcLocationClaims.findNamespaceConflict(conn, catalog, path, claim);
    if (conflict.isPresent()) {
      throw conflict.get();
    }
    JdbcLocationClaims.replaceNamespaceClaim(conn, catalog, path, claim);
  }

  @Override
  public Optional<Map<String, String>> loadNamespace(String catalog, NamespacePath path) {
    if (path.isRoot()) {
      return Optional.empty();
    }
    return queryOne(
        "SELECT properties FROM namespaces WHERE catalog_name = ? AND ns_path = ?",
        rs -> fromJson(rs.getString(1)),
        catalog,
        path.key());
  }

  @Override
  public Page<NamespacePath> listNamespaces(
      String catalog, NamespacePath parent, PageRequest page) {
    Page<String> keys =
        pageOf(
            "SELECT ns_path FROM namespaces WHERE catalog_name = ? AND parent_path = ?",
            "ns_path",
            page,
            catalog,
            parent.key());
    return new Page<>(keys.items().stream().map(NamespacePath::fromKey).toList(), keys.nextToken());
  }

  @Override
  public boolean dropNamespace(String catalog, NamespacePath path) {
    return inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(conn); // in the change's own transaction
          if (!lockNamespace(conn, catalog, path)) {
            return false;
          }
          if (exists(
                  conn,
                  "SELECT 1 FROM namespaces WHERE catalog_name = ? AND parent_path = ?",
                  catalog,
                  path.key())
              || exists(
                  conn,
                  "SELECT 1 FROM contents WHERE catalog_name = ? AND ns_path = ?",
                  catalog,
                  path.key())) {
            throw new NotEmpty("Namespace " + path + " is not empty");
          }
          update(
              conn,
              "DELETE FROM privilege_grants WHERE catalog_name = ? AND securable_type = 'NAMESPACE' AND securable_ns = ?",
              catalog,
              path.key());
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "DELETE FROM namespaces WHERE catalog_name = ? AND ns_path = ?")) {
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            ps.executeUpdate();
          } catch (SQLException e) {
            if (FK_VIOLATION.contains(e.getSQLState())) {
              throw new NotEmpty("Namespace " + path + " is not empty");
            }
            throw e;
          }
          return true;
        });
  }

  @Override
  public Map<String, String> updateNamespaceProperties(
      String catalog,
      NamespacePath path,
      Set<String> removals,
      Map<String, String> updates,
      LocationClaim newClaim) {
    List<LocationClaim> claims = newClaim == null ? List.of() : List.of(newClaim);
    ensureRoots(claims);
    return inTransaction(
        conn -> {
          IdempotencyClaim.recordIn(conn); // in the change's own transaction
          JdbcLocationClaims.lockRoots(conn, claims);
          Map<String, String> current;
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "SELECT properties FROM namespaces WHERE catalog_name = ? AND ns_path = ? FOR UPDATE")) {
            ps.setString(1, catalog);
            ps.setString(2, path.key());
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                throw new NotFound("Namespace does not exist: " + path);
              }
              current = fromJson(rs.getString(1));
            }
          }
          if (newClaim != null) {
            // A namespace that moves leaves its tables where they are: only an empty one may move.
            if (exists(
                    conn,
                    "SELECT 1 FROM namespaces WHERE catalog_name = ? AND parent_path = ?",
                    catalog,
                    path.key())
                || exists(
                    conn,
                    "SELECT 1 FROM contents WHERE catalog_name = ? AND ns_path = ?",
                    catalog,
                    path.key())) {
              throw new NotEmpty("Namespace " + path + " holds tables, views or namespaces");
            }
            claimNamespace(conn, catalog, path, newClaim);
          }
          Map<String, String> next = new TreeMap<>(current);
          removals.forEach(next::remove);
          next.putAll(updates);
          try (PreparedStatement ps =
              conn.prepareStatement(
                  "UPDATE namespaces SET properties = ?, updated_at = ? WHERE catalog_name = ? AND ns_path = ?")) {
            ps.setString(1, toJson(next));
            ps.setLong(2, System.currentTimeMillis());
            ps.setString(3, catalog);
            ps.setString(4, path.key());
            ps.executeUpdate();
          }
          return current;
        });
  }

  // ---------------------------------------------------------------- tables and views

  @Override
  public Optional<ContentRecord> getContent(String catalog, NamespacePath ns, String name) {
    return pointers.get(
        PointerCache.Key.of(catalog, ns, name), () -> readContent(catalog, ns, name));
  }

  /** The pointer as the database holds it now. */
  Optional<ContentRecord> readContent(String catalog, NamespacePath ns, String name) {
    return queryOne(
        "SELECT kind, metadata_location, version FROM contents WHERE catalog_name = ? AND ns_path = ? AND name = ?",
        rs ->
            new ContentRecord(
                catalog,
                ns,
                name,
                ContentKind.valueOf(rs.getString(1)),
                rs.getString(2),
                rs.getLong(3)),
        catalog,
        ns.key(),
        name);
  }

  @Override
  public Page<String> listContents(
      String catalog, NamespacePath ns, ContentKind kind, PageRequest page) {
    return pageOf(
        "SELECT name FROM contents WHERE catalog_name = ? AND ns_path = ? AND kind = ?",
        "name",
        page,
        catalog,
        ns.key(),
        kind.name());
  }

  @Override
  public void createContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      String metadataLocation,
      List<LocationClaim> claims) {
    ensureRoots(claims);
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    try {
      inTransaction(
          conn -> {
            IdempotencyClaim.recordIn(conn); // in the change's own transaction
            // Roots first, then the row: the order swapMetadata locks in too.
            JdbcLocationClaims.lockRoots(conn, claims);
            List<Long> version;
            try {
              long now = System.currentTimeMillis();
              version =
                  versioned(
                      conn,
                      "INSERT INTO contents (catalog_name, ns_path, name, kind, metadata_location, version, created_at, updated_at)"
                          + " VALUES (?, ?, ?, ?, ?, "
                          + VERSION
                          + ", ?, ?)",
                      catalog,
                      ns.key(),
                      name,
                      kind.name(),
                      metadataLocation,
                      now,
                      now);
            } catch (SQLException e) {
              if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw new DuplicateName();
              }
              if (FK_VIOLATION.contains(e.getSQLState())) {
                throw new NotFound("Namespace does not exist: " + ns);
              }
              throw e;
            }
            Optional<LocationConflict> conflict =
                JdbcLocationClaims.findConflict(conn, catalog, ns, name, claims);
            if (conflict.isPresent()) {
              throw conflict.get();
            }
            JdbcLocationClaims.insert(conn, catalog, ns, name, claims);
            publish(conn, changes(List.of(key), version));
            return null;
          });
    } catch (DuplicateName e) {
      throw alreadyExists(catalog, ns, name);
    } finally {
      pointers.invalidate(key);
    }
  }

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

  /**
   * Makes sure the lock rows of the claims' roots exist; no database call once they are known here.
   */
  private void ensureRoots(List<LocationClaim> claims) {
    if (claimSql.knowsRoots(claims)) {
      return;
    }
    try (Connection conn = connection()) {
      claimSql.ensureRoots(conn, claims);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  public void swapMetadata(String catalog, List<MetadataSwap> swaps) {
    // A fixed lock order keeps two concurrent multi-table commits from deadlocking.
    List<MetadataSwap> ordered = new ArrayList<>(swaps);
    ordered.sort(
        Comparator.comparing((MetadataSwap s) -> s.namespace().key())
            .thenComparing(MetadataSwap::name));
    List<LocationClaim> claimed = new ArrayList<>();
    ordered.stream()
        .filter(swap -> swap.claims() != null)
        .forEach(swap -> claimed.addAll(swap.claims()));
    ensureRoots(claimed);
    List<PointerCache.Key> keys =
        ordered.stream()
            .map(swap -> PointerCache.Key.of(catalog, swap.namespace(), swap.name()))
            .toList();
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          swapOnce(catalog, ordered, claimed, keys);
          return;
        } catch (RetryableSwap e) {
          // Rolled back before COMMIT: nothing was applied, so trying again is safe.
          if (attempt >= MAX_ATTEMPTS) {
            throw unavailable(e.cause);
          }
        }
      }
    } finally {
      // Moved, or refused (a Conflict often means our cached base was stale): read it afresh.
      keys.forEach(pointers::invalidate);
    }
  }

  /**
   * The name is taken; turned into {@link AlreadyExists} (naming the kind that holds it) after
   * rollback.
   */
  private static final class DuplicateName extends RuntimeException {}

  private static final class RetryableSwap extends RuntimeException {
    private final SQLException cause;

    RetryableSwap(SQLException cause) {
      super(cause);
      this.cause = cause;
    }
  }

  private void swapOnce(
      String catalog,
      List<MetadataSwap> ordered,
      List<LocationClaim> claimed,
      List<PointerCache.Key> keys) {
    Connection conn;
    try {
      conn = connection();
    } catch (SQLException e) {
      throw unavailable(e);
    }
    try {
      conn.setAutoCommit(false);
      try {
        IdempotencyClaim.recordIn(conn); // in the commit's own transaction
        // Roots before rows, as createContent does.
        JdbcLocationClaims.lockRoots(conn, claimed);
        long now = System.currentTimeMillis();
        List<Long> versions = new ArrayList<>();
        for (MetadataSwap swap : ordered) {
          List<Long> version =
              versioned(
                  conn,
                  "UPDATE contents SET metadata_location = ?, previous_metadata_location = ?, version = "
                      + VERSION
                      + ", updated_at = ?"
                      + " WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ? AND metadata_location = ?",
                  swap.next(),
                  swap.expected(),
                  now,
                  catalog,
                  swap.namespace().key(),
                  swap.name(),
                  swap.kind().name(),
                  swap.expected());
          if (version.size() != 1) {
            conn.rollback();
            throw new Conflict(
                "Cannot commit "
                    + swap.namespace()
                    + "."
                    + swap.name()
                    + ": its metadata changed concurrently");
          }
          if (swap.claims() != null) {
            Optional<LocationConflict> conflict =
                JdbcLocationClaims.findConflict(
                    conn, catalog, swap.namespace(), swap.name(), swap.claims());
            if (conflict.isPresent()) {
              conn.rollback();
              throw conflict.get();
            }
            JdbcLocationClaims.replace(conn, catalog, swap.namespace(), swap.name(), swap.claims());
          }
          versions.add(version.get(0));
        }
        publish(conn, changes(keys, versions));
      } catch (IdempotencyKeyTaken e) {
        rollbackQuietly(conn);
        throw e;
      } catch (SQLException e) {
        rollbackQuietly(conn);
        if (retryable(e)) {
          throw new RetryableSwap(e);
        }
        throw unavailable(e);
      }
      try {
        conn.commit();
      } catch (SQLException e) {
        throw new CommitOutcomeUnknown(
            "The database failed while committing; the commit may have been applied", e);
      }
    } catch (SQLException e) {
      // setAutoCommit failed: nothing was sent.
      rollbackQuietly(conn);
      throw unavailable(e);
    } finally {
      // After COMMIT succeeded, a failing close() must not turn an applied commit into an error.
      closeQuietly(conn);
    }
  }

  private static void closeQuietly(Connection conn) {
    try {
      conn.close();
    } catch (SQLException ignored) {
      // the pool discards a broken connection
    }
  }

  @Override
  public boolean dropContent(String catalog, NamespacePath ns, String name, ContentKind kind) {
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    try {
      return inTransaction(
          conn -> {
            IdempotencyClaim.recordIn(conn); // in the change's own transaction
            List<Long> dropped =
                versioned(
                    conn,
                    "DELETE FROM contents WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ?",
                    catalog,
                    ns.key(),
                    name,
                    kind.name());
            dropGrants(conn, catalog, ns, name, kind);
            publish(conn, changes(List.of(key), dropped));
            return dropped.size() == 1;
          });
    } finally {
      pointers.invalidate(key);
    }
  }

  @Override
  public boolean dropContentIfAt(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation) {
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    try {
      return inTransaction(
          conn -> {
            List<Long> dropped =
                versioned(
                    conn,
                    "DELETE FROM contents WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ?"
                        + " AND metadata_location = ?",
                    catalog,
                    ns.key(),
                    name,
                    kind.name(),
                    metadataLocation);
            if (dropped.size() != 1) {
              return false; // moved on or re-created meanwhile: it and its grants stay
            }
            dropGrants(conn, catalog, ns, name, kind);
            publish(conn, changes(List.of(key), dropped));
            return true;
          });
    } finally {
      pointers.invalidate(key);
    }
  }

  private static void dropGrants(
      Connection conn, String catalog, NamespacePath ns, String name, ContentKind kind)
      throws SQLException {
    update(
        conn,
        "DELETE FROM privilege_grants WHERE catalog_name = ? AND securable_type = ? AND securable_ns = ? AND securable_name = ?",
        catalog,
        kind.name(),
        ns.key(),
        name);
  }

  @Override
  public void renameContent(
      String catalog,
      ContentKind kind,
      NamespacePath fromNs,
      String fromName,
      NamespacePath toNs,
      String toName) {
    PointerCache.Key from = PointerCache.Key.of(catalog, fromNs, fromName);
    PointerCache.Key to = PointerCache.Key.of(catalog, toNs, toName);
    try {
      inTransaction(
          conn -> {
            IdempotencyClaim.recordIn(conn); // in the change's own transaction
            List<Long> moved =
                versioned(
                    conn,
                    "UPDATE contents SET ns_path = ?, name = ?, version = "
                        + VERSION
                        + ", updated_at = ?"
                        + " WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ?",
                    toNs.key(),
                    toName,
                    System.currentTimeMillis(),
                    catalog,
                    fromNs.key(),
                    fromName,
                    kind.name());
            if (moved.isEmpty()) {
              throw new NotFound(
                  (kind == ContentKind.TABLE ? "Table" : "View")
                      + " does not exist: "
                      + fromNs
                      + "."
                      + fromName);
            }
            // Grants follow the renamed table or view.
            update(
                conn,
                "UPDATE privilege_grants SET securable_ns = ?, securable_name = ?"
                    + " WHERE catalog_name = ? AND securable_type = ? AND securable_ns = ? AND securable_name = ?",
                toNs.key(),
                toName,
                catalog,
                kind.name(),
                fromNs.key(),
                fromName);
            publish(conn, changes(List.of(from, to), List.of(moved.get(0), moved.get(0))));
            return null;
          });
    } catch (StoreUnavailable e) {
      if (e.getCause() instanceof SQLException sql) {
        if (UNIQUE_VIOLATION.equals(sql.getSQLState())) {
          throw alreadyExists(catalog, toNs, toName);
        }
        if (FK_VIOLATION.contains(sql.getSQLState())) {
          throw new NotFound("Namespace does not exist: " + toNs);
        }
      }
      throw e;
    } finally {
      pointers.invalidate(from);
      pointers.invalidate(to);
    }
  }

  @Override
  public AccessStore access() {
    return access;
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
  public boolean ping() {
    try (Connection conn = connection()) {
      return conn.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
    dataSource.close();
  }

  // ---------------------------------------------------------------- pointer versions and feed

  /** Where a statement gives a written row its new version: the next value of one sequence. */
  private static final String VERSION = "{version}";

  /**
   * Runs an INSERT or UPDATE that sets {@code version = }{@link #VERSION}, or a DELETE, and returns
   * one new version per row it wrote (a DELETE draws one for its notification). On H2, which has no
   * change feed, the versions are stored but not returned (0s).
   */
  private List<Long> versioned(Connection conn, String sql, Object... args) throws SQLException {
    if (!postgres) {
      int rows = update(conn, sql.replace(VERSION, "NEXT VALUE FOR content_version"), args);
      return java.util.Collections.nCopies(rows, 0L);
    }
    String returning =
        sql.contains(VERSION) ? " RETURNING version" : " RETURNING nextval('content_version')";
    try (PreparedStatement ps =
        conn.prepareStatement(sql.replace(VERSION, "nextval('content_version')") + returning)) {
      bind(ps, args);
      List<Long> versions = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          versions.add(rs.getLong(1));
        }
      }
      return versions;
    }
  }

  private static List<PointerChange> changes(List<PointerCache.Key> keys, List<Long> versions) {
    List<PointerChange> changes = new ArrayList<>();
    for (int i = 0; i < Math.min(keys.size(), versions.size()); i++) {
      changes.add(new PointerChange(keys.get(i), versions.get(i)));
    }
    return changes;
  }

  /**
   * Tells every replica, in the writing transaction (PostgreSQL delivers a NOTIFY only when it
   * commits, and never when it rolls back), which pointers it moved.
   */
  private void publish(Connection conn, List<PointerChange> changes) throws SQLException {
    if (!postgres || changes.isEmpty()) {
      return;
    }
    String sql =
        "SELECT "
            + String.join(", ", java.util.Collections.nCopies(changes.size(), "pg_notify(?, ?)"));
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      int i = 1;
      for (PointerChange change : changes) {
        ps.setString(i++, PointerChange.CHANNEL);
        ps.setString(i++, change.payload());
      }
      ps.execute();
    }
  }

  // ---------------------------------------------------------------- row helpers

  private static boolean lockNamespace(Connection conn, String catalog, NamespacePath path)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT 1 FROM namespaces WHERE catalog_name = ? AND ns_path = ? FOR UPDATE")) {
      ps.setString(1, catalog);
      ps.setString(2, path.key());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private AlreadyExists alreadyExists(String catalog, NamespacePath ns, String name) {
    Optional<ContentRecord> existing = getContent(catalog, ns, name);
    String what =
        existing.map(c -> c.kind() == ContentKind.VIEW ? "View" : "Table").orElse("Table");
    return new AlreadyExists(what + " with same name already exists: " + ns + "." + name);
  }

  private static CatalogRecord catalogRow(ResultSet rs) throws SQLException {
    return new CatalogRecord(
        rs.getString(1),
        rs.getString(2),
        fromJson(rs.getString(3)),
        rs.getString(4),
        rs.getLong(5),
        rs.getLong(6),
        rs.getLong(7));
  }
}
