package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;

/** A federated catalog's namespaces: the remote's, through Iceberg's REST client. */
final class FederatedNamespaces {
  static final String LOCATION = "location";

  private final RemoteConnection remote;

  FederatedNamespaces(RemoteConnection remote) {
    this.remote = requireNonNull(remote, "remote");
  }

  Map<String, String> load(Namespace namespace) {
    return RemoteErrors.call(
        remote.remote(), () -> remote.namespaces().loadNamespaceMetadata(namespace));
  }

  /** The namespace's own {@code location} property at the remote, if it has one. */
  Optional<String> location(Namespace namespace) {
    if (namespace.isEmpty()) {
      return Optional.empty();
    }
    return Optional.ofNullable(load(namespace).get(LOCATION)).filter(l -> !l.isBlank());
  }

  void create(Namespace namespace, Map<String, String> properties) {
    RemoteErrors.run(
        remote.remote(), () -> remote.namespaces().createNamespace(namespace, properties));
  }

  boolean exists(Namespace namespace) {
    return RemoteErrors.call(remote.remote(), () -> remote.namespaces().namespaceExists(namespace));
  }

  boolean drop(Namespace namespace) {
    return RemoteErrors.call(remote.remote(), () -> remote.namespaces().dropNamespace(namespace));
  }

  boolean set(Namespace namespace, Map<String, String> properties) {
    return RemoteErrors.call(
        remote.remote(), () -> remote.namespaces().setProperties(namespace, properties));
  }

  boolean remove(Namespace namespace, java.util.Set<String> properties) {
    return RemoteErrors.call(
        remote.remote(), () -> remote.namespaces().removeProperties(namespace, properties));
  }
}
