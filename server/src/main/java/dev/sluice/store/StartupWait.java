package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Connections from the pool, waited for patiently until the server is ready: start-up (migrations,
 * bootstrap, signing keys) cannot serve anything without its store, so it retries the pool's short
 * request timeout until {@code startupTimeoutMs} (an H2 file on a busy machine, a database still
 * starting). After {@link #ready()} a request waits one request timeout and fails fast with 503.
 */
final class StartupWait {
  private final HikariDataSource pool;
  private final long startupTimeoutNanos;
  private volatile boolean ready;

  StartupWait(HikariDataSource pool, long startupTimeoutMs) {
    this.pool = requireNonNull(pool, "pool");
    this.startupTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(startupTimeoutMs);
  }

  Connection connection() throws SQLException {
    if (ready) {
      return pool.getConnection();
    }
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
    return new DataSource() {
      @Override
      public Connection getConnection() throws SQLException {
        return connection();
      }

      @Override
      public Connection getConnection(String user, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the store's pool has its own credentials");
      }

      @Override
      public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
      }

      @Override
      public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
      }

      @Override
      public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
      }

      @Override
      public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
      }

      @Override
      public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
      }

      @Override
      public <T> T unwrap(Class<T> type) throws SQLException {
        return pool.unwrap(type);
      }

      @Override
      public boolean isWrapperFor(Class<?> type) throws SQLException {
        return pool.isWrapperFor(type);
      }
    };
  }
}
