package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * Where the store lives. {@code url} is a JDBC URL (jdbc:h2:… or jdbc:postgresql:…). Requests wait
 * at most {@code connectionTimeoutMs} for a connection (short: they fail fast with 503 while the
 * database is down); start-up, which cannot serve anything without its store, waits up to {@code
 * startupTimeoutMs} (a busy machine opening an H2 file, a database still starting).
 *
 * <p>{@code pointerCache} serves table and view pointers from memory ({@link PointerCache}); on
 * PostgreSQL it is kept coherent across replicas by a LISTEN connection ({@link PgChangeListener}).
 */
public record DatabaseConfig(
    String url,
    String user,
    String password,
    int maxPoolSize,
    long connectionTimeoutMs,
    long startupTimeoutMs,
    boolean pointerCache,
    long pointerCacheMaxEntries) {
  /** The default wait for the store at start-up. */
  public static final long DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

  /** The default bound on cached table and view pointers. */
  public static final long DEFAULT_POINTER_CACHE_ENTRIES = 100_000;

  public DatabaseConfig(
      String url, String user, String password, int maxPoolSize, long connectionTimeoutMs) {
    this(url, user, password, maxPoolSize, connectionTimeoutMs, DEFAULT_STARTUP_TIMEOUT_MS);
  }

  public DatabaseConfig(
      String url,
      String user,
      String password,
      int maxPoolSize,
      long connectionTimeoutMs,
      long startupTimeoutMs) {
    this(
        url,
        user,
        password,
        maxPoolSize,
        connectionTimeoutMs,
        startupTimeoutMs,
        true,
        DEFAULT_POINTER_CACHE_ENTRIES);
  }

  /** This configuration with the pointer cache on or off. */
  public DatabaseConfig withPointerCache(boolean on) {
    return new DatabaseConfig(
        url,
        user,
        password,
        maxPoolSize,
        connectionTimeoutMs,
        startupTimeoutMs,
        on,
        pointerCacheMaxEntries);
  }

  /** Whether the store is an H2 file (the embedded default), which {@link #jdbcUrl} tunes. */
  public boolean h2File() {
    return url.startsWith("jdbc:h2:file:");
  }

  /**
   * The URL to connect with: {@code url}, except for H2, whose URL gets, when it does not set them:
   *
   * <ul>
   *   <li>{@code QUERY_CACHE_SIZE=0}, for any H2 store: H2 2.x reuses the result of a cached query
   *       whose tables it believes unchanged, and rows removed by {@code ON DELETE CASCADE} do not
   *       count as a change. A claim check repeated after a table's drop (its location claims
   *       cascade away) then saw the dropped table's claims and refused a free location.
   *   <li>for an H2 file, {@code WRITE_DELAY=0}: a commit is written to the file before it is
   *       acknowledged. H2's default writes within 500 ms after, so a {@code kill -9} lost
   *       acknowledged commits (issue 33: 7 of 1,104). The file is not fsynced: a power loss may
   *       still lose the last ones.
   *   <li>for an H2 file, {@code CACHE_SIZE}: a page cache of an eighth of the heap, between 16 and
   *       256 MB. A fixed 256 MB served a million tables well on a 1 GiB heap but does not fit the
   *       launcher's smaller one (server/jvm.options); H2's own default, 64 MB, is too large for
   *       that heap too.
   * </ul>
   *
   * <p>Without a write delay H2 reuses no space by itself: {@link H2Housekeeping} does.
   */
  public String jdbcUrl() {
    if (postgres()) {
      return url;
    }
    String upper = url.toUpperCase(Locale.ROOT);
    String out = url;
    if (!upper.contains(";QUERY_CACHE_SIZE=")) {
      out += ";QUERY_CACHE_SIZE=0";
    }
    if (!h2File()) {
      return out;
    }
    if (!upper.contains(";WRITE_DELAY=")) {
      out += ";WRITE_DELAY=0";
    }
    if (!upper.contains(";CACHE_SIZE=")) {
      long kib = Runtime.getRuntime().maxMemory() / 8 / 1024;
      out += ";CACHE_SIZE=" + Math.max(16 * 1024, Math.min(256 * 1024, kib));
    }
    return out;
  }

  /** Whether this is PostgreSQL (else H2). */
  public boolean postgres() {
    return url.startsWith("jdbc:postgresql:");
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
    if (pointerCacheMaxEntries < 1 || pointerCacheMaxEntries > 10_000_000) {
      throw new IllegalArgumentException(
          "database.pointerCacheMaxEntries must be between 1 and 10000000, got: "
              + pointerCacheMaxEntries);
    }
  }

  @Override
  public String toString() {
    return "DatabaseConfig[url=" + url + ", user=" + user + "]";
  }
}
