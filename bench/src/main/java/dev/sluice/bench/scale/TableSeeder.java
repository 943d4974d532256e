package dev.sluice.bench.scale;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Grows one namespace of a running Sluice to N tables by writing the store's rows directly: the
 * same {@code contents} row that {@code JdbcStore.createContent} writes for a table, in JDBC
 * batches of {@value #BATCH} rows per transaction. Through the REST API a create costs about a
 * millisecond (it writes a metadata file), so a million tables would take a quarter of an hour;
 * this takes seconds. The seeded tables share the metadata files of the {@code source} tables (made
 * through the API), round robin: a load still looks its pointer up among N rows, which is what
 * grows with N; the metadata it then reads is one of those few files.
 */
public final class TableSeeder implements AutoCloseable {
  private static final int BATCH = 10_000;

  private final Connection db;
  private final String catalog;
  private final String namespace;
  private final List<String> metadataFiles;
  private int seeded;

  /**
   * {@code source}: a namespace of tables made through the API, whose metadata files are reused.
   */
  public TableSeeder(String jdbcUrl, String catalog, String namespace, String source)
      throws SQLException {
    this.db = DriverManager.getConnection(jdbcUrl);
    this.catalog = catalog;
    this.namespace = namespace;
    this.metadataFiles = metadataFiles(source);
    if (metadataFiles.isEmpty()) {
      throw new SQLException(
          "No tables in " + catalog + "." + source + " to take metadata files from");
    }
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT COUNT(*) FROM contents WHERE catalog_name = ? AND ns_path = ?")) {
      ps.setString(1, catalog);
      ps.setString(2, namespace);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        this.seeded = rs.getInt(1);
      }
    }
  }

  public static String tableName(int i) {
    return "s" + i;
  }

  /** Adds tables {@code s<seeded>..s<n-1>}; returns the seconds it took. */
  public double growTo(int n) throws SQLException {
    long t0 = System.nanoTime();
    boolean autoCommit = db.getAutoCommit();
    db.setAutoCommit(false);
    try (PreparedStatement ps =
        db.prepareStatement(
            "INSERT INTO contents (catalog_name, ns_path, name, kind, metadata_location, version, created_at, updated_at)"
                + " VALUES (?, ?, ?, 'TABLE', ?, 1, ?, ?)")) {
      long now = System.currentTimeMillis();
      for (int i = seeded; i < n; i++) {
        ps.setString(1, catalog);
        ps.setString(2, namespace);
        ps.setString(3, tableName(i));
        ps.setString(4, metadataFiles.get(i % metadataFiles.size()));
        ps.setLong(5, now);
        ps.setLong(6, now);
        ps.addBatch();
        if ((i + 1) % BATCH == 0 || i == n - 1) {
          ps.executeBatch();
          db.commit();
        }
      }
    } catch (SQLException e) {
      db.rollback();
      throw e;
    } finally {
      db.setAutoCommit(autoCommit);
    }
    seeded = Math.max(seeded, n);
    analyze();
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Refreshes the planner's statistics and settles the bulk insert (written out by a checkpoint),
   * as the databases' own background work (autovacuum, the checkpointer, H2's writer) would shortly
   * after: right after a bulk insert, PostgreSQL still planned the pointer lookup for the tiny
   * table it had last analyzed (measured: half the throughput at 1,000 tables, the database busy).
   */
  private void analyze() throws SQLException {
    boolean h2 =
        db.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("h2");
    try (java.sql.Statement st = db.createStatement()) {
      if (h2) {
        st.execute("ANALYZE TABLE contents");
        st.execute("CHECKPOINT"); // write the new rows now, not during the measurement
      } else {
        db.setAutoCommit(true); // VACUUM cannot run in a transaction
        st.execute(
            "VACUUM ANALYZE contents"); // what autovacuum would do next, likely mid-measurement
        // The bulk insert left hundreds of megabytes of dirty buffers and WAL: the checkpoint that
        // writes them came during the next measurement (issue 42: PostgreSQL's own CPU was 0.73
        // cores in loadTable-1M-hot1k against 0.26 at 1k tables, and its p99 1.6 times higher).
        st.execute("CHECKPOINT");
      }
    }
  }

  private List<String> metadataFiles(String source) throws SQLException {
    List<String> files = new ArrayList<>();
    try (PreparedStatement ps =
        db.prepareStatement(
            "SELECT metadata_location FROM contents WHERE catalog_name = ? AND ns_path = ? AND kind = 'TABLE' ORDER BY name")) {
      ps.setString(1, catalog);
      ps.setString(2, source);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          files.add(rs.getString(1));
        }
      }
    }
    return files;
  }

  @Override
  public void close() throws SQLException {
    db.close();
  }
}
