package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What H2's background writer would do for an embedded store that has none: {@code WRITE_DELAY=0}
 * (a commit is in the file before it is acknowledged, {@link DatabaseConfig#jdbcUrl}) stops that
 * thread, and with it the reuse of the file's space. Measured with H2 2.3.232: 120,000 small
 * commits grew the file to 2.3 GB (1.6 MB with the writer), and the chunk records kept in memory
 * grew with it (1.5 to 7.6 MiB of the live heap in four minutes of the bench's soak). Every {@value
 * #EVERY_MS} ms this forces the file to disk, drops chunks that hold no live data and are past H2's
 * retention time, and rewrites a few MB of the emptiest ones, as the writer does.
 *
 * <p>H2's retention time (45 s) is kept: a dead chunk is overwritten only 45 s after, so a write
 * that fails (a full disk) or a crash finds the chunks it falls back to intact. A shorter one (5 s)
 * lost an acknowledged commit in {@code FullDiskTest}. So the file holds about 45 s of writes
 * beyond its data: under the bench's soak (about 25 MB/s into H2) it levelled off at 2 GB, where
 * before it grew without end.
 */
final class H2Housekeeping implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(H2Housekeeping.class);
  static final long EVERY_MS = 1_000;

  /** Chunks fuller than this are left alone (H2's own default target). */
  static final int TARGET_FILL_RATE = 90;

  /** At most this much rewritten per run: compaction holds the store's lock while it writes. */
  static final int MAX_REWRITE_BYTES = 4 << 20;

  private final DataSource pool;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "h2-housekeeping");
            t.setDaemon(true);
            return t;
          });

  H2Housekeeping(DataSource pool) {
    this.pool = requireNonNull(pool, "pool");
    timer.scheduleWithFixedDelay(this::runOnce, EVERY_MS, EVERY_MS, TimeUnit.MILLISECONDS);
  }

  /** One round; a store that is closed or out of connections is left for the next. */
  void runOnce() {
    try (Connection c = pool.getConnection()) {
      MVStore store =
          ((SessionLocal) c.unwrap(JdbcConnection.class).getSession())
              .getDatabase()
              .getStore()
              .getMvStore();
      if (store.isClosed() || store.isReadOnly()) {
        return;
      }
      store.sync();
      store.getFileStore().dropUnusedChunks();
      store.compact(TARGET_FILL_RATE, MAX_REWRITE_BYTES);
    } catch (SQLException | RuntimeException e) {
      LOG.debug("H2 housekeeping skipped: {}", e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
