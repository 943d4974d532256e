package dev.sluice.store;

import java.util.Map;

/**
 * The storage identities set on namespaces ({@code namespace_storage_identities}): per catalog and
 * namespace, one JSON object whose keys belong to the catalog's storage backend. An identity lives
 * and dies with its namespace: dropping the namespace drops it.
 */
public interface NamespaceIdentityStore {
  /** Every identity set in {@code catalog}, by namespace (JSON text each); empty when none. */
  Map<NamespacePath, String> identities(String catalog);

  /**
   * Sets or replaces the identity of namespace {@code path}; {@link NotFound} when the namespace
   * does not exist. Returns the identity it replaced, or null.
   */
  String set(String catalog, NamespacePath path, String identityJson);

  /** Removes the identity of {@code path}; returns the identity removed, or null when none. */
  String clear(String catalog, NamespacePath path);
}
