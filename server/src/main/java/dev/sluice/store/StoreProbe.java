package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Readiness: one small write ({@code store_probe}), so that a store that still answers but cannot
 * write (H2 after a full disk, which {@code Connection.isValid} still calls valid) is not ready. A
 * result is kept for a second and one probe runs at a time, so no flood of {@code /readyz} becomes
 * a flood of writes. A probe waits at most the pool's timeout and its statement timeout.
 */
final class StoreProbe {
  private static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final int STATEMENT_TIMEOUT_SECONDS = 2;

  private final StoreConnections connections;
  private final ReentrantLock turn = new ReentrantLock();
  private volatile long probedAtNanos;
  private volatile boolean probed;
  private volatile boolean writable;

  StoreProbe(StoreConnections connections) {
    this.connections = requireNonNull(connections, "connections");
  }

  boolean writable() {
    if (fresh()) {
      return writable;
    }
    // One probe at a time; the others answer what the last one found (not ready before the
    // first), so no number of /readyz calls can hold more than one thread on a stalled store.
    if (!turn.tryLock()) {
      return probed && writable;
    }
    try {
      if (!fresh()) {
        writable = writeOnce();
        probedAtNanos = System.nanoTime();
        probed = true;
      }
      return writable;
    } finally {
      turn.unlock();
    }
  }

  private boolean fresh() {
    return probed && System.nanoTime() - probedAtNanos < FRESH_NANOS;
  }

  private boolean writeOnce() {
    try (Connection conn = connections.connection();
        PreparedStatement ps =
            conn.prepareStatement("UPDATE store_probe SET probed_at = ? WHERE id = 1")) {
      ps.setQueryTimeout(STATEMENT_TIMEOUT_SECONDS);
      ps.setLong(1, System.currentTimeMillis());
      return ps.executeUpdate() == 1;
    } catch (SQLException e) {
      return false;
    }
  }
}
