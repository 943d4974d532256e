package dev.sluice.store;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Set;

/**
 * Tells the pool to drop a connection whose database is gone. HikariCP evicts on SQL states it
 * knows as connection errors (08...), but H2 reports a database it closed after a failed write (a
 * full disk) as 90098 and its file errors as 90028/90031 or a general error caused by an I/O
 * failure. Kept, such connections fail every request until a restart; dropped, the next connection
 * opens the file again, so the store recovers by itself once the disk has room.
 */
public final class EvictBrokenConnections implements SQLExceptionOverride {
  /** H2: database closed (90098), closing (90121), file I/O (90028, 90031). */
  private static final Set<String> H2_GONE = Set.of("90098", "90121", "90028", "90031");

  @java.lang.Override
  public Override adjudicate(SQLException e) {
    return gone(e) ? Override.MUST_EVICT : Override.CONTINUE_EVICT;
  }

  static boolean gone(SQLException e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth++ < 20; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && H2_GONE.contains(sql.getSQLState())) {
        return true;
      }
      // H2's page store failing to write its file: the database is closed right after.
      if (t instanceof IOException
          || t.getClass().getName().equals("org.h2.mvstore.MVStoreException")) {
        return true;
      }
    }
    return false;
  }
}
