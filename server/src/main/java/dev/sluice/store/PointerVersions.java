package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/**
 * Where a table or view pointer is versioned and its moves published. Every write of a pointer
 * draws its new version from the {@code content_version} sequence ({@link #VERSION} in its SQL); on
 * PostgreSQL the writing transaction also NOTIFYs every replica which pointers it moved, and this
 * replica's {@link PointerCache} follows the others' through {@link PgChangeListener}. H2 is one
 * process: versions are stored, nothing is published.
 */
final class PointerVersions implements AutoCloseable {
  /** Where a statement gives a written row its new version: the next value of one sequence. */
  static final String VERSION = "{version}";

  private final boolean postgres;
  private final PointerCache cache;
  private final PgChangeListener listener; // null without a change feed

  private PointerVersions(boolean postgres, PointerCache cache, PgChangeListener listener) {
    this.postgres = postgres;
    this.cache = requireNonNull(cache, "cache");
    this.listener = listener;
  }

  /** The cache {@code config} asks for and, on PostgreSQL, its change feed, started. */
  static PointerVersions start(DatabaseConfig config, DataSource pool) {
    requireNonNull(config, "config");
    requireNonNull(pool, "pool");
    boolean postgres = config.postgres();
    // Several replicas share a PostgreSQL: their caches follow its change feed. H2 is one process.
    boolean feed = config.pointerCache() && postgres;
    PointerCache cache =
        config.pointerCache()
            ? new PointerCache(true, config.pointerCacheMaxEntries(), feed)
            : PointerCache.disabled();
    PgChangeListener listener = feed ? new PgChangeListener(config, cache, pool) : null;
    if (listener != null) {
      listener.start();
    }
    return new PointerVersions(postgres, cache, listener);
  }

  /** This replica's pointer cache. */
  PointerCache cache() {
    return cache;
  }

  /** Registers the pointer cache's and change feed's meters. */
  void bindTo(MeterRegistry metrics) {
    cache.bindTo(metrics);
    if (listener != null) {
      FunctionCounter.builder(
              "sluice.store.pointer.listener.reconnects", listener, PgChangeListener::reconnects)
          .description("Times the pointer change feed's connection was lost and re-established")
          .register(metrics);
      FunctionCounter.builder(
              "sluice.store.pointer.barriers.sent", listener, PgChangeListener::barriersSent)
          .description(
              "Barrier notifications sent: reads the change feed had nothing to compare with, and"
                  + " writes of unknown outcome")
          .register(metrics);
    }
  }

  /**
   * Runs an INSERT or UPDATE that sets {@code version = }{@link #VERSION}, or a DELETE, and returns
   * one new version per row it wrote (a DELETE draws one for its notification). On H2, which has no
   * change feed, the versions are stored but not returned (0s).
   */
  List<Long> versioned(Connection conn, String sql, Object... args) throws SQLException {
    if (!postgres) {
      int rows =
          JdbcSupport.update(conn, sql.replace(VERSION, "NEXT VALUE FOR content_version"), args);
      return Collections.nCopies(rows, 0L);
    }
    String returning =
        sql.contains(VERSION) ? " RETURNING version" : " RETURNING nextval('content_version')";
    try (PreparedStatement ps =
        conn.prepareStatement(sql.replace(VERSION, "nextval('content_version')") + returning)) {
      JdbcSupport.bind(ps, args);
      List<Long> versions = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          versions.add(rs.getLong(1));
        }
      }
      return versions;
    }
  }

  /** The moves of {@code keys} to {@code versions}, pairwise (as many as both have). */
  static List<PointerChange> changes(List<PointerCache.Key> keys, List<Long> versions) {
    List<PointerChange> changes = new ArrayList<>();
    for (int i = 0; i < Math.min(keys.size(), versions.size()); i++) {
      changes.add(new PointerChange(keys.get(i), versions.get(i)));
    }
    return changes;
  }

  /**
   * Tells every replica, in the writing transaction (PostgreSQL delivers a NOTIFY only when it
   * commits, and never when it rolls back), which pointers it moved: one notification for all of
   * them, so no replica applies half of a multi-table commit.
   */
  void publish(Connection conn, List<PointerChange> changes) throws SQLException {
    if (!postgres || changes.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = conn.prepareStatement("SELECT pg_notify(?, ?)")) {
      ps.setString(1, PointerChange.CHANNEL);
      ps.setString(2, PointerChange.payload(changes));
      ps.execute();
    }
  }

  /** Stops the change feed, if there is one. */
  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
  }
}
