package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The SQL of remote location claims (see V15__federation.sql) for {@link JdbcStore}: the locations
 * of a federated catalog's tables, keyed and locked like a table's location claims ({@link
 * JdbcLocationClaims}), so no table of any catalog overlaps another. Sluice holds no pointer for
 * these tables: every other claim is foreign to them, a namespace's too.
 */
final class JdbcRemoteClaims extends JdbcSupport {
  private final JdbcLocationClaims claimSql;

  JdbcRemoteClaims(
      HikariDataSource dataSource, StoreConnections connections, JdbcLocationClaims claimSql) {
    super(dataSource, connections);
    this.claimSql = requireNonNull(claimSql, "claimSql");
  }

  /** See {@link Store#claimRemoteLocations}. */
  Optional<LocationConflict> claim(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims) {
    Map<String, LocationClaim> wanted = new LinkedHashMap<>();
    claims.forEach(claim -> wanted.putIfAbsent(claim.key(), claim));
    // Every federated load that vends claims again: what is held unchanged was checked when it
    // was taken, and every claim since saw it, so it still overlaps nothing.
    if (held(catalog, ns, name).equals(wanted.keySet())) {
      return Optional.empty();
    }
    ensureRoots(claimSql, claims);
    return inTransaction(
        conn -> {
          JdbcLocationClaims.lockRoots(conn, claims);
          for (LocationClaim claim : wanted.values()) {
            Optional<LocationConflict> conflict = foreignOverlap(conn, catalog, ns, name, claim);
            if (conflict.isPresent()) {
              return conflict; // nothing written yet: the commit only releases the locks
            }
          }
          update(
              conn,
              "DELETE FROM remote_location_claims WHERE catalog_name = ? AND ns_path = ? AND name = ?",
              catalog,
              ns.key(),
              name);
          insert(conn, catalog, ns, name, wanted.values());
          return Optional.empty();
        });
  }

  /** See {@link Store#releaseRemoteLocations}. */
  void release(String catalog, NamespacePath ns, String name) {
    inTransaction(
        conn ->
            update(
                conn,
                "DELETE FROM remote_location_claims WHERE catalog_name = ? AND ns_path = ? AND name = ?",
                catalog,
                ns.key(),
                name));
  }

  /** See {@link Store#remoteClaimHolder}. */
  Optional<RemoteClaimHolder> holder(String locationKey) {
    // A claim's own row is the one whose prefix is its key: one row per claim.
    return queryOne(
        "SELECT catalog_name, ns_path, name FROM remote_location_claims"
            + " WHERE location_key = ? AND prefix_key = location_key FETCH FIRST 1 ROWS ONLY",
        rs ->
            new RemoteClaimHolder(
                rs.getString(1), NamespacePath.fromKey(rs.getString(2)), rs.getString(3)),
        locationKey);
  }

  /** The location keys the remote table holds now. */
  private Set<String> held(String catalog, NamespacePath ns, String name) {
    return new HashSet<>(
        queryList(
            "SELECT DISTINCT location_key FROM remote_location_claims"
                + " WHERE catalog_name = ? AND ns_path = ? AND name = ?",
            rs -> rs.getString(1),
            catalog,
            ns.key(),
            name));
  }

  /**
   * A claim overlapping {@code claim} that the remote table (catalog, ns, name) does not hold: any
   * table's or view's, any namespace's, another remote table's.
   */
  private static Optional<LocationConflict> foreignOverlap(
      Connection conn, String catalog, NamespacePath ns, String name, LocationClaim claim)
      throws SQLException {
    for (String table : List.of("location_claims", "namespace_claims")) {
      Optional<LocationConflict> conflict = overlapIn(conn, table, claim, "");
      if (conflict.isPresent()) {
        return conflict;
      }
    }
    return overlapping(conn, claim, new RemoteClaimHolder(catalog, ns, name));
  }

  /**
   * A remote table's claim overlapping {@code claim} (equal to, around or inside it), other than
   * {@code except}'s when given: what every table, view and namespace claim must also keep off.
   */
  static Optional<LocationConflict> overlapping(
      Connection conn, LocationClaim claim, RemoteClaimHolder except) throws SQLException {
    if (except == null) {
      return overlapIn(conn, "remote_location_claims", claim, "");
    }
    return overlapIn(
        conn,
        "remote_location_claims",
        claim,
        " AND NOT (catalog_name = ? AND ns_path = ? AND name = ?)",
        except.catalog(),
        except.ns().key(),
        except.name());
  }

  /**
   * A claim in {@code table} (one of the three claim tables, same columns) that covers {@code
   * claim} (its key is one of claim's ancestry) or lies inside it (claim's key is among its
   * prefixes), narrowed by {@code filter}: two indexed equality lookups.
   */
  private static Optional<LocationConflict> overlapIn(
      Connection conn, String table, LocationClaim claim, String filter, Object... filterArgs)
      throws SQLException {
    String marks = String.join(", ", Collections.nCopies(claim.ancestry().size(), "?"));
    List<Object> args = new ArrayList<>(claim.ancestry());
    args.addAll(List.of(filterArgs));
    Optional<String> covering =
        JdbcLocationClaims.first(
            conn,
            "SELECT location_key FROM " + table + " WHERE location_key IN (" + marks + ")" + filter,
            args.toArray());
    if (covering.isEmpty()) {
      args = new ArrayList<>(List.of(claim.key()));
      args.addAll(List.of(filterArgs));
      covering =
          JdbcLocationClaims.first(
              conn,
              "SELECT location_key FROM " + table + " WHERE prefix_key = ?" + filter,
              args.toArray());
    }
    return covering.map(other -> new LocationConflict(claim.key(), other));
  }

  private static void insert(
      Connection conn,
      String catalog,
      NamespacePath ns,
      String name,
      java.util.Collection<LocationClaim> claims)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "INSERT INTO remote_location_claims (prefix_key, location_key, catalog_name, ns_path, name)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      for (LocationClaim claim : claims) {
        for (String prefix : claim.ancestry()) {
          bind(ps, prefix, claim.key(), catalog, ns.key(), name);
          ps.addBatch();
        }
      }
      ps.executeBatch();
    } catch (SQLException e) {
      if (isForeignKeyViolation(e)) {
        throw new NotFound("Catalog not found: " + catalog);
      }
      throw e;
    }
  }

  /** A batch reports the failing statement's state itself or in its next exception. */
  private static boolean isForeignKeyViolation(SQLException e) {
    for (SQLException s = e; s != null; s = s.getNextException()) {
      if (FK_VIOLATION.contains(s.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
