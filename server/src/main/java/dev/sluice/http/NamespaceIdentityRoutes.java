package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.NamespaceStorageIdentity;
import dev.sluice.api.SetStorageIdentityRequest;
import dev.sluice.management.NamespaceIdentityAdmin;
import dev.sluice.store.NamespacePath;
import java.util.List;

/**
 * {@code GET|PUT|DELETE /catalogs/{catalog}/namespaces/{namespace}/storage-identity}: a namespace's
 * storage identity (the namespace in the path as in Iceberg's REST API, levels separated by {@code
 * %1F}). {@link ManagementRoutes} declares them, each the service admin's.
 */
public final class NamespaceIdentityRoutes {
  static final String PATH =
      ManagementRoutes.BASE + "/catalogs/{catalog}/namespaces/{namespace}/storage-identity";

  private final NamespaceIdentityAdmin identities;

  public NamespaceIdentityRoutes(NamespaceIdentityAdmin identities) {
    this.identities = requireNonNull(identities, "identities");
  }

  Reply get(ManagementRoutes.Call call) {
    String catalog = call.x().path("catalog");
    NamespacePath namespace = namespace(call.x());
    return Reply.okPlain(render(catalog, namespace, identities.get(catalog, namespace)));
  }

  Reply set(ManagementRoutes.Call call) {
    String catalog = call.x().path("catalog");
    NamespacePath namespace = namespace(call.x());
    SetStorageIdentityRequest request = call.body(SetStorageIdentityRequest.class);
    NamespaceIdentityAdmin.Effective set =
        identities.set(call.caller(), catalog, namespace, request.storageIdentity());
    return Reply.okPlain(render(catalog, namespace, set));
  }

  Reply clear(ManagementRoutes.Call call) {
    identities.clear(call.caller(), call.x().path("catalog"), namespace(call.x()));
    return Reply.NO_CONTENT;
  }

  /** The guard's audit target: which namespace of which catalog. */
  static String target(Exchange x) {
    return "catalog " + x.path("catalog") + " namespace " + namespace(x);
  }

  private static NamespacePath namespace(Exchange x) {
    return new NamespacePath(List.of(x.namespace("namespace").levels()));
  }

  private static NamespaceStorageIdentity render(
      String catalog, NamespacePath namespace, NamespaceIdentityAdmin.Effective effective) {
    return new NamespaceStorageIdentity(
        catalog,
        namespace.levels(),
        effective.source(),
        effective.definedOn() == null ? null : effective.definedOn().levels(),
        effective.identity());
  }
}
