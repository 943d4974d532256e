package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SQL of location claims (see V4__location_claims.sql) for {@link JdbcStore}: locking the
 * storage roots a transaction claims in, finding an overlapping claim of another table or view with
 * two indexed equality lookups per location, and writing a content's claims.
 */
final class JdbcLocationClaims {
  /** Roots known to have their lock row; rows are never deleted, so this only saves inserts. */
  private final Set<String> knownRoots = ConcurrentHashMap.newKeySet();

  /**
   * True when every root of {@code claims} is known to have its lock row (always for no claims).
   */
  boolean knowsRoots(List<LocationClaim> claims) {
    return claims.stream().allMatch(claim -> knownRoots.contains(claim.root()));
  }

  /**
   * Makes sure every root of {@code claims} has its lock row, each in its own auto-commit insert.
   */
  void ensureRoots(Connection conn, List<LocationClaim> claims) throws SQLException {
    for (String root : roots(claims)) {
      if (knownRoots.contains(root)) {
        continue;
      }
      try (PreparedStatement ps =
          conn.prepareStatement("INSERT INTO storage_roots (root_key) VALUES (?)")) {
        ps.setString(1, root);
        ps.executeUpdate();
      } catch (SQLException e) {
        if (!JdbcSupport.UNIQUE_VIOLATION.equals(e.getSQLState())) {
          throw e;
        }
      }
      knownRoots.add(root);
    }
  }

  /**
   * Locks the roots' rows until the transaction ends, in a fixed order so two claimers cannot
   * deadlock.
   */
  static void lockRoots(Connection conn, List<LocationClaim> claims) throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT root_key FROM storage_roots WHERE root_key = ? FOR UPDATE")) {
      for (String root : roots(claims)) {
        ps.setString(1, root);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            throw new SQLException("Storage root lock row is missing: " + root);
          }
        }
      }
    }
  }

  /**
   * The first claim among {@code claims} that overlaps one of another table or view than (catalog,
   * ns, name) or of a federated catalog's table, or lies around or inside a namespace outside its
   * own ancestry.
   */
  static Optional<LocationConflict> findConflict(
      Connection conn, String catalog, NamespacePath ns, String name, List<LocationClaim> claims)
      throws SQLException {
    for (LocationClaim claim : claims) {
      // Another claim equal to this location or one of its ancestors: it covers this one.
      String placeholders = String.join(", ", Collections.nCopies(claim.ancestry().size(), "?"));
      List<Object> args = new ArrayList<>(claim.ancestry());
      args.addAll(List.of(catalog, ns.key(), name));
      Optional<String> covering =
          first(
              conn,
              "SELECT location_key FROM location_claims WHERE location_key IN ("
                  + placeholders
                  + ")"
                  + " AND NOT (catalog_name = ? AND ns_path = ? AND name = ?)",
              args.toArray());
      if (covering.isPresent()) {
        return Optional.of(new LocationConflict(claim.key(), covering.get()));
      }
      // Another claim with this location among its ancestors: it lies inside this one.
      Optional<String> inside =
          first(
              conn,
              "SELECT location_key FROM location_claims WHERE prefix_key = ? AND NOT (catalog_name = ? AND ns_path = ? AND name = ?)",
              claim.key(),
              catalog,
              ns.key(),
              name);
      if (inside.isPresent()) {
        return Optional.of(new LocationConflict(claim.key(), inside.get()));
      }
      Optional<LocationConflict> remote = JdbcRemoteClaims.overlapping(conn, claim, null);
      if (remote.isPresent()) {
        return remote;
      }
      Optional<LocationConflict> namespace = namespaceConflictOfContent(conn, catalog, ns, claim);
      if (namespace.isPresent()) {
        return namespace;
      }
    }
    return Optional.empty();
  }

  /**
   * Whether the table or view (catalog, ns, name) may claim {@code claim} as far as namespaces go:
   * no namespace claim may cover it except those of its own namespace and its ancestors, and none
   * may lie inside it.
   */
  private static Optional<LocationConflict> namespaceConflictOfContent(
      Connection conn, String catalog, NamespacePath ns, LocationClaim claim) throws SQLException {
    Optional<LocationConflict> covering = foreignCovering(conn, catalog, ancestryKeys(ns), claim);
    if (covering.isPresent()) {
      return covering;
    }
    return first(
            conn, "SELECT location_key FROM namespace_claims WHERE prefix_key = ?", claim.key())
        .map(inside -> new LocationConflict(claim.key(), inside));
  }

  /**
   * Whether namespace (catalog, path), which holds nothing, may claim {@code claim}: no other
   * namespace's claim may cover it or lie inside it except its own ancestors', and no table's or
   * view's (of a federated catalog's tables too) may either.
   */
  static Optional<LocationConflict> findNamespaceConflict(
      Connection conn, String catalog, NamespacePath path, LocationClaim claim)
      throws SQLException {
    Set<String> ancestry = ancestryKeys(path);
    Optional<LocationConflict> covering = foreignCovering(conn, catalog, ancestry, claim);
    if (covering.isPresent()) {
      return covering;
    }
    List<Object> args = new ArrayList<>(List.of(claim.key(), catalog));
    args.addAll(ancestry);
    Optional<String> inside =
        first(
            conn,
            "SELECT location_key FROM namespace_claims WHERE prefix_key = ? AND NOT (catalog_name = ? AND ns_path IN ("
                + String.join(", ", Collections.nCopies(ancestry.size(), "?"))
                + "))",
            args.toArray());
    if (inside.isPresent()) {
      return Optional.of(new LocationConflict(claim.key(), inside.get()));
    }
    List<Object> keys = new ArrayList<>(claim.ancestry());
    Optional<String> table =
        first(
            conn,
            "SELECT location_key FROM location_claims WHERE prefix_key = location_key AND location_key IN ("
                + String.join(", ", Collections.nCopies(keys.size(), "?"))
                + ")",
            keys.toArray());
    if (table.isEmpty()) {
      table =
          first(conn, "SELECT location_key FROM location_claims WHERE prefix_key = ?", claim.key());
    }
    if (table.isPresent()) {
      return table.map(t -> new LocationConflict(claim.key(), t));
    }
    // A federated catalog's table lies in no Sluice namespace: every namespace must keep off it.
    return JdbcRemoteClaims.overlapping(conn, claim, null);
  }

  /**
   * A namespace claim covering {@code claim} that is not one of {@code ancestry} (namespace keys)
   * in {@code catalog}.
   */
  private static Optional<LocationConflict> foreignCovering(
      Connection conn, String catalog, Set<String> ancestry, LocationClaim claim)
      throws SQLException {
    for (String[] covering : coveringNamespaces(conn, claim)) {
      if (!covering[0].equals(catalog) || !ancestry.contains(covering[1])) {
        return Optional.of(new LocationConflict(claim.key(), covering[2]));
      }
    }
    return Optional.empty();
  }

  /**
   * The namespace claims (catalog, ns_path, location) equal to {@code claim}'s location or an
   * ancestor of it.
   */
  private static List<String[]> coveringNamespaces(Connection conn, LocationClaim claim)
      throws SQLException {
    String placeholders = String.join(", ", Collections.nCopies(claim.ancestry().size(), "?"));
    List<String[]> out = new ArrayList<>();
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT catalog_name, ns_path, location_key FROM namespace_claims"
                + " WHERE prefix_key = location_key AND location_key IN ("
                + placeholders
                + ")")) {
      JdbcSupport.bind(ps, claim.ancestry().toArray());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
        }
      }
    }
    return out;
  }

  /** The store keys of a namespace and all its ancestors. */
  private static Set<String> ancestryKeys(NamespacePath path) {
    Set<String> keys = new TreeSet<>();
    for (int depth = 1; depth <= path.levels().size(); depth++) {
      keys.add(new NamespacePath(path.levels().subList(0, depth)).key());
    }
    return keys;
  }

  static void replaceNamespaceClaim(
      Connection conn, String catalog, NamespacePath path, LocationClaim claim)
      throws SQLException {
    JdbcSupport.update(
        conn,
        "DELETE FROM namespace_claims WHERE catalog_name = ? AND ns_path = ?",
        catalog,
        path.key());
    try (PreparedStatement ps =
        conn.prepareStatement(
            "INSERT INTO namespace_claims (prefix_key, location_key, catalog_name, ns_path) VALUES (?, ?, ?, ?)")) {
      for (String prefix : claim.ancestry()) {
        JdbcSupport.bind(ps, prefix, claim.key(), catalog, path.key());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  static void replace(
      Connection conn, String catalog, NamespacePath ns, String name, List<LocationClaim> claims)
      throws SQLException {
    JdbcSupport.update(
        conn,
        "DELETE FROM location_claims WHERE catalog_name = ? AND ns_path = ? AND name = ?",
        catalog,
        ns.key(),
        name);
    insert(conn, catalog, ns, name, claims);
  }

  static void insert(
      Connection conn, String catalog, NamespacePath ns, String name, List<LocationClaim> claims)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "INSERT INTO location_claims (prefix_key, location_key, catalog_name, ns_path, name) VALUES (?, ?, ?, ?, ?)")) {
      Set<String> seen = new TreeSet<>();
      for (LocationClaim claim : claims) {
        if (!seen.add(claim.key())) {
          continue;
        }
        for (String prefix : claim.ancestry()) {
          JdbcSupport.bind(ps, prefix, claim.key(), catalog, ns.key(), name);
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
  }

  /**
   * One page of {@link Store#contentsClaimingUnder}. Every claim has a row per ancestor prefix of
   * its key, so "claims a location under P" is "has a row whose {@code prefix_key} is P". The inner
   * query walks the contents in key order from the page key (index {@code contents_by_kind}),
   * keeping those with such a row (a semi-join on {@code location_claims_by_content}, or, when the
   * prefixes have few rows, on {@code location_claims_by_prefix}), and stops after {@code size +
   * 1}; the outer one reads just those contents' rows under the prefixes, whose {@code
   * location_key}s are the locations. So a page reads from its key to its last table, whatever its
   * depth. One statement: the page and its locations come from one snapshot.
   */
  static Page<ClaimedContent> contentsClaimingUnder(
      Connection conn, String catalog, ContentKind kind, List<String> prefixKeys, PageRequest page)
      throws SQLException {
    if (prefixKeys.isEmpty()) {
      return new Page<>(List.of(), null);
    }
    List<String> after = page.afterKeys(2);
    String marks = String.join(", ", Collections.nCopies(prefixKeys.size(), "?"));
    List<Object> args = new ArrayList<>(List.of(catalog, kind.name()));
    StringBuilder inner =
        new StringBuilder(
            "SELECT c.ns_path, c.name FROM contents c WHERE c.catalog_name = ? AND c.kind = ?");
    if (after != null) {
      inner.append(" AND (c.ns_path, c.name) > (?, ?)");
      args.addAll(after);
    }
    inner
        .append(
            " AND EXISTS (SELECT 1 FROM location_claims e WHERE e.catalog_name = c.catalog_name")
        .append(" AND e.ns_path = c.ns_path AND e.name = c.name AND e.prefix_key IN (")
        .append(marks)
        .append(")");
    args.addAll(prefixKeys);
    if (after != null) {
      // Implied by the join, but stated: a merge semi-join then starts the claims at the key too,
      // instead of reading them from the catalog's first table (PostgreSQL's plan otherwise).
      inner.append(" AND (e.ns_path, e.name) > (?, ?)");
      args.addAll(after);
    }
    inner.append(") ORDER BY c.ns_path, c.name");
    if (page.bounded()) {
      inner.append(" FETCH FIRST ").append(page.size() + 1).append(" ROWS ONLY");
    }
    String sql =
        "SELECT l.ns_path, l.name, l.location_key FROM location_claims l JOIN ("
            + inner
            + ") p ON l.ns_path = p.ns_path AND l.name = p.name"
            + " WHERE l.catalog_name = ? AND l.prefix_key IN ("
            + marks
            + ") ORDER BY l.ns_path, l.name, l.location_key";
    args.add(catalog);
    args.addAll(prefixKeys);
    List<ClaimedContent> items = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      JdbcSupport.bind(ps, args.toArray());
      try (ResultSet rs = ps.executeQuery()) {
        String ns = null;
        String name = null;
        List<String> keys = new ArrayList<>();
        while (rs.next()) {
          if (ns != null && (!ns.equals(rs.getString(1)) || !name.equals(rs.getString(2)))) {
            items.add(new ClaimedContent(NamespacePath.fromKey(ns), name, keys));
            keys = new ArrayList<>();
          }
          ns = rs.getString(1);
          name = rs.getString(2);
          keys.add(rs.getString(3));
        }
        if (ns != null) {
          items.add(new ClaimedContent(NamespacePath.fromKey(ns), name, keys));
        }
      }
    }
    if (page.bounded() && items.size() > page.size()) {
      List<ClaimedContent> shown = items.subList(0, page.size());
      ClaimedContent last = shown.get(shown.size() - 1);
      return new Page<>(shown, PageRequest.tokenFor(List.of(last.namespace().key(), last.name())));
    }
    return new Page<>(items, null);
  }

  static List<String> roots(List<LocationClaim> claims) {
    return List.copyOf(new TreeSet<>(claims.stream().map(LocationClaim::root).toList()));
  }

  static Optional<String> first(Connection conn, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement(sql + " FETCH FIRST 1 ROWS ONLY")) {
      JdbcSupport.bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }
}
