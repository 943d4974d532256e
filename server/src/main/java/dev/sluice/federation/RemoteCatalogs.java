package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import dev.sluice.catalog.CatalogRegistry;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.catalog.MetadataCache;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.Store;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The federated catalogs of this server: one {@link RemoteConnection} per catalog, opened on first
 * use and kept while the catalog's connection is unchanged (like a catalog's FileIO); replaced when
 * it changes and retired when the catalog is dropped, each closed after a grace period so that the
 * requests that picked it up finish on it.
 */
public final class RemoteCatalogs implements CatalogRegistry.ExternalCatalogs {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteCatalogs.class);
  private static final long GRACE_SECONDS = 30;

  private record Held(String connection, RemoteConnection remote) {}

  private final FederationSettings settings;
  private final Map<String, Held> byCatalog = new ConcurrentHashMap<>();
  private final ScheduledExecutorService closer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "sluice-federation-closer");
            thread.setDaemon(true);
            return thread;
          });

  public RemoteCatalogs(FederationSettings settings) {
    this.settings = requireNonNull(settings, "settings");
  }

  @Override
  public SluiceCatalog open(Store store, CatalogSettings catalog, MetadataCache metadata) {
    return new FederatedCatalog(
        store, catalog, metadata, connection(catalog), settings.maxListedNames());
  }

  private RemoteConnection connection(CatalogSettings catalog) {
    String key = catalog.connectionConfigJson();
    Held held = byCatalog.get(catalog.name());
    if (held != null && held.connection().equals(key)) {
      return held.remote();
    }
    Held opened =
        byCatalog.compute(
            catalog.name(),
            (name, current) -> {
              if (current != null && current.connection().equals(key)) {
                return current;
              }
              Held next = new Held(key, new RemoteConnection(name, catalog.connection(), settings));
              if (current != null) {
                retireLater(current);
              }
              return next;
            });
    return opened.remote();
  }

  @Override
  public void retire(String catalog) {
    Held held = byCatalog.remove(catalog);
    if (held != null) {
      retireLater(held);
    }
  }

  private void retireLater(Held held) {
    closer.schedule(held.remote()::close, GRACE_SECONDS, TimeUnit.SECONDS);
    LOG.debug("Retiring {}", held.remote());
  }

  @Override
  public void close() {
    byCatalog.values().forEach(h -> h.remote().close());
    byCatalog.clear();
    closer.shutdownNow();
  }
}
