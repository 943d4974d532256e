package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.io.ConfinedFileIO;
import dev.sluice.io.TracedFileIO;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Store;
import dev.sluice.vending.CatalogClients;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageTimeouts;
import io.opentelemetry.api.trace.Tracer;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.io.FileIO;

/**
 * Resolves a catalog name (the REST {@code prefix} or {@code warehouse}) to a {@link SluiceCatalog}
 * with the catalog's own FileIO, opened by the catalog's storage backend ({@link StorageBackends})
 * and confined to its allowedLocations. A FileIO is kept per catalog while its storage profile is
 * unchanged, and closed (after a grace period) when the profile changes, the catalog is dropped on
 * this replica, or it has been idle for 30 minutes.
 *
 * <p>Every request resolves its catalog, so resolved catalogs are cached for at most one second
 * (the bound the authorization caches use too) and dropped at once when this replica changes a
 * catalog; another replica's change is seen within that second.
 */
public final class CatalogRegistry implements AutoCloseable {
  /**
   * Opens federated ({@code EXTERNAL}) catalogs: their remote connection is kept per catalog while
   * its definition is unchanged, and retired when it changes or the catalog is dropped here.
   */
  public interface ExternalCatalogs extends AutoCloseable {
    SluiceCatalog open(Store store, CatalogSettings settings, MetadataCache metadata);

    void retire(String catalog);

    @Override
    void close();
  }

  /** For a server that federates nothing: an EXTERNAL catalog cannot be served (503). */
  public static final ExternalCatalogs NO_FEDERATION =
      new ExternalCatalogs() {
        @Override
        public SluiceCatalog open(Store store, CatalogSettings settings, MetadataCache metadata) {
          throw new ServiceUnavailableException(
              "Federated catalog %s cannot be served by this server", settings.name());
        }

        @Override
        public void retire(String catalog) {}

        @Override
        public void close() {}
      };

  private final Store store;
  private final StorageBackends backends;
  private final Map<String, CredentialSource> sources;
  private final StorageTimeouts.CatalogIo ioTimeouts;
  private volatile Tracer tracer; // null: untraced
  private volatile ExternalCatalogs external = NO_FEDERATION;
  private final CatalogClients<FileIO> fileIOs =
      new CatalogClients<>(
          "catalog FileIO", FileIO::close, Duration.ofMinutes(30), Duration.ofSeconds(30));
  private final MetadataCache metadata =
      MetadataCache.forHeap(Runtime.getRuntime().maxMemory(), Duration.ofMinutes(10));
  // Only catalogs that exist are cached: one created on another replica is usable at once.
  private final Cache<String, SluiceCatalog> resolved =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1)).maximumSize(10_000).build();

  /**
   * @param ioTimeouts the bounds of each catalog FileIO's calls ({@code storage.catalogIoTimeouts})
   */
  public CatalogRegistry(
      Store store,
      StorageBackends backends,
      Map<String, CredentialSource> sources,
      StorageTimeouts.CatalogIo ioTimeouts) {
    this.store = requireNonNull(store, "store");
    this.backends = requireNonNull(backends, "backends");
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
    this.ioTimeouts = requireNonNull(ioTimeouts, "ioTimeouts");
  }

  /** From now on, EXTERNAL catalogs are opened by {@code external} (the wiring's federation). */
  public void bindFederation(ExternalCatalogs external) {
    this.external = requireNonNull(external, "external");
  }

  /** From now on, the catalogs' own file reads and writes in a traced request are spans. */
  public void bindTracing(Tracer tracer) {
    this.tracer = requireNonNull(tracer, "tracer");
  }

  /**
   * The JSON of a metadata file a commit on this server has just written (for that commit's
   * answer), or null.
   */
  public byte[] writtenMetadataJson(String location) {
    return location == null ? null : metadata.takeWrittenJson(location);
  }

  public SluiceCatalog resolve(String name) {
    SluiceCatalog catalog = resolved.get(name, this::load);
    if (catalog == null) {
      throw new NotFoundException("Unable to find warehouse %s", name);
    }
    return catalog;
  }

  /** Forgets resolved catalogs: call after creating, changing or deleting one. */
  public void invalidate() {
    resolved.invalidateAll();
  }

  /** Forgets {@code catalog} and retires its FileIO: call after changing or deleting it. */
  public void changed(String catalog) {
    resolved.invalidateAll();
    fileIOs.retire(catalog);
    external.retire(catalog);
  }

  private SluiceCatalog load(String name) {
    return store
        .getCatalog(name)
        .map(this::settings)
        .map(
            settings ->
                settings.external()
                    ? external.open(store, settings, metadata)
                    : new SluiceCatalog(
                        store, settings, fileIO(settings), metadata, namespaceStorage(settings)))
        .orElse(null);
  }

  /**
   * The catalog's namespace storage identities, read once on first need and kept as long as the
   * resolved catalog (at most a second): a change on another replica is seen within it, like a
   * change of the catalog's own storage.
   */
  private Supplier<NamespaceStorage> namespaceStorage(CatalogSettings settings) {
    return new Supplier<>() {
      private volatile NamespaceStorage loaded;

      @Override
      public NamespaceStorage get() {
        NamespaceStorage current = loaded;
        if (current == null) {
          Map<NamespacePath, String> stored =
              store.namespaceIdentities().identities(settings.name());
          current =
              stored.isEmpty()
                  ? NamespaceStorage.none(settings.storage())
                  : NamespaceStorage.of(settings.storage(), stored, backends.identities());
          loaded = current;
        }
        return current;
      }
    };
  }

  private CatalogSettings settings(CatalogRecord record) {
    try {
      return CatalogSettings.fromRecord(backends, record);
    } catch (IllegalStateException e) {
      throw new ServiceUnavailableException("%s", e.getMessage());
    }
  }

  private FileIO fileIO(CatalogSettings settings) {
    try {
      // Confined to the catalog's allowedLocations, whatever path a table's metadata names.
      FileIO io =
          fileIOs.get(settings.storage(), p -> backends.openCatalogIO(p, sources, ioTimeouts));
      Tracer traced = tracer;
      return new ConfinedFileIO(
          traced == null ? io : new TracedFileIO(io, traced),
          "catalog " + settings.name(),
          settings.locationPolicy().allowed());
    } catch (StorageBackends.MissingCredentialSource e) {
      throw new ServiceUnavailableException("%s", e.getMessage());
    }
  }

  public Store store() {
    return store;
  }

  @Override
  public void close() {
    fileIOs.close();
    external.close();
  }
}
