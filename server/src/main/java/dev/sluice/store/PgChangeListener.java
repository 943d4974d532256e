package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
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
 *
 * <p>It also sends the cache's barriers ({@link PointerCache#barriersWanted}), on a second daemon
 * thread through the store's pool: one NOTIFY naming this replica and the latest generation wanted,
 * which comes back to the listening connection after every commit made before it.
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
  private final DataSource pool;
  private final String replica = UUID.randomUUID().toString();
  private final Thread thread;
  private final Thread barrierSender;
  private final LongAdder reconnects = new LongAdder();
  private final LongAdder barriersSent = new LongAdder();
  private volatile boolean closed;
  private volatile Connection connection;

  PgChangeListener(DatabaseConfig config, PointerCache cache, DataSource pool) {
    requireNonNull(config, "config");
    this.url = config.url();
    this.cache = requireNonNull(cache, "cache");
    this.pool = requireNonNull(pool, "pool");
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
    this.barrierSender = new Thread(this::sendBarriers, "sluice-pointer-barriers");
    barrierSender.setDaemon(true);
    cache.onBarrierWanted(() -> LockSupport.unpark(barrierSender));
  }

  void start() {
    thread.start();
    barrierSender.start();
  }

  /**
   * Sends a barrier whenever one is wanted that none sent covers. A failure only delays it: the
   * cache reads the database meanwhile, and a lost feed's restore settles every barrier.
   */
  private void sendBarriers() {
    long sent = 0;
    long backoff = 50;
    while (!closed) {
      long wanted = cache.barriersWanted();
      if (wanted <= sent) {
        LockSupport.parkNanos(this, 1_000_000_000L);
        continue;
      }
      try (Connection conn = pool.getConnection();
          PreparedStatement ps = conn.prepareStatement("SELECT pg_notify(?, ?)")) {
        ps.setString(1, PointerChange.CHANNEL);
        ps.setString(2, PointerChange.barrier(replica, wanted));
        ps.execute();
        barriersSent.increment();
        sent = wanted;
        backoff = 50;
      } catch (SQLException | RuntimeException e) {
        if (closed) {
          return;
        }
        LOG.debug("Pointer cache barrier not sent ({}); retrying", e.getMessage());
        LockSupport.parkNanos(this, backoff * 1_000_000L);
        backoff = Math.min(1_000, backoff * 2);
      }
    }
  }

  /** Barrier notifications sent ({@link PointerCache#barriersWanted}). */
  long barriersSent() {
    return barriersSent.sum();
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
          long barrier = PointerChange.barrierOf(n.getParameter(), replica);
          if (barrier != 0) {
            if (barrier > 0) {
              cache.barrierEchoed(barrier);
            }
            continue;
          }
          List<PointerChange> changes = PointerChange.parse(n.getParameter());
          if (changes == null) {
            cache.changedAll();
          } else {
            cache.changed(changes);
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
    LockSupport.unpark(barrierSender);
    try {
      thread.join(2_000);
      barrierSender.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
