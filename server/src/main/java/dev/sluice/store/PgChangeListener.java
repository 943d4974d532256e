package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's subscription to pointer changes: one dedicated PostgreSQL connection (not from the
 * pool, so a busy pool never starves it) that LISTENs on {@link PointerChange#CHANNEL}, on a daemon
 * thread. Every commit NOTIFYs in its own transaction, so a notification arrives only once the
 * change is visible.
 *
 * <p>Any error on the connection (the server closed it, the network failed, a probe timed out)
 * marks the cache unhealthy at once; the thread reconnects with backoff, LISTENs, and only then
 * lets the cache flush and serve again. An idle connection is probed every few seconds so a silent
 * network failure is noticed within {@link #PROBE_EVERY_MS} plus the socket timeout.
 */
final class PgChangeListener implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PgChangeListener.class);

  /** The application_name of the listening connection, as pg_stat_activity shows it. */
  static final String APPLICATION_NAME = "sluice-pointer-listener";

  private static final int WAIT_MS = 500;
  static final long PROBE_EVERY_MS = 5_000;
  private static final int SOCKET_TIMEOUT_S = 10;
  private static final long MAX_BACKOFF_MS = 5_000;

  private final String url;
  private final Properties properties = new Properties();
  private final PointerCache cache;
  private final Thread thread;
  private final LongAdder reconnects = new LongAdder();
  private volatile boolean closed;
  private volatile Connection connection;

  PgChangeListener(DatabaseConfig config, PointerCache cache) {
    requireNonNull(config, "config");
    this.url = config.url();
    this.cache = requireNonNull(cache, "cache");
    if (config.user() != null) {
      properties.setProperty("user", config.user());
    }
    if (config.password() != null) {
      properties.setProperty("password", config.password());
    }
    properties.setProperty("ApplicationName", APPLICATION_NAME);
    properties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_S));
    properties.setProperty("connectTimeout", Integer.toString(SOCKET_TIMEOUT_S));
    properties.setProperty("tcpKeepAlive", "true");
    this.thread = new Thread(this::run, APPLICATION_NAME);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Times the listener lost its connection and subscribed again. */
  long reconnects() {
    return reconnects.sum();
  }

  private void run() {
    long backoff = 50;
    boolean subscribedBefore = false;
    while (!closed) {
      boolean subscribed = false;
      try (Connection conn = DriverManager.getConnection(url, properties)) {
        connection = conn;
        try (Statement st = conn.createStatement()) {
          st.execute("LISTEN " + PointerChange.CHANNEL);
        }
        // Subscribed: from now on no change is missed, so what the cache held may go.
        cache.feedRestored();
        subscribed = true;
        if (subscribedBefore) {
          reconnects.increment();
          LOG.info("Pointer change feed subscribed again; the pointer cache was flushed");
        }
        subscribedBefore = true;
        backoff = 50;
        listen(conn);
      } catch (SQLException | RuntimeException e) {
        cache.feedLost();
        if (closed) {
          return;
        }
        if (subscribed || backoff == 50) {
          LOG.warn(
              "Pointer change feed lost ({}); loads read the database until it is back",
              e.getMessage());
        }
      } finally {
        connection = null;
        cache.feedLost();
      }
      if (closed) {
        return;
      }
      try {
        Thread.sleep(backoff);
      } catch (InterruptedException e) {
        return;
      }
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }

  private void listen(Connection conn) throws SQLException {
    PGConnection pg = conn.unwrap(PGConnection.class);
    long lastHeard = System.currentTimeMillis();
    while (!closed) {
      PGNotification[] notifications = pg.getNotifications(WAIT_MS);
      long now = System.currentTimeMillis();
      if (notifications != null && notifications.length > 0) {
        lastHeard = now;
        for (PGNotification n : notifications) {
          PointerChange change = PointerChange.parse(n.getParameter());
          if (change == null) {
            cache.changedAll();
          } else {
            cache.changed(change.key(), change.version());
          }
        }
      } else if (now - lastHeard >= PROBE_EVERY_MS) {
        // A silent connection may be dead without the socket knowing: ask.
        try (Statement st = conn.createStatement()) {
          st.execute("SELECT 1");
        }
        lastHeard = now;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    Connection conn = connection;
    if (conn != null) {
      try {
        conn.close();
      } catch (SQLException ignored) {
        // closing anyway
      }
    }
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
