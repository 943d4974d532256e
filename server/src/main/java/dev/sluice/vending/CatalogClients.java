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
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clients opened for a catalog's storage profile (vendors, FileIOs), one per catalog and identity
 * scope (the catalog's own, and each namespace with a storage identity: {@link
 * StorageProfile#identityScope()}). A client is replaced when the profile changes, dropped when the
 * catalog is gone ({@link #retire}) or idle, and closed a grace period later, so requests that
 * picked it up just before finish on it. Clients of one profile are never shared with another
 * profile.
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

  /** Where a client is held: its catalog and identity scope. */
  private record Slot(String catalog, String scope) {
    static Slot of(StorageProfile profile) {
      return new Slot(profile.catalog(), profile.identityScope());
    }
  }

  private final String what;
  private final Closer<T> closer;
  private final Duration grace;
  private final Cache<Slot, Held<T>> byCatalog;
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
            .<Slot, Held<T>>removalListener(
                (slot, held, cause) -> {
                  // Idle clients only: a replaced or retired client is retired by its caller, as
                  // this listener runs later on another thread, possibly after close().
                  if (held != null && cause.wasEvicted() && !closed) {
                    retireLater(slot.catalog(), held);
                  }
                })
            .build();
  }

  /**
   * The client for {@code profile}'s catalog, opened with {@code open} unless one is held for it.
   */
  public T get(StorageProfile profile, Function<StorageProfile, T> open) {
    Slot slot = Slot.of(profile);
    String catalog = profile.catalog();
    Held<T> held = byCatalog.getIfPresent(slot);
    if (held != null && held.profile().equals(profile)) {
      return held.client();
    }
    Held<T> current =
        byCatalog
            .asMap()
            .compute(
                slot,
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

  /**
   * Forgets the clients of a catalog that was dropped or changed (its own and its namespaces'
   * identities'); each is closed after the grace.
   */
  public void retire(String catalog) {
    for (Slot slot : Set.copyOf(byCatalog.asMap().keySet())) {
      if (slot.catalog().equals(catalog)) {
        Held<T> held = byCatalog.asMap().remove(slot);
        if (held != null) {
          retireLater(catalog, held);
        }
      }
    }
  }

  /** Catalogs that currently hold a client. */
  public Set<String> catalogs() {
    return byCatalog.asMap().keySet().stream()
        .map(Slot::catalog)
        .collect(Collectors.toUnmodifiableSet());
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
    byCatalog.asMap().forEach((slot, held) -> closeQuietly(slot.catalog(), held.client()));
    byCatalog.asMap().clear();
  }
}
