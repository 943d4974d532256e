package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.trace.Tracer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * Connections from the pool, as the store's operations take them.
 *
 * <ul>
 *   <li>Until {@link #ready()}, waited for patiently: start-up (migrations, bootstrap, signing
 *       keys) cannot serve anything without its store, so it retries the pool's short request
 *       timeout until {@code startupTimeoutMs} (an H2 file on a busy machine, a database still
 *       starting).
 *   <li>After it, a request waits at most one pool timeout. Once a wait has timed out, the store is
 *       taken as down: other requests fail at once (503) instead of each waiting its own timeout,
 *       while one at a time, at most every {@value #PROBE_SPACING_MS} ms, waits again to learn
 *       whether it is back. So an outage costs a queue of requests one wait, not one each (a cache
 *       loading one key runs its waiters one after another), and no thread is held for long.
 *   <li>A connection handed to a request has a network timeout ({@code statementTimeoutMs}): a
 *       stalled database (a frozen host, a network that drops packets) cannot hold a thread
 *       forever. Start-up has none, so a long migration is not cut short.
 * </ul>
 */
final class StoreConnections {
  private static final long PROBE_SPACING_MS = 250;
  private static final Executor DIRECT = Runnable::run;

  private final HikariDataSource pool;
  private final long startupTimeoutNanos;
  private final int networkTimeoutMs;
  private volatile boolean ready;
  private volatile Tracer tracer; // null: untraced
  private final String system;

  /** When the last wait timed out (nanoTime), or 0 while connections come. */
  private volatile long downSinceNanos;

  private volatile long lastProbeNanos;
  private final AtomicBoolean probing = new AtomicBoolean();

  StoreConnections(HikariDataSource pool, long startupTimeoutMs) {
    this(pool, startupTimeoutMs, 0);
  }

  StoreConnections(HikariDataSource pool, long startupTimeoutMs, int networkTimeoutMs) {
    this.pool = requireNonNull(pool, "pool");
    String url = pool.getJdbcUrl();
    this.system = url != null && url.startsWith("jdbc:postgresql:") ? "postgresql" : "h2";
    this.startupTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(startupTimeoutMs);
    this.networkTimeoutMs = networkTimeoutMs;
  }

  Connection connection() throws SQLException {
    if (!ready) {
      return duringStartup();
    }
    boolean probe = false;
    if (downSinceNanos != 0) {
      long now = System.nanoTime();
      if (now - lastProbeNanos < TimeUnit.MILLISECONDS.toNanos(PROBE_SPACING_MS)
          || !probing.compareAndSet(false, true)) {
        throw new SQLTransientConnectionException(
            "The catalog database did not give a connection within the pool timeout just before;"
                + " not waiting again yet",
            "08001");
      }
      probe = true;
      lastProbeNanos = now;
    }
    try {
      Connection conn = pool.getConnection();
      downSinceNanos = 0;
      if (networkTimeoutMs > 0) {
        try {
          conn.setNetworkTimeout(DIRECT, networkTimeoutMs);
        } catch (SQLException | RuntimeException e) {
          conn.close();
          throw e;
        }
      }
      Tracer traced = tracer;
      return traced == null ? conn : TracedConnections.wrap(conn, traced, system);
    } catch (SQLTransientConnectionException e) {
      long now = System.nanoTime();
      if (downSinceNanos == 0) {
        downSinceNanos = now;
      }
      // The spacing counts from the end of this wait, not its start: requests queued behind it
      // (one cache key's loaders, run one after another) fail at once instead of each becoming
      // the next probe and waiting its own timeout in turn.
      lastProbeNanos = now;
      throw e;
    } finally {
      if (probe) {
        probing.set(false);
      }
    }
  }

  /** From now on, statements run in a request's span are spans of their own. */
  void trace(Tracer tracer) {
    this.tracer = requireNonNull(tracer, "tracer");
  }

  private Connection duringStartup() throws SQLException {
    long deadline = System.nanoTime() + startupTimeoutNanos;
    while (true) {
      try {
        return pool.getConnection();
      } catch (SQLTransientConnectionException e) {
        // Each attempt already waited the pool's timeout: no busy loop.
        if (ready || System.nanoTime() - deadline > 0) {
          throw e;
        }
      }
    }
  }

  void ready() {
    ready = true;
  }

  /** This wait as a DataSource, for Flyway's migration at start-up. */
  DataSource asDataSource() {
    return new ForwardingDataSource(pool) {
      @Override
      public Connection getConnection() throws SQLException {
        return connection();
      }
    };
  }
}
