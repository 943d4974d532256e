package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/**
 * The table of a federated catalog that holds a remote location claim ({@link
 * Store#claimRemoteLocations}): its catalog, remote namespace and name.
 */
public record RemoteClaimHolder(String catalog, NamespacePath ns, String name) {
  public RemoteClaimHolder {
    requireNonNull(catalog, "catalog");
    requireNonNull(ns, "ns");
    requireNonNull(name, "name");
  }
}
