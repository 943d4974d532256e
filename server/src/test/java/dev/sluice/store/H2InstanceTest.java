package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2InstanceTest {
  @TempDir Path dir;

  private String url() {
    return "jdbc:h2:file:" + dir.resolve("db") + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0";
  }

  @Test
  void connectionsToOneOpeningShareIt_andAnAbandonedOpeningIsNeverJoinedAgain() throws Exception {
    try (Connection first = DriverManager.getConnection(url());
        Connection second = DriverManager.getConnection(url())) {
      try (Statement s = first.createStatement()) {
        s.execute("CREATE TABLE t(k INT PRIMARY KEY, v VARCHAR)");
        s.execute("INSERT INTO t VALUES (1, 'on file')");
      }
      Object opening = H2Instance.of(first);
      assertThat(opening).isNotNull().isSameAs(H2Instance.of(second));

      H2Instance.abandon(first);

      // Every connection to the abandoned opening fails, so a pool drops it ...
      assertThatThrownBy(() -> second.createStatement().executeQuery("SELECT v FROM t"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(EvictBrokenConnections.gone((SQLException) e)).isTrue());
      // ... and the next one reads the file through a new opening, committed rows intact.
      try (Connection again = DriverManager.getConnection(url());
          ResultSet rs = again.createStatement().executeQuery("SELECT v FROM t WHERE k = 1")) {
        assertThat(H2Instance.of(again)).isNotNull().isNotSameAs(opening);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("on file");
      }
    }
  }

  /**
   * The guard JdbcContents runs after a COMMIT returned: quiet while the opening is healthy; once
   * the opening's store has failed to write (as on a full disk; here the store is told so, as a
   * failed write tells it), an SQLException the pool and the commit's settling treat as a gone
   * database.
   */
  @Test
  void afterTheStoreFailedToWriteRequireWrittenThrows() throws Exception {
    try (Connection conn = DriverManager.getConnection(url())) {
      try (Statement s = conn.createStatement()) {
        s.execute("CREATE TABLE t(k INT PRIMARY KEY)");
      }
      H2Instance.requireWritten(conn);
      org.h2.engine.Database database = (org.h2.engine.Database) H2Instance.of(conn);
      assertThatThrownBy(
              () ->
                  database
                      .getStore()
                      .getMvStore()
                      .panic(new org.h2.mvstore.MVStoreException(2, "a write failed")))
          .isInstanceOf(org.h2.mvstore.MVStoreException.class);

      assertThatThrownBy(() -> H2Instance.requireWritten(conn))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("failed to write its file")
          .satisfies(e -> assertThat(EvictBrokenConnections.gone((SQLException) e)).isTrue());
      H2Instance.abandon(conn);
    }
  }

  @Test
  void abandoningWhatIsAlreadyClosedIsQuiet() throws Exception {
    Connection conn = DriverManager.getConnection(url());
    H2Instance.abandon(conn);
    H2Instance.abandon(conn);
    conn.close();
    H2Instance.abandon(conn);
  }
}
