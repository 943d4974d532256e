package dev.sluice.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything Sluice persists, behind one narrow interface. Implementations must make {@link
 * #swapMetadata} a compare-and-set over all given pointers at once.
 *
 * <p>Failures are reported with the exceptions in this package ({@link AlreadyExists}, {@link
 * NotFound}, {@link NotEmpty}, {@link Conflict}); anything else is a {@link StoreUnavailable}.
 */
public interface Store extends AutoCloseable {

  // --- catalogs ---
  /**
   * Creates a catalog together with its {@code catalog_admin} catalog role, which holds
   * CATALOG_MANAGE_ACCESS and CATALOG_MANAGE_CONTENT and is granted to {@code adminPrincipalRole}.
   */
  void createCatalog(CatalogRecord catalog, String adminPrincipalRole);

  Optional<CatalogRecord> getCatalog(String name);

  /** Catalogs by name, one page. */
  Page<CatalogRecord> listCatalogs(PageRequest page);

  /**
   * Replaces a catalog's properties and storage configuration if its version is still {@code
   * expectedVersion}; its connection configuration too unless the update's is null (a catalog's
   * type, and so whether it has one, never changes; an update that does not name it keeps it).
   */
  CatalogRecord updateCatalog(CatalogRecord updated, long expectedVersion);

  /**
   * Deletes a catalog with its roles and grants; refuses with {@link NotEmpty} while it holds
   * namespaces.
   */
  void deleteCatalog(String name);

  // --- namespaces ---
  default void createNamespace(String catalog, NamespacePath path, Map<String, String> properties) {
    createNamespace(catalog, path, properties, null);
  }

  /**
   * Creates a namespace that claims {@code claim} (its location; null claims none), atomically:
   * {@link LocationConflict} when it equals, contains or lies inside another namespace's location
   * other than its ancestors', or a table's or view's.
   */
  void createNamespace(
      String catalog, NamespacePath path, Map<String, String> properties, LocationClaim claim);

  Optional<Map<String, String>> loadNamespace(String catalog, NamespacePath path);

  /** Direct children of {@code parent} (the root when it is empty), in name order. */
  Page<NamespacePath> listNamespaces(String catalog, NamespacePath parent, PageRequest page);

  /**
   * Drops an empty namespace and the grants on it; {@link NotEmpty} if it holds tables, views or
   * namespaces.
   */
  boolean dropNamespace(String catalog, NamespacePath path);

  default Map<String, String> updateNamespaceProperties(
      String catalog, NamespacePath path, Set<String> removals, Map<String, String> updates) {
    return updateNamespaceProperties(catalog, path, removals, updates, null);
  }

  /**
   * Updates a namespace's properties; with a {@code newClaim} (its location changes) only while it
   * holds no table, view or namespace ({@link NotEmpty}), and the claim is checked as on create.
   */
  Map<String, String> updateNamespaceProperties(
      String catalog,
      NamespacePath path,
      Set<String> removals,
      Map<String, String> updates,
      LocationClaim newClaim);

  // --- tables and views ---
  Optional<ContentRecord> getContent(String catalog, NamespacePath ns, String name);

  Page<String> listContents(String catalog, NamespacePath ns, ContentKind kind, PageRequest page);

  /** Inserts a new table or view; {@link AlreadyExists} names the kind that holds the name. */
  default void createContent(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation) {
    createContent(catalog, ns, name, kind, metadataLocation, List.of());
  }

  /**
   * Inserts a new table or view that claims {@code claims}, atomically: {@link LocationConflict}
   * when one of them overlaps (equals, contains or lies inside) a location another table or view
   * claims in the same storage, in any catalog, or a remote table of a federated catalog ({@link
   * #claimRemoteLocations}). Of two concurrent creates of overlapping locations, on one replica or
   * several, exactly one succeeds.
   */
  void createContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      String metadataLocation,
      List<LocationClaim> claims);

  /**
   * Moves each pointer from its expected to its new location, all or none, in one transaction.
   * {@link Conflict} when any pointer moved meanwhile or is gone; {@link LocationConflict} when a
   * swap's new claims overlap another table's or view's.
   */
  void swapMetadata(String catalog, List<MetadataSwap> swaps);

  /**
   * A location among {@code claims} that another table or view than {@code name} (or a remote
   * table, or a namespace outside its ancestry) claims an overlapping location of, or empty: a
   * check before any file is written or any credential is vended. Not a reservation; {@link
   * #createContent} and {@link #swapMetadata} decide.
   */
  java.util.Optional<LocationConflict> findLocationConflict(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims);

  /** The location keys a table or view claims (empty for one created before claims existed). */
  List<String> claimedLocations(String catalog, NamespacePath ns, String name);

  /**
   * One page of the contents of {@code kind} in {@code catalog} that claim a location under one of
   * {@code prefixKeys} (location keys such as a bucket's root keys), in identifier order (namespace
   * key, then name), each with its claimed location keys under those prefixes. Keyed by (namespace
   * key, name): the token is the page's last identifier, and a page costs the same at any depth. No
   * prefixes, no contents.
   */
  Page<ClaimedContent> contentsClaimingUnder(
      String catalog, ContentKind kind, List<String> prefixKeys, PageRequest page);

  /**
   * Claims the locations of a table of a federated catalog, replacing what it claimed before;
   * atomic under the same storage-root locks as content claims. Empty when claimed; the conflict
   * (and nothing written) when any other claim overlaps: a table's or view's of any catalog,
   * another remote table's, or a namespace claim (a remote table has no Sluice namespace, so every
   * covering namespace claim is foreign). Claiming the same locations again is a cheap no-op (one
   * read, no write). {@link NotFound} when the catalog does not exist.
   */
  Optional<LocationConflict> claimRemoteLocations(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims);

  /** Forgets a remote table's claims (dropped or renamed through Sluice, or seen gone). */
  void releaseRemoteLocations(String catalog, NamespacePath ns, String name);

  /**
   * The remote table holding a claim at exactly {@code locationKey} (as {@link
   * LocationConflict#claimed()} names it), if one does: to re-check a stale one.
   */
  Optional<RemoteClaimHolder> remoteClaimHolder(String locationKey);

  /** A location claimed in {@code catalog} that lies under none of {@code rootKeys}, if any. */
  java.util.Optional<String> claimOutside(String catalog, List<String> rootKeys);

  /**
   * Drops a table or view, its location claims, the grants and read restrictions on it, so a later
   * one of the same name starts with none.
   */
  boolean dropContent(String catalog, NamespacePath ns, String name, ContentKind kind);

  /**
   * Drops a table or view as {@link #dropContent} does, but only while its pointer is still {@code
   * metadataLocation}: undoes a create without touching one committed to or re-created meanwhile.
   */
  boolean dropContentIfAt(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation);

  /** Renames a table or view; its grants, read restrictions and location claims follow it. */
  void renameContent(
      String catalog,
      ContentKind kind,
      NamespacePath fromNs,
      String fromName,
      NamespacePath toNs,
      String toName);

  // --- principals, roles, grants, audit ---
  AccessStore access();

  // --- PRINCIPAL_ACT_AS grants ---
  DelegationStore delegations();

  // --- read restrictions on tables, per principal role ---
  ReadRestrictionStore readRestrictions();

  // --- storage identities of namespaces ---
  NamespaceIdentityStore namespaceIdentities();

  // --- Idempotency-Key answers ---
  IdempotencyKeys idempotencyKeys();

  /**
   * This store for one request under an {@code Idempotency-Key}: each of its mutations ({@code
   * createNamespace}, {@code dropNamespace}, {@code updateNamespaceProperties}, {@code
   * createContent}, {@code swapMetadata}, {@code dropContent}, {@code renameContent}) records
   * {@code idempotency} in the mutation's own transaction, first, and fails with {@link
   * IdempotencyKeyTaken} when another request holds the key. Everything else as this store; closing
   * the view closes nothing.
   */
  Store claiming(IdempotencyClaim idempotency);

  // --- token signing keys ---
  /** Adds a key unless one with that id exists; returns all keys, newest first. */
  List<SigningKey> ensureSigningKey(SigningKey candidate);

  List<SigningKey> signingKeys();

  /** Removes key {@code kid}; false when there is none. */
  boolean deleteSigningKey(String kid);

  /** Readiness: whether the store answers and can write now (a second-old answer at most). */
  boolean ping();

  @Override
  void close();
}
