package dev.sluice.config;

import static dev.sluice.config.Bounds.checked;
import static dev.sluice.config.Bounds.orDefault;

import dev.sluice.store.DatabaseConfig;
import java.nio.file.Path;

/**
 * {@code database}: where the store lives and how requests wait for it; the checks are {@link
 * DatabaseConfig}'s. Without {@code url}, the embedded H2 file under {@code dataDir} ({@link
 * #withDefaultUrl}).
 */
public record DatabaseSection(
    String url,
    String user,
    @Secret String password,
    Integer maxPoolSize,
    Long connectionTimeoutMs,
    Long startupTimeoutMs,
    Boolean pointerCache,
    Long pointerCacheMaxEntries) {

  public static final DatabaseSection DEFAULT =
      new DatabaseSection(null, null, null, null, null, null, null, null);

  public DatabaseSection {
    maxPoolSize = orDefault(maxPoolSize, 10);
    // Short, so requests fail fast with 503 while the database is down.
    connectionTimeoutMs = orDefault(connectionTimeoutMs, 2000L);
    // Long: start-up waits for its own store (an H2 file on a busy machine).
    startupTimeoutMs = orDefault(startupTimeoutMs, DatabaseConfig.DEFAULT_STARTUP_TIMEOUT_MS);
    // Table pointers served from memory, kept coherent by PostgreSQL's LISTEN/NOTIFY.
    pointerCache = orDefault(pointerCache, true);
    pointerCacheMaxEntries =
        orDefault(pointerCacheMaxEntries, DatabaseConfig.DEFAULT_POINTER_CACHE_ENTRIES);
    if (url != null) {
      // Without a url the check waits for withDefaultUrl, which builds this section again.
      settingsOf(
          url,
          user,
          password,
          maxPoolSize,
          connectionTimeoutMs,
          startupTimeoutMs,
          pointerCache,
          pointerCacheMaxEntries);
    }
  }

  /**
   * This section, or with the embedded store's url when none is set. H2's page cache is sized to
   * the heap ({@link DatabaseConfig#jdbcUrl}).
   */
  DatabaseSection withDefaultUrl(Path dataDir) {
    if (url != null) {
      return this;
    }
    return new DatabaseSection(
        "jdbc:h2:file:" + dataDir.resolve("catalog") + ";DB_CLOSE_ON_EXIT=FALSE",
        user,
        password,
        maxPoolSize,
        connectionTimeoutMs,
        startupTimeoutMs,
        pointerCache,
        pointerCacheMaxEntries);
  }

  /** The store's settings. */
  public DatabaseConfig settings() {
    return settingsOf(
        url,
        user,
        password,
        maxPoolSize,
        connectionTimeoutMs,
        startupTimeoutMs,
        pointerCache,
        pointerCacheMaxEntries);
  }

  private static DatabaseConfig settingsOf(
      String url,
      String user,
      String password,
      int maxPoolSize,
      long connectionTimeoutMs,
      long startupTimeoutMs,
      boolean pointerCache,
      long pointerCacheMaxEntries) {
    return checked(
        () ->
            new DatabaseConfig(
                url,
                user,
                password,
                maxPoolSize,
                connectionTimeoutMs,
                startupTimeoutMs,
                pointerCache,
                pointerCacheMaxEntries));
  }

  @Override
  public String toString() {
    return Redacted.toString(this);
  }
}
