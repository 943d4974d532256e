package dev.sluice.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.engine.Database;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.db.Store;

/**
 * One opening of an embedded H2 file, as a connection reaches it. When H2 fails to write its file
 * (a full disk), that opening keeps answering reads from memory for a while: rows of commits that
 * never reached the file among them. Reopened, the file has none of them. So a commit whose COMMIT
 * failed that way is settled by reading the file again, never that opening's memory: {@code
 * FullDiskTest} lost an acknowledged commit when the read-back trusted it.
 */
final class H2Instance {
  private H2Instance() {}

  /** The H2 database {@code conn} reaches, or null for another store (or one it cannot tell). */
  static Object of(Connection conn) {
    try {
      if (conn.isWrapperFor(JdbcConnection.class)
          && conn.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal local) {
        return local.getDatabase();
      }
    } catch (SQLException | RuntimeException e) {
      // a closed or foreign connection: nothing to tell
    }
    return null;
  }

  /**
   * Throws when the opening {@code conn} reaches has failed to write its file: call it right after
   * a COMMIT returned, so that a commit racing another connection's failed write is settled by
   * reading the file again, as one whose COMMIT failed, never acknowledged from memory. ({@code
   * FullDiskTest} lost an acknowledged append whose COMMIT returned 18 ms after another
   * connection's write had failed on the same opening.)
   */
  static void requireWritten(Connection conn) throws SQLException {
    if (!(of(conn) instanceof Database database)) {
      return;
    }
    Store store = database.getStore();
    MVStoreException failure = store == null ? null : store.getMvStore().getPanicException();
    if (failure != null) {
      throw new SQLException(
          "H2 had failed to write its file when this COMMIT returned", "HY000", failure);
    }
  }

  /**
   * Closes the opening {@code conn} reaches, at once and without writing: its store failed, and
   * what only its memory holds must not be read. The next connection opens the file again.
   */
  static void abandon(Connection conn) {
    if (!(of(conn) instanceof Database)) {
      return;
    }
    try (Statement s = conn.createStatement()) {
      s.execute("SHUTDOWN IMMEDIATELY");
    } catch (SQLException e) {
      // H2 closed it already (the usual answer is "database is closed")
    }
  }
}
