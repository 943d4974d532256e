package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The SQL of table and view pointers for {@link JdbcStore}: read through this replica's {@link
 * PointerCache}, created, swapped (the metadata pointer CAS, one or several tables at once),
 * dropped and renamed, each write in one transaction with its location claims and grants, its new
 * versions drawn and published by {@link PointerVersions}, and the cached pointers it touched
 * invalidated whatever the outcome.
 */
final class JdbcContents extends JdbcSupport {
  /** The compare-and-set of a pointer swap. */
  private static final String SWAP_CAS = "metadata_location = ?";

  private final PointerVersions versioning;
  private final PointerCache pointers;
  private final JdbcLocationClaims claimSql;

  JdbcContents(
      HikariDataSource dataSource,
      StoreConnections connections,
      PointerVersions versioning,
      JdbcLocationClaims claimSql) {
    super(dataSource, connections);
    this.versioning = requireNonNull(versioning, "versioning");
    this.pointers = versioning.cache();
    this.claimSql = requireNonNull(claimSql, "claimSql");
  }

  /** What a write published in its transaction, for the cache once the outcome is known. */
  private static final class Published {
    private List<PointerChange> changes = List.of();

    List<PointerChange> of(List<PointerChange> published) {
      this.changes = published;
      return published;
    }
  }

  /** A write of pointers: its body gets where to note what it publishes. */
  @FunctionalInterface
  private interface Write<T> {
    T run(Published published);
  }

  /**
   * Runs {@code write} on the pointers at {@code keys}, then settles them in the cache whatever the
   * outcome ({@link PointerCache#settled}): what it committed, or whether a failure may have been
   * applied. A refusal thrown before COMMIT (rolled back) changed nothing.
   */
  private <T> T writing(List<PointerCache.Key> keys, Write<T> write) {
    Published published = new Published();
    boolean committed = false;
    boolean refused = false;
    try {
      T result = write.run(published);
      committed = true;
      return result;
    } catch (Conflict
        | LocationConflict
        | NotFound
        | AlreadyExists
        | DuplicateName
        | IdempotencyKeyTaken e) {
      refused = true;
      throw e;
    } finally {
      pointers.settled(keys, committed ? published.changes : null, !committed && !refused);
    }
  }

  Optional<ContentRecord> getContent(String catalog, NamespacePath ns, String name) {
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

  Page<String> listContents(String catalog, NamespacePath ns, ContentKind kind, PageRequest page) {
    return pointers.listing(
        new PointerCache.ListingKey(catalog, ns.key(), kind, page.after(), page.size()),
        () -> readListing(catalog, ns, kind, page));
  }

  private Page<String> readListing(
      String catalog, NamespacePath ns, ContentKind kind, PageRequest page) {
    return pageOf(
        "SELECT name FROM contents WHERE catalog_name = ? AND ns_path = ? AND kind = ?",
        List.of("catalog_name", "ns_path", "kind"), // contents_by_kind
        "name",
        page,
        catalog,
        ns.key(),
        kind.name());
  }

  void createContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      String metadataLocation,
      List<LocationClaim> claims,
      IdempotencyClaim idempotency) {
    ensureRoots(claimSql, claims);
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    try {
      writing(
          List.of(key),
          published ->
              inTransaction(
                  conn -> {
                    IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
                    // Roots first, then the row: the order swapMetadata locks in too.
                    JdbcLocationClaims.lockRoots(conn, claims);
                    List<Long> version;
                    try {
                      long now = System.currentTimeMillis();
                      version =
                          versioning.versioned(
                              conn,
                              "INSERT INTO contents (catalog_name, ns_path, name, kind, metadata_location, version, created_at, updated_at)"
                                  + " VALUES (?, ?, ?, ?, ?, "
                                  + PointerVersions.VERSION
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
                    JdbcRemoteClaims.yieldTo(conn, claims);
                    JdbcLocationClaims.insert(conn, catalog, ns, name, claims);
                    versioning.publish(
                        conn, published.of(PointerVersions.changes(List.of(key), version)));
                    return null;
                  }));
    } catch (DuplicateName e) {
      throw alreadyExists(catalog, ns, name);
    }
  }

  void swapMetadata(String catalog, List<MetadataSwap> swaps, IdempotencyClaim idempotency) {
    // A fixed lock order keeps two concurrent multi-table commits from deadlocking.
    List<MetadataSwap> ordered = new ArrayList<>(swaps);
    ordered.sort(
        Comparator.comparing((MetadataSwap s) -> s.namespace().key())
            .thenComparing(MetadataSwap::name));
    List<LocationClaim> claimed = new ArrayList<>();
    ordered.stream()
        .filter(swap -> swap.claims() != null)
        .forEach(swap -> claimed.addAll(swap.claims()));
    ensureRoots(claimSql, claimed);
    List<PointerCache.Key> keys =
        ordered.stream()
            .map(swap -> PointerCache.Key.of(catalog, swap.namespace(), swap.name()))
            .toList();
    // Moved, or refused (a Conflict often means our cached base was stale): read it afresh.
    writing(
        keys,
        published -> {
          for (int attempt = 1; ; attempt++) {
            try {
              swapOnce(catalog, ordered, claimed, keys, published, idempotency);
              return null;
            } catch (RetryableSwap e) {
              // Rolled back before COMMIT: nothing was applied, so trying again is safe.
              if (attempt >= MAX_ATTEMPTS) {
                throw unavailable(e.cause);
              }
            }
          }
        });
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
      List<PointerCache.Key> keys,
      Published published,
      IdempotencyClaim idempotency) {
    Connection conn;
    try {
      conn = connection();
    } catch (SQLException e) {
      throw unavailable(e);
    }
    try {
      conn.setAutoCommit(false);
      try {
        IdempotencyClaim.recordIn(idempotency, conn); // in the commit's own transaction
        // Roots before rows, as createContent does.
        JdbcLocationClaims.lockRoots(conn, claimed);
        long now = System.currentTimeMillis();
        List<Long> versions = new ArrayList<>();
        for (MetadataSwap swap : ordered) {
          List<Long> version =
              versioning.versioned(
                  conn,
                  "UPDATE contents SET metadata_location = ?, previous_metadata_location = ?, version = "
                      + PointerVersions.VERSION
                      + ", updated_at = ?"
                      + " WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ? AND "
                      + SWAP_CAS,
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
            JdbcRemoteClaims.yieldTo(conn, swap.claims());
            JdbcLocationClaims.replace(conn, catalog, swap.namespace(), swap.name(), swap.claims());
          }
          versions.add(version.get(0));
        }
        versioning.publish(conn, published.of(PointerVersions.changes(keys, versions)));
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
        H2Instance.requireWritten(conn);
      } catch (SQLException e) {
        // An H2 file that failed to write is closed first, so that the check reads the file, not
        // what that opening still holds in memory (H2Instance).
        Object failedOpening = EvictBrokenConnections.gone(e) ? H2Instance.of(conn) : null;
        if (failedOpening != null) {
          H2Instance.abandon(conn);
        }
        closeQuietly(conn); // a broken connection goes back first: the check takes a new one
        settleFailedCommit(catalog, ordered, e, failedOpening);
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

  /**
   * COMMIT failed (H2 could not write its file, the connection broke): reads the pointers back on a
   * fresh connection. All at their new metadata (or replaced by a commit made on it): applied, so
   * this returns. All still at the expected one (or replaced by a commit made on that): not applied
   * (each commit writes a metadata file of its own, so a pointer never comes back to it), so the
   * caller can retry: 503. Anything else, or no answer: really unknown.
   */
  private static final int OUTCOME_CHECK_SECONDS = 2;

  /**
   * How long the check waits for an H2 file that failed to open again. Opening writes, so while the
   * disk stays full it cannot; a disk freed within this while still gets a definite answer.
   */
  private static final int REOPEN_CHECK_SECONDS = 10;

  private static final long OUTCOME_CHECK_PAUSE_NANOS = 100_000_000L;

  private void settleFailedCommit(
      String catalog, List<MetadataSwap> swaps, SQLException failure, Object failedOpening) {
    // H2 takes a moment to close a database whose file failed, and answers "closed" meanwhile;
    // the pool then opens it again. So the check is tried a few times, for a bounded while.
    long deadline =
        System.nanoTime()
            + java.util.concurrent.TimeUnit.SECONDS.toNanos(
                failedOpening == null ? OUTCOME_CHECK_SECONDS : REOPEN_CHECK_SECONDS);
    int[] found = null;
    for (int attempt = 1; found == null; attempt++) {
      try {
        found = pointersNow(catalog, swaps, failedOpening);
      } catch (SQLException e) {
        if (attempt == 1 || System.nanoTime() - deadline >= 0) {
          failure.addSuppressed(e);
        }
        if (System.nanoTime() - deadline >= 0) {
          break;
        }
        java.util.concurrent.locks.LockSupport.parkNanos(OUTCOME_CHECK_PAUSE_NANOS);
      }
    }
    int applied = found == null ? -1 : found[0];
    int notApplied = found == null ? -1 : found[1];
    if (applied == swaps.size()) {
      return;
    }
    if (notApplied == swaps.size()) {
      throw new StoreUnavailable(
          "The database failed while committing and did not apply the commit: "
              + failure.getMessage(),
          failure);
    }
    throw new CommitOutcomeUnknown(
        "The database failed while committing; the commit may have been applied", failure);
  }

  /**
   * How many of {@code swaps} are at their new metadata and how many still at the expected one. FOR
   * UPDATE waits for the failed transaction if the database is still finishing it (the connection
   * broke, not the database), so what it reads is the outcome, not a moment before.
   */
  private int[] pointersNow(String catalog, List<MetadataSwap> swaps, Object failedOpening)
      throws SQLException {
    int applied = 0;
    int notApplied = 0;
    try (Connection conn = connection()) {
      if (failedOpening != null && H2Instance.of(conn) == failedOpening) {
        // A pooled connection to the opening that failed: used once, it fails and the pool drops
        // it.
        try (Statement s = conn.createStatement()) {
          s.execute("SELECT 1");
        }
        throw new SQLException("the H2 file that failed is not open again yet", "08003");
      }
      conn.setAutoCommit(false);
      try (PreparedStatement ps =
          conn.prepareStatement(
              "SELECT metadata_location, previous_metadata_location FROM contents"
                  + " WHERE catalog_name = ? AND ns_path = ? AND name = ? FOR UPDATE")) {
        ps.setQueryTimeout(OUTCOME_CHECK_SECONDS);
        for (MetadataSwap swap : swaps) {
          bind(ps, catalog, swap.namespace().key(), swap.name());
          try (ResultSet rs = ps.executeQuery()) {
            boolean found = rs.next();
            String now = found ? rs.getString(1) : null;
            String before = found ? rs.getString(2) : null;
            // One later commit may have landed meanwhile (the check waits for H2 to reopen its
            // file): the pointer it replaced tells which base it found.
            if (swap.next().equals(now) || swap.next().equals(before)) {
              applied++;
            } else if (swap.expected().equals(now) || swap.expected().equals(before)) {
              notApplied++;
            }
          }
        }
      } finally {
        rollbackQuietly(conn);
      }
    }
    return new int[] {applied, notApplied};
  }

  private static void closeQuietly(Connection conn) {
    try {
      conn.close();
    } catch (SQLException ignored) {
      // the pool discards a broken connection
    }
  }

  boolean dropContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      IdempotencyClaim idempotency) {
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    return writing(
        List.of(key),
        published ->
            inTransaction(
                conn -> {
                  IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
                  List<Long> dropped =
                      versioning.versioned(
                          conn,
                          "DELETE FROM contents WHERE catalog_name = ? AND ns_path = ? AND name = ? AND kind = ?",
                          catalog,
                          ns.key(),
                          name,
                          kind.name());
                  dropGrants(conn, catalog, ns, name, kind);
                  versioning.publish(
                      conn, published.of(PointerVersions.changes(List.of(key), dropped)));
                  return dropped.size() == 1;
                }));
  }

  boolean dropContentIfAt(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation) {
    PointerCache.Key key = PointerCache.Key.of(catalog, ns, name);
    return writing(
        List.of(key),
        published ->
            inTransaction(
                conn -> {
                  List<Long> dropped =
                      versioning.versioned(
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
                  versioning.publish(
                      conn, published.of(PointerVersions.changes(List.of(key), dropped)));
                  return true;
                }));
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

  void renameContent(
      String catalog,
      ContentKind kind,
      NamespacePath fromNs,
      String fromName,
      NamespacePath toNs,
      String toName,
      IdempotencyClaim idempotency) {
    PointerCache.Key from = PointerCache.Key.of(catalog, fromNs, fromName);
    PointerCache.Key to = PointerCache.Key.of(catalog, toNs, toName);
    try {
      writing(
          List.of(from, to),
          published ->
              inTransaction(
                  conn -> {
                    IdempotencyClaim.recordIn(idempotency, conn); // in the change's own transaction
                    List<Long> moved =
                        versioning.versioned(
                            conn,
                            "UPDATE contents SET ns_path = ?, name = ?, version = "
                                + PointerVersions.VERSION
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
                    versioning.publish(
                        conn,
                        published.of(
                            PointerVersions.changes(
                                List.of(from, to), List.of(moved.get(0), moved.get(0)))));
                    return null;
                  }));
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
    }
  }

  private AlreadyExists alreadyExists(String catalog, NamespacePath ns, String name) {
    Optional<ContentRecord> existing = getContent(catalog, ns, name);
    String what =
        existing.map(c -> c.kind() == ContentKind.VIEW ? "View" : "Table").orElse("Table");
    return new AlreadyExists(what + " with same name already exists: " + ns + "." + name);
  }
}
