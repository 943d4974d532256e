package dev.sluice.vending;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.location.StorageLocation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.io.FileIO;

/**
 * The registered storage backends, by {@code storageType}: the one place that dispatches on it.
 * Parses {@code storageConfigInfo} (Polaris's shape) and credential source definitions, and opens a
 * profile's vendor and catalog FileIO. An unknown type is refused loudly, never given a default.
 */
public final class StorageBackends {
  private static final String KEY = StorageBackend.Input.KEY;
  private static final java.util.regex.Pattern SECRET_NAME =
      java.util.regex.Pattern.compile(".*(secret|password|token|key)$");

  private final Map<String, StorageBackend<?>> byType = new LinkedHashMap<>();
  private final Map<String, CredentialSourceType> sourceTypes = new LinkedHashMap<>();

  public StorageBackends(List<StorageBackend<?>> backends) {
    for (StorageBackend<?> backend : backends) {
      if (byType.put(backend.storageType(), backend) != null) {
        throw new IllegalArgumentException("Two backends for storageType " + backend.storageType());
      }
      for (SameStorage same : backend.sameStorage()) {
        if (!same.keyedAsOne()) {
          // Location keys are stored with every claim: folding a new spelling re-keys claims.
          throw new IllegalArgumentException(
              "Backend "
                  + backend.storageType()
                  + " says "
                  + same.location()
                  + " and "
                  + same.sameAs()
                  + " are one place, but the location key tells them apart: fold the spelling in"
                  + " StorageLocation, with a migration that re-keys the stored location claims");
        }
      }
      for (CredentialSourceType type : backend.credentialSourceTypes()) {
        CredentialSourceType previous = sourceTypes.putIfAbsent(type.type(), type);
        if (previous != null && previous != type) {
          throw new IllegalArgumentException(
              "Two backends define credential source type " + type.type());
        }
      }
    }
  }

  /**
   * This registry with {@code replacement} instead of the backend of its type (benchmarks, tests).
   */
  public StorageBackends with(StorageBackend<?> replacement) {
    List<StorageBackend<?>> backends = new ArrayList<>();
    byType
        .values()
        .forEach(
            b -> backends.add(b.storageType().equals(replacement.storageType()) ? replacement : b));
    return new StorageBackends(backends);
  }

  public Set<String> storageTypes() {
    return byType.keySet();
  }

  /** Each registered backend's catalog-form fields ({@link StorageBackend#formFields}), by type. */
  public Map<String, List<StorageField>> formFields() {
    Map<String, List<StorageField>> out = new LinkedHashMap<>();
    byType.forEach((type, backend) -> out.put(type, backend.formFields()));
    return out;
  }

  /**
   * A parsed {@code storageConfigInfo}: as stored (type upper case, allowedLocations filled) and as
   * a profile.
   */
  public record Parsed(ObjectNode config, StorageProfile profile) {}

  /**
   * Parses a catalog's {@code storageConfigInfo} (Polaris's shape: {@code storageType}, {@code
   * allowedLocations}, then the backend's keys). Empty allowedLocations become {@code base}. {@code
   * sources} are the server's credential sources, or null to skip checking them (a catalog read
   * back from the store, whose server config may have changed). Errors name the key.
   */
  public Parsed parse(
      String catalog,
      JsonNode storageConfigInfo,
      String base,
      Map<String, CredentialSource> sources,
      int minDurationSeconds) {
    if (storageConfigInfo == null || !storageConfigInfo.isObject()) {
      throw new IllegalArgumentException("Missing storageConfigInfo");
    }
    ObjectNode info = ((ObjectNode) storageConfigInfo).deepCopy();
    JsonNode typeNode = info.get("storageType");
    if (typeNode == null || !typeNode.isTextual()) {
      throw new IllegalArgumentException("Missing " + KEY + "storageType");
    }
    StorageBackend<?> backend = backend(typeNode.asText());
    info.put("storageType", backend.storageType());
    List<String> allowed = new ArrayList<>();
    JsonNode allowedNode = info.get("allowedLocations");
    if (allowedNode != null && !allowedNode.isNull()) {
      if (!allowedNode.isArray()) {
        throw new IllegalArgumentException(KEY + "allowedLocations must be an array of strings");
      }
      for (JsonNode location : allowedNode) {
        if (!location.isTextual()) {
          throw new IllegalArgumentException(KEY + "allowedLocations must be an array of strings");
        }
        allowed.add(location.asText());
      }
    }
    if (allowed.isEmpty()) {
      allowed.add(base);
    }
    ArrayNode allowedArray = info.putArray("allowedLocations");
    allowed.forEach(allowedArray::add);
    for (String location : allowed) {
      StorageLocation parsed = StorageLocation.parse(location);
      if (!backend.schemes().contains(parsed.scheme())
          || (!parsed.scheme().equals("file") && parsed.authority().isEmpty())) {
        throw new IllegalArgumentException(
            KEY
                + "allowedLocations: "
                + location
                + " is not a location for storageType "
                + backend.storageType()
                + " (schemes "
                + new TreeSet<>(backend.schemes())
                + ")");
      }
    }
    CredentialSource source = null;
    JsonNode sourceName = info.get("credentialSource");
    if (sources != null && sourceName != null && sourceName.isTextual()) {
      source = checkedSource(backend, KEY, sourceName.asText(), sources);
    }
    StorageProfile profile =
        backend.parse(
            new StorageBackend.Input(
                catalog, info.deepCopy(), allowed, minDurationSeconds, source));
    return new Parsed(info, profile);
  }

  /**
   * Refuses a {@code storageConfigInfo} being defined (a create, or an update that replaces it)
   * with a key its storage type does not take, naming the key and the ones it takes. Stored
   * definitions are not re-checked, so that a key accepted by an older version never locks a
   * catalog.
   */
  public void checkKeys(JsonNode storageConfigInfo) {
    if (storageConfigInfo == null || !storageConfigInfo.isObject()) {
      return; // parse names what is missing
    }
    JsonNode type = storageConfigInfo.get("storageType");
    if (type == null || !type.isTextual()) {
      return;
    }
    StorageBackend<?> backend = backend(type.asText());
    Set<String> known = new TreeSet<>(backend.configKeys());
    known.add("storageType");
    known.add("allowedLocations");
    storageConfigInfo
        .fieldNames()
        .forEachRemaining(
            key -> {
              if (!known.contains(key)) {
                throw new IllegalArgumentException(
                    "Unknown field: "
                        + KEY
                        + key
                        + " (storageType "
                        + backend.storageType()
                        + " takes "
                        + String.join(", ", known)
                        + ")");
              }
            });
  }

  /** Namespaces' storage identities, parsed and redacted by these backends. */
  public NamespaceIdentities identities() {
    return new NamespaceIdentities(this);
  }

  /** True when catalogs of {@code storageType} must name one of the server's credential sources. */
  public boolean takesCredentialSource(String storageType) {
    return !backend(storageType).credentialSourceTypes().isEmpty();
  }

  /** The keys a namespace's storage identity takes, per storage type (empty: none). */
  public Map<String, Set<String>> identityKeys() {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    byType.forEach((type, backend) -> out.put(type, Set.copyOf(backend.identityKeys())));
    return out;
  }

  /** The {@code storageConfigInfo} keys of each storage type, besides the common ones. */
  public Map<String, Set<String>> configKeys() {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    byType.forEach((type, backend) -> out.put(type, Set.copyOf(backend.configKeys())));
    return out;
  }

  static CredentialSource checkedSource(
      StorageBackend<?> backend,
      String keyPrefix,
      String name,
      Map<String, CredentialSource> sources) {
    CredentialSource source = sources.get(name);
    if (source == null) {
      throw new IllegalArgumentException(
          keyPrefix
              + "credentialSource: unknown credential source '"
              + name
              + "' (the server config defines "
              + new TreeSet<>(sources.keySet())
              + ")");
    }
    if (backend.credentialSourceTypes().stream().noneMatch(t -> t.type().equals(source.type()))) {
      throw new IllegalArgumentException(
          keyPrefix
              + "credentialSource: '"
              + name
              + "' is a "
              + source.type()
              + " source; storageType "
              + backend.storageType()
              + " takes "
              + backend.credentialSourceTypes().stream().map(CredentialSourceType::type).toList());
    }
    return source;
  }

  /**
   * Parses one credential source of the server YAML ({@code storage.credentialSources.<name>}):
   * {@code fields} holds {@code type} and the type's keys. Errors name the key.
   */
  public CredentialSource parseSource(String name, Map<String, String> fields) {
    String key = "storage.credentialSources." + name;
    String typeName = fields.get("type");
    CredentialSourceType type =
        typeName == null ? null : sourceTypes.get(typeName.trim().toLowerCase(Locale.ROOT));
    if (type == null) {
      throw new IllegalArgumentException(
          key + ".type must be one of " + sourceTypes.keySet() + ", got: " + typeName);
    }
    for (String field : fields.keySet()) {
      if (!field.equals("type") && !type.keys().contains(field)) {
        throw new IllegalArgumentException(
            "Unknown config key: "
                + key
                + "."
                + field
                + " (a "
                + type.type()
                + " source takes "
                + new TreeSet<>(type.keys())
                + ")");
      }
    }
    Map<String, String> values = new LinkedHashMap<>(fields);
    values.remove("type");
    return type.parser().parse(name, values);
  }

  /**
   * The vendor for {@code profile}, or empty when its backend never vends; its provider calls keep
   * to {@code timeouts}.
   */
  public Optional<CredentialVendor> openVendor(
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return open(
        backendOf(profile),
        profile,
        sources,
        requireNonNull(metrics, "metrics"),
        requireNonNull(timeouts, "timeouts"));
  }

  private static <P extends StorageProfile> Optional<CredentialVendor> open(
      StorageBackend<P> backend,
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return backend.openVendor(
        backend.profileType().cast(profile), source(profile, sources), metrics, timeouts);
  }

  /**
   * The remote signer for {@code profile}, or empty when it offers no signing; its provider calls
   * keep to {@code timeouts}.
   */
  public Optional<RequestSigner> openSigner(
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return openSigner(
        backendOf(profile),
        profile,
        sources,
        requireNonNull(metrics, "metrics"),
        requireNonNull(timeouts, "timeouts"));
  }

  private static <P extends StorageProfile> Optional<RequestSigner> openSigner(
      StorageBackend<P> backend,
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      VendorMetrics metrics,
      StorageTimeouts.Provider timeouts) {
    return backend.openSigner(
        backend.profileType().cast(profile), source(profile, sources), metrics, timeouts);
  }

  /** The storage self-check's probes for {@code profile}'s backend, or empty when it has none. */
  public Optional<StoreProbes> probes(StorageProfile profile) {
    return backendOf(profile).probes();
  }

  /**
   * The catalog's own FileIO for {@code profile} (not yet confined), bounded by {@code timeouts}.
   */
  public FileIO openCatalogIO(
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      StorageTimeouts.CatalogIo timeouts) {
    return openIO(backendOf(profile), profile, sources, requireNonNull(timeouts, "timeouts"));
  }

  private static <P extends StorageProfile> FileIO openIO(
      StorageBackend<P> backend,
      StorageProfile profile,
      Map<String, CredentialSource> sources,
      StorageTimeouts.CatalogIo timeouts) {
    return backend.openCatalogIO(
        backend.profileType().cast(profile), source(profile, sources), timeouts);
  }

  /**
   * A copy of a stored or requested {@code storageConfigInfo} fit for an audit record or a log:
   * every value whose key ends in secret, password, token or key, or that its backend declares
   * secret, replaced by {@code <redacted>}, at any depth.
   */
  public JsonNode redacted(JsonNode storageConfig) {
    JsonNode copy = storageConfig.deepCopy();
    Set<String> declared = new java.util.HashSet<>();
    JsonNode type = copy.get("storageType");
    if (type != null && type.isTextual()) {
      StorageBackend<?> backend = byType.get(type.asText().toUpperCase(Locale.ROOT));
      if (backend != null) {
        backend.secretKeys().forEach(k -> declared.add(k.toLowerCase(Locale.ROOT)));
      }
    }
    redact(copy, declared);
    return copy;
  }

  static void redact(JsonNode node, Set<String> declared) {
    if (node instanceof ObjectNode object) {
      for (var it = object.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        String key = field.getKey().toLowerCase(Locale.ROOT);
        if (declared.contains(key) || SECRET_NAME.matcher(key).matches()) {
          field.setValue(object.textNode("<redacted>"));
        } else {
          redact(field.getValue(), declared);
        }
      }
    } else if (node != null && node.isArray()) {
      node.forEach(item -> redact(item, declared));
    }
  }

  /**
   * The storage failure ({@link StorageBackend#isStorageFailure}) in {@code error}'s cause chain,
   * or empty: the catalog's own storage refused or failed, which is not a server bug.
   */
  public Optional<Throwable> storageFailure(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      for (StorageBackend<?> backend : byType.values()) {
        if (backend.isStorageFailure(t)) {
          return Optional.of(t);
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Optional.empty();
  }

  /** The backend tag of {@code profile}'s metrics: its storage type, lower case. */
  public static String metricsTag(StorageProfile profile) {
    return metricsTag(profile.storageType());
  }

  /** The {@code backend} tag of a storage type's meters: the type in lower case. */
  public static String metricsTag(String storageType) {
    return storageType.toLowerCase(Locale.ROOT);
  }

  private static CredentialSource source(
      StorageProfile profile, Map<String, CredentialSource> sources) {
    if (profile.credentialSource().isEmpty()) {
      return null;
    }
    String name = profile.credentialSource().get();
    CredentialSource source = sources.get(name);
    if (source == null) {
      throw new MissingCredentialSource(profile.catalog(), name);
    }
    return source;
  }

  StorageBackend<?> backendOf(StorageProfile profile) {
    StorageBackend<?> backend = byType.get(profile.storageType());
    if (backend == null || !backend.profileType().isInstance(profile)) {
      throw new IllegalStateException("No backend registered for " + profile.getClass().getName());
    }
    return backend;
  }

  /** The backend of {@code type}, or null. */
  StorageBackend<?> backendOrNull(String type) {
    return byType.get(type.toUpperCase(Locale.ROOT));
  }

  private StorageBackend<?> backend(String type) {
    StorageBackend<?> backend = byType.get(type.toUpperCase(Locale.ROOT));
    if (backend == null) {
      throw new IllegalArgumentException(
          "Unsupported "
              + KEY
              + "storageType: "
              + type
              + " (supported: "
              + List.copyOf(byType.keySet())
              + ")");
    }
    return backend;
  }

  /** A stored catalog names a credential source the server config no longer defines. */
  public static final class MissingCredentialSource extends RuntimeException {
    public MissingCredentialSource(String catalog, String source) {
      super(
          "Catalog "
              + catalog
              + " names credential source '"
              + source
              + "', which the server config does not define");
    }
  }
}
