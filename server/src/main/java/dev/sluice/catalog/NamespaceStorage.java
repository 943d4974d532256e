package dev.sluice.catalog;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.store.NamespacePath;
import dev.sluice.vending.NamespaceIdentities;
import dev.sluice.vending.StorageProfile;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which storage profile vends for a table: its namespace's storage identity, else the nearest
 * ancestor namespace's, else the catalog's own. One snapshot of a catalog's identities, read with
 * the catalog ({@link CatalogRegistry} keeps it at most a second, like the catalog's profile, and
 * drops it at once when this replica changes one). An identity that no longer parses against the
 * catalog's profile (the catalog changed since it was set) vends nothing (503) for the tables below
 * it: falling back to the catalog's identity would widen what they may reach.
 */
public final class NamespaceStorage {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceStorage.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A namespace's identity: the profile it vends with, or why it cannot vend. */
  private record Entry(StorageProfile profile, String unusable) {}

  private final StorageProfile catalogProfile;
  private final Map<NamespacePath, Entry> byNamespace;

  private NamespaceStorage(StorageProfile catalogProfile, Map<NamespacePath, Entry> byNamespace) {
    this.catalogProfile = requireNonNull(catalogProfile, "catalogProfile");
    this.byNamespace = Collections.unmodifiableMap(byNamespace);
  }

  /** No namespace identity: every table vends with the catalog's profile. */
  static NamespaceStorage none(StorageProfile catalogProfile) {
    return new NamespaceStorage(catalogProfile, Map.of());
  }

  /**
   * The identities {@code stored} (JSON by namespace, as the store holds them) resolved against the
   * catalog's {@code catalogProfile}; credential sources are checked when a credential is vended.
   */
  static NamespaceStorage of(
      StorageProfile catalogProfile,
      Map<NamespacePath, String> stored,
      NamespaceIdentities identities) {
    Map<NamespacePath, Entry> out = new LinkedHashMap<>();
    stored.forEach(
        (path, json) -> {
          try {
            StorageProfile profile =
                identities
                    .parse(catalogProfile, path.toString(), JSON.readTree(json), null)
                    .profile();
            out.put(path, new Entry(profile, null));
          } catch (JsonProcessingException | IllegalArgumentException e) {
            String why = e instanceof IllegalArgumentException ? e.getMessage() : "corrupt JSON";
            LOG.warn(
                "The storage identity of namespace {} in catalog {} cannot vend: {}",
                path,
                catalogProfile.catalog(),
                why);
            out.put(path, new Entry(null, why));
          }
        });
    return new NamespaceStorage(catalogProfile, out);
  }

  /**
   * The profile that vends for tables in {@code namespace}: the nearest namespace at or above it
   * with a storage identity, else the catalog's. 503 when that identity cannot vend.
   */
  public StorageProfile profileFor(Namespace namespace) {
    if (byNamespace.isEmpty()) {
      return catalogProfile;
    }
    for (int depth = namespace.length(); depth > 0; depth--) {
      NamespacePath path = new NamespacePath(List.of(namespace.levels()).subList(0, depth));
      Entry entry = byNamespace.get(path);
      if (entry != null) {
        if (entry.profile() == null) {
          throw new ServiceUnavailableException(
              "Cannot vend for namespace %s of catalog %s: its storage identity (set on %s) is"
                  + " no longer valid for the catalog's storage: %s",
              namespace, catalogProfile.catalog(), path, entry.unusable());
        }
        return entry.profile();
      }
    }
    return catalogProfile;
  }

  /**
   * The namespaces that hold an identity, each with the profile it vends with, or null when it
   * cannot vend (for the storage self-check, which reports it).
   */
  public Map<NamespacePath, StorageProfile> identities() {
    Map<NamespacePath, StorageProfile> out = new LinkedHashMap<>();
    byNamespace.forEach((path, entry) -> out.put(path, entry.profile()));
    return Collections.unmodifiableMap(out);
  }

  /** Why the identity of {@code path} cannot vend, or null. */
  public String unusable(NamespacePath path) {
    Entry entry = byNamespace.get(path);
    return entry == null ? null : entry.unusable();
  }
}
