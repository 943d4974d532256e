package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Copies one store into another, empty one: the path from the embedded H2 default to PostgreSQL
 * ({@code sluice store copy}). Both are first brought to this version's schema (the migrations a
 * start would apply; the target must hold no principal, catalog or signing key), then every table
 * of the schema is copied row by row, parents before the rows that refer to them (from the
 * database's own foreign keys, so a table a later migration adds is copied without a change here),
 * in one transaction on the target: a failure leaves it empty. Identity columns continue after the
 * copied ids, and each table's row count is compared at the end. Only the database moves: table
 * data and metadata files stay where their locations say.
 */
public final class StoreCopy {
  private static final int BATCH = 1_000;

  /** Flyway's own table: each side keeps its own history, written by its migration. */
  private static final String HISTORY = "flyway_schema_history";

  /** Tables that hold rows once a server has run on a store; empty in a new one. */
  private static final List<String> USED_WHEN_ANY =
      List.of("principals", "catalogs", "signing_keys");

  /** Rows copied per table, in copy order, and the schema version both are at. */
  public record Report(String schemaVersion, Map<String, Long> rows) {
    public Report {
      rows = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rows));
    }

    public long total() {
      return rows.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** The target already holds data: copying would mix two stores. */
  public static final class TargetNotEmpty extends RuntimeException {
    TargetNotEmpty(String message) {
      super(message);
    }
  }

  private StoreCopy() {}

  /** Copies {@code source} into {@code target}, which must have no rows in any table. */
  public static Report copy(DatabaseConfig source, DatabaseConfig target) throws SQLException {
    requireNonNull(source, "source");
    requireNonNull(target, "target");
    SchemaMigrations.of(source).apply();
    SchemaMigrations.of(target).apply();
    String version = SchemaMigrations.of(source).status().version();
    String targetVersion = SchemaMigrations.of(target).status().version();
    if (!java.util.Objects.equals(version, targetVersion)) {
      throw new IllegalStateException(
          "The two stores are at schema versions " + version + " and " + targetVersion);
    }
    try (Connection from = open(source);
        Connection to = open(target)) {
      from.setReadOnly(true);
      // One snapshot of the source for every table, and a streaming cursor on PostgreSQL.
      from.setAutoCommit(false);
      from.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      List<String> tables = inCopyOrder(from);
      requireUnused(to);
      to.setAutoCommit(false);
      Map<String, Long> rows = new LinkedHashMap<>();
      try {
        // What the migrations seeded (the service_admin role, the readiness probe's row) makes
        // way for the source's own.
        for (int i = tables.size() - 1; i >= 0; i--) {
          try (Statement st = to.createStatement()) {
            st.executeUpdate("DELETE FROM " + tables.get(i));
          }
        }
        for (String table : tables) {
          rows.put(table, copyTable(from, to, table));
        }
        for (String table : tables) {
          continueIdentity(from, to, table);
        }
        for (String table : tables) {
          long there = count(to, table);
          if (there != rows.get(table)) {
            throw new IllegalStateException(
                "Table " + table + ": " + rows.get(table) + " rows copied, " + there + " found");
          }
        }
        to.commit();
      } catch (SQLException | RuntimeException e) {
        to.rollback();
        throw e;
      } finally {
        from.rollback();
      }
      return new Report(version, rows);
    }
  }

  private static Connection open(DatabaseConfig config) throws SQLException {
    return DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
  }

  /** The schema's tables (lower case), each after the tables its foreign keys refer to. */
  static List<String> inCopyOrder(Connection conn) throws SQLException {
    DatabaseMetaData meta = conn.getMetaData();
    String schema = conn.getSchema();
    Set<String> tables = new TreeSet<>();
    try (ResultSet rs = meta.getTables(null, schema, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        String name = rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
        if (!name.equals(HISTORY)) {
          tables.add(name);
        }
      }
    }
    Map<String, Set<String>> parents = new TreeMap<>();
    for (String table : tables) {
      Set<String> refs = new TreeSet<>();
      try (ResultSet rs = meta.getImportedKeys(null, schema, stored(meta, table))) {
        while (rs.next()) {
          String parent = rs.getString("PKTABLE_NAME").toLowerCase(Locale.ROOT);
          if (!parent.equals(table)) {
            refs.add(parent);
          }
        }
      }
      parents.put(table, refs);
    }
    Set<String> ordered = new LinkedHashSet<>();
    while (ordered.size() < tables.size()) {
      boolean progressed = false;
      for (String table : tables) {
        if (!ordered.contains(table) && ordered.containsAll(parents.get(table))) {
          ordered.add(table);
          progressed = true;
        }
      }
      if (!progressed) {
        throw new IllegalStateException("Foreign keys form a cycle among " + tables);
      }
    }
    return new ArrayList<>(ordered);
  }

  /**
   * The name as the database stores it: H2 folds unquoted names to upper case, PostgreSQL lower.
   */
  private static String stored(DatabaseMetaData meta, String table) throws SQLException {
    return meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
  }

  /**
   * A store a server ever ran on has a signing key and a root principal: the target must have no
   * principal, catalog or signing key, so that nothing of its own is overwritten.
   */
  private static void requireUnused(Connection to) throws SQLException {
    List<String> holding = new ArrayList<>();
    for (String table : USED_WHEN_ANY) {
      if (count(to, table) > 0) {
        holding.add(table);
      }
    }
    if (!holding.isEmpty()) {
      throw new TargetNotEmpty(
          "The target store is not empty (rows in "
              + String.join(", ", holding)
              + "): copy into a new, empty database");
    }
  }

  private static long count(Connection conn, String table) throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long copyTable(Connection from, Connection to, String table) throws SQLException {
    long copied = 0;
    try (Statement read = from.createStatement()) {
      read.setFetchSize(BATCH);
      try (ResultSet rs = read.executeQuery("SELECT * FROM " + table)) {
        ResultSetMetaData columns = rs.getMetaData();
        int n = columns.getColumnCount();
        List<String> names = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
          names.add(columns.getColumnName(i).toLowerCase(Locale.ROOT));
        }
        String insert =
            "INSERT INTO "
                + table
                + " ("
                + String.join(", ", names)
                + ") VALUES ("
                + String.join(", ", java.util.Collections.nCopies(n, "?"))
                + ")";
        try (PreparedStatement write = to.prepareStatement(insert)) {
          int pending = 0;
          while (rs.next()) {
            for (int i = 1; i <= n; i++) {
              Object value = rs.getObject(i);
              if (value == null) {
                write.setNull(i, columns.getColumnType(i));
              } else {
                write.setObject(i, value);
              }
            }
            write.addBatch();
            copied++;
            if (++pending == BATCH) {
              write.executeBatch();
              pending = 0;
            }
          }
          if (pending > 0) {
            write.executeBatch();
          }
        }
      }
    }
    return copied;
  }

  /** An identity column's next value follows the largest copied id on the target. */
  private static void continueIdentity(Connection from, Connection to, String table)
      throws SQLException {
    DatabaseMetaData meta = from.getMetaData();
    try (ResultSet rs = meta.getColumns(null, from.getSchema(), stored(meta, table), "%")) {
      while (rs.next()) {
        if (!"YES".equals(rs.getString("IS_AUTOINCREMENT"))) {
          continue;
        }
        String column = rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT);
        long next;
        try (Statement st = to.createStatement();
            ResultSet max = st.executeQuery("SELECT MAX(" + column + ") FROM " + table)) {
          max.next();
          next = max.getLong(1) + 1;
        }
        try (Statement st = to.createStatement()) {
          // Standard SQL for an identity column, on H2 and PostgreSQL alike.
          st.execute("ALTER TABLE " + table + " ALTER COLUMN " + column + " RESTART WITH " + next);
        }
      }
    }
  }
}
