package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/** Where the store lives. {@code url} is a JDBC URL (jdbc:h2:… or jdbc:postgresql:…). */
public record DatabaseConfig(
    String url, String user, String password, int maxPoolSize, long connectionTimeoutMs) {
  public DatabaseConfig {
    requireNonNull(url, "url");
    if (!url.startsWith("jdbc:h2:") && !url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "database.url must start with jdbc:h2: or jdbc:postgresql:, got: "
              + url.replaceAll("password=[^&;]*", "password=***"));
    }
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException(
          "database.maxPoolSize must be at least 1, got: " + maxPoolSize);
    }
    if (connectionTimeoutMs < 250) {
      throw new IllegalArgumentException(
          "database.connectionTimeoutMs must be at least 250, got: " + connectionTimeoutMs);
    }
  }

  @Override
  public String toString() {
    return "DatabaseConfig[url=" + url + ", user=" + user + "]";
  }
}
