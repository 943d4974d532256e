package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.Conflict;
import dev.sluice.store.NotEmpty;
import dev.sluice.store.NotFound;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NotFoundException;

/** Catalog lifecycle for the management API: validates definitions, then stores them. */
public final class CatalogAdmin {
  /** Every new catalog's catalog_admin role is granted to this principal role. */
  public static final String SERVICE_ADMIN = "service_admin";

  private final Store store;
  private final Set<String> credentialSources;
  private final int minVendDuration;

  /**
   * {@code credentialSources}: the S3 credential source names the server config defines;
   * {@code minVendDuration}: the shortest credential lifetime a catalog may ask for.
   */
  public CatalogAdmin(Store store, Set<String> credentialSources, int minVendDuration) {
    this.store = requireNonNull(store, "store");
    this.credentialSources = Set.copyOf(credentialSources);
    this.minVendDuration = minVendDuration;
  }

  public CatalogRecord create(String name, String type, Map<String, String> properties, JsonNode storageConfigInfo) {
    CatalogSettings settings = CatalogSettings.of(name, type, properties, storageConfigInfo, credentialSources, minVendDuration);
    CatalogRecord record =
        new CatalogRecord(settings.name(), settings.type(), settings.properties(), settings.storageConfigJson(), 1, 0, 0);
    try {
      store.createCatalog(record, SERVICE_ADMIN);
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Catalog already exists: %s", name);
    }
    return get(name);
  }

  public CatalogRecord get(String name) {
    return store.getCatalog(name).orElseThrow(() -> new NotFoundException("Catalog not found: %s", name));
  }

  public Page<CatalogRecord> list(PageRequest page) {
    return store.listCatalogs(page);
  }

  /**
   * Replaces properties and/or storage configuration. {@code expectedVersion}, when given,
   * must match the stored entity version (optimistic concurrency, as in Polaris).
   */
  public CatalogRecord update(String name, Long expectedVersion, Map<String, String> properties, JsonNode storageConfigInfo) {
    CatalogRecord current = get(name);
    long version = expectedVersion == null ? current.version() : expectedVersion;
    Map<String, String> nextProperties = properties == null ? current.properties() : properties;
    JsonNode nextStorage =
        storageConfigInfo == null ? CatalogSettings.fromRecord(current).storageConfig() : storageConfigInfo;
    CatalogSettings settings = CatalogSettings.of(name, current.type(), nextProperties, nextStorage, credentialSources, minVendDuration);
    try {
      return store.updateCatalog(
          new CatalogRecord(name, current.type(), settings.properties(), settings.storageConfigJson(), version, 0, 0),
          version);
    } catch (NotFound e) {
      throw new NotFoundException("Catalog not found: %s", name);
    } catch (Conflict e) {
      throw new CommitFailedException("%s", e.getMessage());
    }
  }

  public void delete(String name) {
    try {
      store.deleteCatalog(name);
    } catch (NotFound e) {
      throw new NotFoundException("Catalog not found: %s", name);
    } catch (NotEmpty e) {
      throw new NamespaceNotEmptyException("%s", e.getMessage());
    }
  }
}
