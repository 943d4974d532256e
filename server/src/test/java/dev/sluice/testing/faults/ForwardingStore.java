package dev.sluice.testing.faults;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AccessStore;
import dev.sluice.store.CatalogRecord;
import dev.sluice.store.ClaimedContent;
import dev.sluice.store.ContentKind;
import dev.sluice.store.ContentRecord;
import dev.sluice.store.DelegationStore;
import dev.sluice.store.IdempotencyClaim;
import dev.sluice.store.IdempotencyKeys;
import dev.sluice.store.LocationClaim;
import dev.sluice.store.LocationConflict;
import dev.sluice.store.MetadataSwap;
import dev.sluice.store.NamespaceIdentityStore;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.ReadRestrictionStore;
import dev.sluice.store.RemoteClaimHolder;
import dev.sluice.store.SigningKey;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A {@link Store} that does what its delegate does: a fault overrides what it breaks. */
abstract class ForwardingStore implements Store {
  protected final Store delegate;

  ForwardingStore(Store delegate) {
    this.delegate = requireNonNull(delegate, "delegate");
  }

  /** A request's view keeps the fault: each fault wraps the delegate's view the same way. */
  @Override
  public abstract Store claiming(IdempotencyClaim idempotency);

  @Override
  public DelegationStore delegations() {
    return delegate.delegations();
  }

  @Override
  public ReadRestrictionStore readRestrictions() {
    return delegate.readRestrictions();
  }

  @Override
  public NamespaceIdentityStore namespaceIdentities() {
    return delegate.namespaceIdentities();
  }

  @Override
  public void createCatalog(CatalogRecord catalog, String adminPrincipalRole) {
    delegate.createCatalog(catalog, adminPrincipalRole);
  }

  @Override
  public Optional<CatalogRecord> getCatalog(String name) {
    return delegate.getCatalog(name);
  }

  @Override
  public Page<CatalogRecord> listCatalogs(PageRequest page) {
    return delegate.listCatalogs(page);
  }

  @Override
  public CatalogRecord updateCatalog(CatalogRecord updated, long expectedVersion) {
    return delegate.updateCatalog(updated, expectedVersion);
  }

  @Override
  public void deleteCatalog(String name) {
    delegate.deleteCatalog(name);
  }

  @Override
  public void createNamespace(
      String catalog, NamespacePath path, Map<String, String> properties, LocationClaim claim) {
    delegate.createNamespace(catalog, path, properties, claim);
  }

  @Override
  public Optional<Map<String, String>> loadNamespace(String catalog, NamespacePath path) {
    return delegate.loadNamespace(catalog, path);
  }

  @Override
  public Page<NamespacePath> listNamespaces(
      String catalog, NamespacePath parent, PageRequest page) {
    return delegate.listNamespaces(catalog, parent, page);
  }

  @Override
  public boolean dropNamespace(String catalog, NamespacePath path) {
    return delegate.dropNamespace(catalog, path);
  }

  @Override
  public Map<String, String> updateNamespaceProperties(
      String catalog,
      NamespacePath path,
      Set<String> removals,
      Map<String, String> updates,
      LocationClaim newClaim) {
    return delegate.updateNamespaceProperties(catalog, path, removals, updates, newClaim);
  }

  @Override
  public Optional<ContentRecord> getContent(String catalog, NamespacePath ns, String name) {
    return delegate.getContent(catalog, ns, name);
  }

  @Override
  public Page<String> listContents(
      String catalog, NamespacePath ns, ContentKind kind, PageRequest page) {
    return delegate.listContents(catalog, ns, kind, page);
  }

  @Override
  public void createContent(
      String catalog,
      NamespacePath ns,
      String name,
      ContentKind kind,
      String metadataLocation,
      List<LocationClaim> claims) {
    delegate.createContent(catalog, ns, name, kind, metadataLocation, claims);
  }

  @Override
  public void swapMetadata(String catalog, List<MetadataSwap> swaps) {
    delegate.swapMetadata(catalog, swaps);
  }

  @Override
  public Optional<LocationConflict> findLocationConflict(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims) {
    return delegate.findLocationConflict(catalog, ns, name, claims);
  }

  @Override
  public Optional<LocationConflict> claimRemoteLocations(
      String catalog, NamespacePath ns, String name, List<LocationClaim> claims) {
    return delegate.claimRemoteLocations(catalog, ns, name, claims);
  }

  @Override
  public void releaseRemoteLocations(String catalog, NamespacePath ns, String name) {
    delegate.releaseRemoteLocations(catalog, ns, name);
  }

  @Override
  public Optional<RemoteClaimHolder> remoteClaimHolder(String locationKey) {
    return delegate.remoteClaimHolder(locationKey);
  }

  @Override
  public List<String> claimedLocations(String catalog, NamespacePath ns, String name) {
    return delegate.claimedLocations(catalog, ns, name);
  }

  @Override
  public Page<ClaimedContent> contentsClaimingUnder(
      String catalog, ContentKind kind, List<String> prefixKeys, PageRequest page) {
    return delegate.contentsClaimingUnder(catalog, kind, prefixKeys, page);
  }

  @Override
  public Optional<String> claimOutside(String catalog, List<String> rootKeys) {
    return delegate.claimOutside(catalog, rootKeys);
  }

  @Override
  public boolean dropContent(String catalog, NamespacePath ns, String name, ContentKind kind) {
    return delegate.dropContent(catalog, ns, name, kind);
  }

  @Override
  public boolean dropContentIfAt(
      String catalog, NamespacePath ns, String name, ContentKind kind, String metadataLocation) {
    return delegate.dropContentIfAt(catalog, ns, name, kind, metadataLocation);
  }

  @Override
  public void renameContent(
      String catalog,
      ContentKind kind,
      NamespacePath fromNs,
      String fromName,
      NamespacePath toNs,
      String toName) {
    delegate.renameContent(catalog, kind, fromNs, fromName, toNs, toName);
  }

  @Override
  public AccessStore access() {
    return delegate.access();
  }

  @Override
  public IdempotencyKeys idempotencyKeys() {
    return delegate.idempotencyKeys();
  }

  @Override
  public List<SigningKey> ensureSigningKey(SigningKey candidate) {
    return delegate.ensureSigningKey(candidate);
  }

  @Override
  public List<SigningKey> signingKeys() {
    return delegate.signingKeys();
  }

  @Override
  public boolean deleteSigningKey(String kid) {
    return delegate.deleteSigningKey(kid);
  }

  @Override
  public boolean ping() {
    return delegate.ping();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
