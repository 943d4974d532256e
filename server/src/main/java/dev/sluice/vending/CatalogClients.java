package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clients opened for a catalog's storage profile (vendors, FileIOs), one per catalog. A client is
 * replaced when the catalog's profile changes, dropped when the catalog is gone ({@link #retire})
 * or idle, and closed a grace period later, so requests that picked it up just before finish on it.
 * Clients of one profile are never shared with another profile.
 */
public final class CatalogClients<T> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogClients.class);
  private static final ScheduledExecutorService CLOSER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "sluice-client-closer");
            thread.setDaemon(true);
            return thread;
          });

  private record Held<T>(StorageProfile profile, T client) {}

  private final String what;
  private final Closer<T> closer;
  private final Duration grace;
  private final Cache<String, Held<T>> byCatalog;
  private volatile boolean closed;

  /** How a client is closed. */
  @FunctionalInterface
  public interface Closer<T> {
    void close(T client) throws Exception;
  }

  public CatalogClients(String what, Closer<T> closer, Duration idle, Duration grace) {
    this.what = requireNonNull(what, "what");
    this.closer = requireNonNull(closer, "closer");
    this.grace = requireNonNull(grace, "grace");
    this.byCatalog =
        Caffeine.newBuilder()
            .expireAfterAccess(requireNonNull(idle, "idle"))
            .<String, Held<T>>removalListener(
                (catalog, held, cause) -> {
                  // Idle clients only: a replaced or retired client is retired by its caller, as
                  // this listener runs later on another thread, possibly after close().
                  if (held != null && cause.wasEvicted() && !closed) {
                    retireLater(catalog, held);
                  }
                })
            .build();
  }

  /**
   * The client for {@code profile}'s catalog, opened with {@code open} unless one is held for it.
   */
  public T get(StorageProfile profile, Function<StorageProfile, T> open) {
    String catalog = profile.catalog();
    Held<T> held = byCatalog.getIfPresent(catalog);
    if (held != null && held.profile().equals(profile)) {
      return held.client();
    }
    Held<T> current =
        byCatalog
            .asMap()
            .compute(
                catalog,
                (k, old) -> {
                  if (old != null && old.profile().equals(profile)) {
                    return old;
                  }
                  // Opened first: if opening fails, the mapping and the old client stay.
                  Held<T> opened = new Held<>(profile, open.apply(profile));
                  if (old != null) {
                    retireLater(catalog, old); // its profile changed
                  }
                  return opened;
                });
    return current.client();
  }

  /** Forgets the client of a catalog that was dropped or changed; it is closed after the grace. */
  public void retire(String catalog) {
    Held<T> held = byCatalog.asMap().remove(catalog);
    if (held != null) {
      retireLater(catalog, held);
    }
  }

  /** Catalogs that currently hold a client. */
  public Set<String> catalogs() {
    return Set.copyOf(byCatalog.asMap().keySet());
  }

  private void retireLater(String catalog, Held<T> held) {
    LOG.debug("Retiring the {} of catalog {}", what, catalog);
    CLOSER.schedule(
        () -> closeQuietly(catalog, held.client()), grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void closeQuietly(String catalog, T client) {
    try {
      closer.close(client);
    } catch (Exception e) {
      LOG.warn("Closing the {} of catalog {} failed: {}", what, catalog, e.toString());
    }
  }

  /** Closes every held client now. */
  @Override
  public void close() {
    closed = true;
    byCatalog.asMap().forEach((catalog, held) -> closeQuietly(catalog, held.client()));
    byCatalog.asMap().clear();
  }
}
