package dev.sluice.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * How the pool opens connections: while the database refuses them (down, restarting, out of
 * connection slots), tries again every {@value #RETRY_MS} ms for up to {@value #PATIENCE_S} s
 * before giving up. HikariCP sleeps between failed attempts with a backoff that grows to 5 s, so
 * after an outage of a few seconds the pool took up to 5 s to notice the database was back (issue
 * 33: commits resumed 4.4-5.0 s after PostgreSQL); retried here, it notices within {@value
 * #RETRY_MS} ms. Runs on the pool's own connection-adding thread, never on a request's.
 */
final class PatientConnector extends ForwardingDataSource {
  static final long RETRY_MS = 200;
  static final long PATIENCE_S = 60;

  private final DataSource driver;

  PatientConnector(DataSource driver) {
    super(driver);
    this.driver = driver;
  }

  @Override
  public Connection getConnection() throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
    while (true) {
      try {
        return driver.getConnection();
      } catch (SQLException e) {
        if (!JdbcSupport.outage(e) || System.nanoTime() - deadline > 0) {
          throw e;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(RETRY_MS));
        if (Thread.currentThread().isInterrupted()) {
          throw e; // the pool is closing
        }
      }
    }
  }
}
