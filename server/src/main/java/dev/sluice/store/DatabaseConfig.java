package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/**
 * Where the store lives. {@code url} is a JDBC URL (jdbc:h2:… or jdbc:postgresql:…). Requests wait
 * at most {@code connectionTimeoutMs} for a connection (short: they fail fast with 503 while the
 * database is down); start-up, which cannot serve anything without its store, waits up to {@code
 * startupTimeoutMs} (a busy machine opening an H2 file, a database still starting).
 */
public record DatabaseConfig(
    String url,
    String user,
    String password,
    int maxPoolSize,
    long connectionTimeoutMs,
    long startupTimeoutMs) {
  /** The default wait for the store at start-up. */
  public static final long DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

  public DatabaseConfig(
      String url, String user, String password, int maxPoolSize, long connectionTimeoutMs) {
    this(url, user, password, maxPoolSize, connectionTimeoutMs, DEFAULT_STARTUP_TIMEOUT_MS);
  }

  public DatabaseConfig {
    requireNonNull(url, "url");
    if (!url.startsWith("jdbc:h2:") && !url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "database.url must start with jdbc:h2: or jdbc:postgresql:, got: "
              + url.replaceAll("password=[^&;]*", "password=***"));
    }
    if (maxPoolSize < 2) {
      // Flyway's migration at start-up holds two connections at once.
      throw new IllegalArgumentException(
          "database.maxPoolSize must be at least 2, got: " + maxPoolSize);
    }
    if (connectionTimeoutMs < 250) {
      throw new IllegalArgumentException(
          "database.connectionTimeoutMs must be at least 250, got: " + connectionTimeoutMs);
    }
    if (startupTimeoutMs < connectionTimeoutMs) {
      throw new IllegalArgumentException(
          "database.startupTimeoutMs must be at least database.connectionTimeoutMs ("
              + connectionTimeoutMs
              + "), got: "
              + startupTimeoutMs);
    }
  }

  @Override
  public String toString() {
    return "DatabaseConfig[url=" + url + ", user=" + user + "]";
  }
}
