package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.location.StorageLocation;
import dev.sluice.store.AlreadyExists;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.Conflict;
import dev.sluice.store.NotEmpty;
import dev.sluice.store.NotFound;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.Store;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NotFoundException;

/** Catalog lifecycle for the management API: validates definitions, then stores them. */
public final class CatalogAdmin {
  /** Every new catalog's catalog_admin role is granted to this principal role. */
  private static final String SERVICE_ADMIN = Caller.SERVICE_ADMIN;

  private final Store store;
  private final StorageBackends backends;
  private final Map<String, CredentialSource> credentialSources;
  private final int minVendDuration;
  private final Predicate<String> secretDefined;

  /**
   * {@code credentialSources}: the credential sources the server config defines; {@code
   * minVendDuration}: the shortest credential lifetime a catalog may ask for.
   */
  public CatalogAdmin(
      Store store,
      StorageBackends backends,
      Map<String, CredentialSource> credentialSources,
      int minVendDuration) {
    this(store, backends, credentialSources, minVendDuration, reference -> false);
  }

  /**
   * {@code secretDefined}: whether the server's {@code federation.secrets} defines a secret of a
   * name (a federated catalog's connection may only name one it does).
   */
  public CatalogAdmin(
      Store store,
      StorageBackends backends,
      Map<String, CredentialSource> credentialSources,
      int minVendDuration,
      Predicate<String> secretDefined) {
    this.store = requireNonNull(store, "store");
    this.backends = requireNonNull(backends, "backends");
    this.credentialSources = Map.copyOf(credentialSources);
    this.minVendDuration = minVendDuration;
    this.secretDefined = requireNonNull(secretDefined, "secretDefined");
  }

  public CatalogRecord create(
      String name, String type, Map<String, String> properties, JsonNode storageConfigInfo) {
    return create(name, type, properties, storageConfigInfo, null);
  }

  /**
   * Creates a catalog; {@code connection}, a federated ({@code EXTERNAL}) catalog's remote, is
   * required for one and refused for an INTERNAL one (400 either way), and its secret reference
   * must name a secret of the server's {@code federation.secrets}.
   */
  public CatalogRecord create(
      String name,
      String type,
      Map<String, String> properties,
      JsonNode storageConfigInfo,
      ConnectionConfigInfo connection) {
    checkKeys(storageConfigInfo);
    checkSecret(connection);
    CatalogSettings settings =
        CatalogSettings.of(
            backends,
            name,
            type,
            properties,
            storageConfigInfo,
            connection,
            credentialSources,
            minVendDuration);
    CatalogRecord record =
        new CatalogRecord(
            settings.name(),
            settings.type(),
            settings.properties(),
            settings.storageConfigJson(),
            settings.connectionConfigJson(),
            1,
            0,
            0);
    try {
      store.createCatalog(record, SERVICE_ADMIN);
    } catch (AlreadyExists e) {
      throw new AlreadyExistsException("Catalog already exists: %s", name);
    }
    return get(name);
  }

  public CatalogRecord get(String name) {
    return store
        .getCatalog(name)
        .orElseThrow(() -> new NotFoundException("Catalog not found: %s", name));
  }

  public Page<CatalogRecord> list(PageRequest page) {
    return store.listCatalogs(page);
  }

  /**
   * What an update changes that only the service admin may change: the storage identity ({@code
   * storageConfigInfo}: type, role, credential source, endpoints, templates, allowedLocations) or a
   * catalog property in {@link #ADMIN_PROPERTIES}. Empty when none.
   */
  public record Change(CatalogRecord before, CatalogSettings after, List<String> restricted) {}

  /**
   * Catalog properties that decide where tables may live: the service admin's to change. The base
   * location moves every namespace without a location of its own.
   */
  public static final Set<String> ADMIN_PROPERTIES =
      Set.of(CatalogSettings.ALLOW_UNSTRUCTURED_LOCATIONS, CatalogSettings.DEFAULT_BASE_LOCATION);

  /**
   * Validates an update of properties and/or storage configuration without applying it. storageType
   * never changes, and allowedLocations cannot be narrowed while a table or view of the catalog
   * lies outside the new set.
   */
  public Change plan(String name, Map<String, String> properties, JsonNode storageConfigInfo) {
    return plan(name, properties, storageConfigInfo, null);
  }

  /**
   * As {@link #plan(String, Map, JsonNode)}, with a federated catalog's new {@code connection}
   * (null keeps it; an INTERNAL catalog has none to set): the service admin's to change.
   */
  public Change plan(
      String name,
      Map<String, String> properties,
      JsonNode storageConfigInfo,
      ConnectionConfigInfo connection) {
    CatalogRecord current = get(name);
    if (storageConfigInfo != null) {
      checkKeys(storageConfigInfo);
    }
    checkSecret(connection);
    CatalogSettings before = CatalogSettings.fromRecord(backends, current);
    Map<String, String> nextProperties = properties == null ? current.properties() : properties;
    JsonNode nextStorage = storageConfigInfo == null ? before.storageConfig() : storageConfigInfo;
    CatalogSettings after =
        CatalogSettings.of(
            backends,
            name,
            current.type(),
            nextProperties,
            nextStorage,
            connection == null ? before.connection() : connection,
            credentialSources,
            minVendDuration);
    List<String> restricted = new ArrayList<>();
    if (!Objects.equals(before.connection(), after.connection())) {
      restricted.add("connectionConfigInfo");
    }
    if (!after.storageConfig().equals(before.storageConfig())) {
      if (!after.storageType().equals(before.storageType())) {
        throw new BadRequestException(
            "Cannot change storageConfigInfo.storageType of catalog %s from %s to %s",
            name, before.storageType(), after.storageType());
      }
      restricted.add("storageConfigInfo");
    }
    for (String key : ADMIN_PROPERTIES) {
      if (!Objects.equals(before.properties().get(key), after.properties().get(key))) {
        restricted.add("properties." + key);
      }
    }
    if (!after.allowedLocations().equals(before.allowedLocations())) {
      List<String> roots =
          after.locationPolicy().allowed().stream().map(StorageLocation::key).toList();
      store
          .claimOutside(name, roots)
          .ifPresent(
              outside -> {
                throw new BadRequestException(
                    "Cannot narrow storageConfigInfo.allowedLocations of catalog %s to %s: a table or view lies at %s",
                    name, after.allowedLocations(), outside);
              });
    }
    return new Change(current, after, List.copyOf(restricted));
  }

  /**
   * Applies a planned update. {@code expectedVersion}, when given, must match the stored entity
   * version (optimistic concurrency, as in Polaris); without it, the planned-from version must.
   */
  public CatalogRecord apply(Change change, Long expectedVersion) {
    String name = change.before().name();
    long version = expectedVersion == null ? change.before().version() : expectedVersion;
    CatalogSettings settings = change.after();
    try {
      return store.updateCatalog(
          new CatalogRecord(
              name,
              change.before().type(),
              settings.properties(),
              settings.storageConfigJson(),
              settings.connectionConfigJson(),
              version,
              0,
              0),
          version);
    } catch (NotFound e) {
      throw new NotFoundException("Catalog not found: %s", name);
    } catch (Conflict e) {
      throw new CommitFailedException("%s", e.getMessage());
    }
  }

  /**
   * Replaces properties and/or storage configuration, without the service-admin check (for tools
   * and tests).
   */
  public CatalogRecord update(
      String name,
      Long expectedVersion,
      Map<String, String> properties,
      JsonNode storageConfigInfo) {
    return apply(plan(name, properties, storageConfigInfo), expectedVersion);
  }

  /** A connection may only name a secret the server's YAML defines (its value is never told). */
  private void checkSecret(ConnectionConfigInfo connection) {
    if (connection == null) {
      return;
    }
    String reference = connection.authenticationParameters().secretReference();
    if (reference != null && !secretDefined.test(reference)) {
      throw new BadRequestException(
          "Unknown connectionConfigInfo.authenticationParameters.secretReference: %s (define it"
              + " under federation.secrets in the server's configuration)",
          reference);
    }
  }

  private void checkKeys(JsonNode storageConfigInfo) {
    try {
      backends.checkKeys(storageConfigInfo);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
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
