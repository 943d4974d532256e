package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.api.ConnectionConfigInfo;
import dev.sluice.api.ManagementJson;
import dev.sluice.location.LocationPolicy;
import dev.sluice.store.CatalogRecord;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageProfile;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A catalog's definition as the catalog layer uses it, validated: where tables go by default and
 * the storage area they must stay in. Built from the stored record or from a management request;
 * anything invalid is an {@link IllegalArgumentException} naming the key.
 */
public record CatalogSettings(
    String name,
    String type,
    Map<String, String> properties,
    String storageType,
    List<String> allowedLocations,
    ObjectNode storageConfig,
    StorageProfile storage,
    ConnectionConfigInfo connection) {
  public static final String DEFAULT_BASE_LOCATION = "default-base-location";
  public static final String INTERNAL = "INTERNAL";

  /**
   * A federated catalog: its namespaces, tables and views live in a remote Iceberg REST catalog.
   */
  public static final String EXTERNAL = "EXTERNAL";

  /**
   * Catalog property: "true" lets tables and views live anywhere inside allowedLocations instead of
   * inside their namespace's location (they still never overlap). Only the service admin may set
   * it.
   */
  public static final String ALLOW_UNSTRUCTURED_LOCATIONS = "allowUnstructuredLocations";

  private static final ObjectMapper JSON = new ObjectMapper();

  public CatalogSettings {
    requireNonNull(name, "name");
    properties = Map.copyOf(properties);
    allowedLocations = List.copyOf(allowedLocations);
    if (EXTERNAL.equals(type) != (connection != null)) {
      throw new IllegalArgumentException(
          EXTERNAL.equals(type)
              ? "Missing field: catalog.connectionConfigInfo (an EXTERNAL catalog's remote)"
              : "Unexpected field catalog.connectionConfigInfo: only an EXTERNAL catalog has one");
    }
  }

  /**
   * Validates a catalog definition; fills allowedLocations with the base location when empty.
   * {@code credentialSources} are the server's configured credential sources (null skips that
   * check, for catalogs read back from the store); {@code minVendDuration} is the shortest
   * credential lifetime a catalog may ask for.
   */
  public static CatalogSettings of(
      StorageBackends backends,
      String name,
      String type,
      Map<String, String> properties,
      JsonNode storageConfigInfo,
      Map<String, CredentialSource> credentialSources,
      int minVendDuration) {
    return of(
        backends,
        name,
        type,
        properties,
        storageConfigInfo,
        null,
        credentialSources,
        minVendDuration);
  }

  /**
   * {@link #of(StorageBackends, String, String, Map, JsonNode, Map, int)} with the {@code
   * connection} of an EXTERNAL (federated) catalog, which it requires and an INTERNAL one refuses.
   */
  public static CatalogSettings of(
      StorageBackends backends,
      String name,
      String type,
      Map<String, String> properties,
      JsonNode storageConfigInfo,
      ConnectionConfigInfo connection,
      Map<String, CredentialSource> credentialSources,
      int minVendDuration) {
    IdentifierRules.checkName("catalog name", name);
    String catalogType = type == null ? INTERNAL : type.toUpperCase(Locale.ROOT);
    if (!catalogType.equals(INTERNAL) && !catalogType.equals(EXTERNAL)) {
      throw new IllegalArgumentException(
          "Unsupported catalog type: " + type + " (supported: INTERNAL, EXTERNAL)");
    }
    String unstructured = properties.get(ALLOW_UNSTRUCTURED_LOCATIONS);
    if (unstructured != null && !unstructured.equals("true") && !unstructured.equals("false")) {
      throw new IllegalArgumentException(
          "Invalid catalog property "
              + ALLOW_UNSTRUCTURED_LOCATIONS
              + ": "
              + unstructured
              + " (must be true or false)");
    }
    String base = properties.get(DEFAULT_BASE_LOCATION);
    if (base == null || base.isBlank()) {
      throw new IllegalArgumentException("Missing catalog property: " + DEFAULT_BASE_LOCATION);
    }
    StorageBackends.Parsed storage =
        backends.parse(name, storageConfigInfo, base, credentialSources, minVendDuration);
    List<String> allowed = storage.profile().allowedLocations();
    if (!new LocationPolicy(name, allowed).allows(base)) {
      throw new IllegalArgumentException(
          DEFAULT_BASE_LOCATION
              + " "
              + base
              + " is not inside storageConfigInfo.allowedLocations "
              + allowed);
    }
    return new CatalogSettings(
        name,
        catalogType,
        properties,
        storage.profile().storageType(),
        allowed,
        storage.config(),
        storage.profile(),
        connection);
  }

  public static CatalogSettings fromRecord(StorageBackends backends, CatalogRecord record) {
    try {
      // Validated when stored; read back without re-checking sources or the server's duration
      // floor.
      return of(
          backends,
          record.name(),
          record.type(),
          record.properties(),
          JSON.readTree(record.storageConfig()),
          record.connectionConfig() == null
              ? null
              : ManagementJson.lenient()
                  .readValue(record.connectionConfig(), ConnectionConfigInfo.class),
          null,
          1);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(
          "Corrupt storage configuration for catalog " + record.name(), e);
    } catch (IllegalArgumentException e) {
      // Stored by a server that knew its storage type (a downgrade, a removed backend): the
      // catalog cannot be served here, which is not the caller's mistake.
      throw new IllegalStateException(
          "Catalog " + record.name() + " cannot be served by this server: " + e.getMessage(), e);
    }
  }

  /**
   * True for a federated catalog, whose content lives in a remote catalog ({@link #connection}).
   */
  public boolean external() {
    return connection != null;
  }

  /** The connection as stored (JSON text), or null for an INTERNAL catalog. */
  public String connectionConfigJson() {
    if (connection == null) {
      return null;
    }
    try {
      return ManagementJson.lenient().writeValueAsString(connection);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("Cannot write the connection of catalog " + name, e);
    }
  }

  public String defaultBaseLocation() {
    return properties.get(DEFAULT_BASE_LOCATION);
  }

  public boolean allowUnstructuredLocations() {
    return "true".equals(properties.get(ALLOW_UNSTRUCTURED_LOCATIONS));
  }

  public String storageConfigJson() {
    return storageConfig.toString();
  }

  /**
   * A key that changes whenever the storage configuration does: for caching clients built from it.
   */
  public String storageKey() {
    return name + "|" + storageConfig;
  }

  public LocationPolicy locationPolicy() {
    return new LocationPolicy(name, allowedLocations);
  }
}
