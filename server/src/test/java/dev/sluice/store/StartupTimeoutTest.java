package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Start-up waits for its own store; requests after {@link JdbcStore#ready()} fail fast. Simulated
 * with a pool of two connections held by someone else for longer than the request timeout.
 */
class StartupTimeoutTest {
  @Test
  void startupWaitsForAConnectionAndRequestsDoNot() throws Exception {
    Path dir = Files.createTempDirectory("sluice-startup");
    String url = "jdbc:h2:file:" + dir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE";
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 250, 10_000))) {
      // Before ready(): a connection freed after 1.5 s (6× the request timeout) is waited for.
      Connection other = store.connectionForTest();
      Connection held = store.connectionForTest();
      CompletableFuture<Void> release =
          CompletableFuture.runAsync(
              () -> {
                sleep(1500);
                close(held);
              });
      long start = System.nanoTime();
      try (Connection waited = store.connectionForTest()) {
        assertThat(waited.isValid(1)).isTrue();
      }
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(1000);
      release.get(5, TimeUnit.SECONDS);

      store.ready();
      Connection busy = store.connectionForTest();
      try {
        long refusedStart = System.nanoTime();
        assertThatThrownBy(() -> store.connectionForTest().close())
            .isInstanceOf(SQLException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - refusedStart))
            .as("a request waits only the request timeout")
            .isLessThan(1000);
      } finally {
        busy.close();
        other.close();
      }
    }
  }

  /**
   * Once a request's wait timed out, the others fail at once instead of each waiting its own
   * timeout (a cache loading one key runs its waiters one after another: 12 of them took 24 s
   * before), while one at a time waits again; a freed connection ends it.
   */
  @Test
  void afterOneTimedOutWaitOthersFailAtOnceUntilAConnectionComes() throws Exception {
    Path dir = Files.createTempDirectory("sluice-breaker");
    String url = "jdbc:h2:file:" + dir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE";
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 500, 10_000))) {
      store.ready();
      Connection a = store.connectionForTest();
      Connection b = store.connectionForTest();
      long start = System.nanoTime();
      assertThatThrownBy(() -> store.connectionForTest().close()).isInstanceOf(SQLException.class);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .as("the first request waits the pool timeout")
          .isGreaterThanOrEqualTo(450);

      long failFast = System.nanoTime();
      for (int i = 0; i < 12; i++) {
        assertThatThrownBy(() -> store.connectionForTest().close())
            .isInstanceOf(java.sql.SQLTransientConnectionException.class)
            .hasMessageContaining("not waiting again yet");
      }
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - failFast))
          .as("12 requests right after it, together")
          .isLessThan(200);
      assertThat(store.ping()).as("not ready while no connection comes").isFalse();

      a.close();
      sleep(300); // past the spacing between probes
      try (Connection again = store.connectionForTest()) {
        assertThat(again.isValid(1)).isTrue();
      }
      try (Connection next = store.connectionForTest()) {
        assertThat(next.isValid(1)).as("the store is taken as up again").isTrue();
      }
      b.close();
    }
  }

  /**
   * A probe that times out leaves the store down for the requests right behind it: a cache runs one
   * key's loaders one after another, and each of them becoming the next probe made the third wait
   * three timeouts (PgOutageTest saw a 503 after 5.9 s with a 2 s pool timeout).
   */
  @Test
  void afterAFailedProbeTheRequestsRightBehindItFailAtOnce() throws Exception {
    Path dir = Files.createTempDirectory("sluice-probe");
    String url = "jdbc:h2:file:" + dir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE";
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 2, 500, 10_000))) {
      store.ready();
      Connection a = store.connectionForTest();
      Connection b = store.connectionForTest();
      try {
        assertThatThrownBy(() -> store.connectionForTest().close())
            .isInstanceOf(SQLException.class);
        sleep(300); // past the spacing: the next request probes, and waits the pool timeout
        long probe = System.nanoTime();
        assertThatThrownBy(() -> store.connectionForTest().close())
            .isInstanceOf(SQLException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - probe))
            .as("the probe waits the pool timeout")
            .isGreaterThanOrEqualTo(450);

        long behind = System.nanoTime();
        for (int i = 0; i < 3; i++) {
          assertThatThrownBy(() -> store.connectionForTest().close())
              .isInstanceOf(java.sql.SQLTransientConnectionException.class)
              .hasMessageContaining("not waiting again yet");
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - behind))
            .as("3 requests right after the failed probe, together")
            .isLessThan(200);
      } finally {
        a.close();
        b.close();
      }
    }
  }

  @Test
  void aStartupTimeoutShorterThanTheRequestTimeoutIsRefused() {
    assertThatThrownBy(() -> new DatabaseConfig("jdbc:h2:mem:x", null, null, 2, 2000, 1000))
        .hasMessageContaining("database.startupTimeoutMs must be at least");
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void close(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
