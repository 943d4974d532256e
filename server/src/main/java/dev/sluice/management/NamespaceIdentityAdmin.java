package dev.sluice.management;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.CatalogSettings;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.NotFound;
import dev.sluice.store.Store;
import dev.sluice.vending.CredentialSource;
import dev.sluice.vending.NamespaceIdentities;
import dev.sluice.vending.StorageBackends;
import dev.sluice.vending.StorageProfile;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A namespace's storage identity for the management API (the service admin's alone, checked by
 * {@link ManagementAccess} before this runs): validated by the catalog's storage backend against
 * the catalog's profile and the server's credential sources, stored, and every set and clear
 * audited ({@value #ACTION}, with the identity before and after, secrets redacted as the catalog's
 * own are) and logged the same way. {@code onChange} gets the catalog's name after each change, so
 * this replica resolves the catalog (and retires its vendors) again at once; other replicas within
 * the catalogs' one-second bound.
 */
public final class NamespaceIdentityAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceIdentityAdmin.class);
  static final String ACTION = "changeNamespaceStorageIdentity";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Store store;
  private final StorageBackends backends;
  private final NamespaceIdentities identities;
  private final Map<String, CredentialSource> sources;
  private final Authorizer authz;
  private final Consumer<String> onChange;

  public NamespaceIdentityAdmin(
      Store store,
      StorageBackends backends,
      Map<String, CredentialSource> sources,
      Authorizer authz,
      Consumer<String> onChange) {
    this.store = requireNonNull(store, "store");
    this.backends = requireNonNull(backends, "backends");
    this.identities = backends.identities();
    this.sources = Map.copyOf(requireNonNull(sources, "sources"));
    this.authz = requireNonNull(authz, "authz");
    this.onChange = requireNonNull(onChange, "onChange");
  }

  /**
   * Which identity vends for the tables of a namespace: {@code source} {@code namespace}, {@code
   * ancestor} (set on {@code definedOn}) or {@code catalog} (then {@code definedOn} and {@code
   * identity} are null).
   */
  public record Effective(String source, NamespacePath definedOn, ObjectNode identity) {}

  public Effective get(String catalog, NamespacePath namespace) {
    requireNamespace(catalog, namespace);
    Map<NamespacePath, String> stored = store.namespaceIdentities().identities(catalog);
    for (NamespacePath at = namespace; !at.isRoot(); at = at.parent()) {
      String json = stored.get(at);
      if (json != null) {
        return new Effective(at.equals(namespace) ? "namespace" : "ancestor", at, read(json));
      }
    }
    return new Effective("catalog", null, null);
  }

  /** Sets (or replaces) the identity of {@code namespace}; 400 when its backend refuses it. */
  public Effective set(Caller caller, String catalog, NamespacePath namespace, JsonNode identity) {
    StorageProfile profile = catalogProfile(catalog);
    requireNamespace(catalog, namespace);
    NamespaceIdentities.Parsed parsed;
    try {
      parsed = identities.parse(profile, namespace.toString(), identity, sources);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
    String before;
    try {
      before = store.namespaceIdentities().set(catalog, namespace, parsed.identity().toString());
    } catch (NotFound e) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
    audit(caller, catalog, profile.storageType(), namespace, before, parsed.identity());
    onChange.accept(catalog);
    return new Effective("namespace", namespace, parsed.identity());
  }

  /** Removes the identity of {@code namespace}; 404 when it has none. */
  public void clear(Caller caller, String catalog, NamespacePath namespace) {
    StorageProfile profile = catalogProfile(catalog);
    requireNamespace(catalog, namespace);
    String before = store.namespaceIdentities().clear(catalog, namespace);
    if (before == null) {
      throw new NotFoundException(
          "Namespace %s of catalog %s has no storage identity", namespace, catalog);
    }
    audit(caller, catalog, profile.storageType(), namespace, before, null);
    onChange.accept(catalog);
  }

  private void audit(
      Caller caller,
      String catalog,
      String storageType,
      NamespacePath namespace,
      String before,
      JsonNode after) {
    ObjectNode detail = JSON.createObjectNode();
    detail.put("namespace", namespace.toString());
    detail.set(
        "before",
        before == null ? detail.nullNode() : identities.redacted(storageType, read(before)));
    detail.set(
        "after", after == null ? detail.nullNode() : identities.redacted(storageType, after));
    String text = detail.toString();
    LOG.info(
        "Namespace {} of catalog {}: storage identity changed by {} (request {}): {}",
        namespace,
        catalog,
        caller.principal(),
        caller.requestId(),
        text);
    authz.record(caller, ACTION, catalog, "namespace " + namespace, true, text);
  }

  private StorageProfile catalogProfile(String catalog) {
    CatalogRecord record =
        store
            .getCatalog(catalog)
            .orElseThrow(() -> new NotFoundException("Catalog not found: %s", catalog));
    try {
      return CatalogSettings.fromRecord(backends, record).storage();
    } catch (IllegalStateException e) {
      throw new ServiceUnavailableException("%s", e.getMessage());
    }
  }

  private void requireNamespace(String catalog, NamespacePath namespace) {
    if (store.getCatalog(catalog).isEmpty()) {
      throw new NotFoundException("Catalog not found: %s", catalog);
    }
    if (namespace.isRoot() || store.loadNamespace(catalog, namespace).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) JSON.readTree(json);
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalStateException("Corrupt storage identity", e);
    }
  }
}
