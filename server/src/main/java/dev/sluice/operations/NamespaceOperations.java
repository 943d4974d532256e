package dev.sluice.operations;

import static dev.sluice.operations.Securables.namespace;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.SecurableRef;
import java.util.Arrays;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * The namespace requests: create, load, exists, drop and properties, each authorized before it acts
 * (a create on its parent, or on the catalog for a top-level namespace); a drop ends the
 * authorization cache, since the grants on the namespace are gone.
 */
public final class NamespaceOperations {
  private final Authorizer authz;
  private final CatalogAccess access;

  public NamespaceOperations(Authorizer authz, CatalogAccess access) {
    this.authz = requireNonNull(authz, "authz");
    this.access = requireNonNull(access, "access");
  }

  public CreateNamespaceResponse create(
      Caller caller, SluiceCatalog catalog, CreateNamespaceRequest request) {
    request.validate();
    IdentifierRules.checkNamespace(request.namespace());
    Namespace ns = request.namespace();
    SecurableRef parent = ns.length() == 1 ? SecurableRef.CATALOG : namespace(parentOf(ns));
    authz.require(caller, "createNamespace", catalog.name(), parent, Privilege.NAMESPACE_CREATE);
    return CatalogHandlers.createNamespace(catalog, request);
  }

  /**
   * {@code GET}: the namespace with its properties to a caller holding NAMESPACE_READ_PROPERTIES;
   * without them to one whose grants only reach inside it (Flink checks a database this way).
   */
  public GetNamespaceResponse load(NamespaceCall call) {
    boolean properties =
        access.requireNamespaceLoad(
            call.caller(), "loadNamespace", call.catalog(), call.namespace());
    GetNamespaceResponse loaded = CatalogHandlers.loadNamespace(call.catalog(), call.namespace());
    return properties
        ? loaded
        : GetNamespaceResponse.builder().withNamespace(loaded.namespace()).build();
  }

  /** {@code HEAD}: 404 for a missing namespace only to a caller who may know it is missing. */
  public void exists(NamespaceCall call) {
    access.requireExistenceCheck(
        call.caller(), "namespaceExists", call.catalog(), call.namespace());
    CatalogHandlers.namespaceExists(call.catalog(), call.namespace());
  }

  public void drop(NamespaceCall call) {
    require(call, "dropNamespace", Privilege.NAMESPACE_DROP);
    CatalogHandlers.dropNamespace(call.catalog(), call.namespace());
    authz.invalidate(); // the grants on it are gone
  }

  /** Authorized first; only then is {@code request} (the body) read and validated. */
  public UpdateNamespacePropertiesResponse updateProperties(
      NamespaceCall call, Supplier<UpdateNamespacePropertiesRequest> request) {
    require(call, "updateNamespaceProperties", Privilege.NAMESPACE_WRITE_PROPERTIES);
    UpdateNamespacePropertiesRequest update = request.get();
    update.validate();
    return CatalogHandlers.updateNamespaceProperties(call.catalog(), call.namespace(), update);
  }

  private void require(NamespaceCall call, String action, Privilege privilege) {
    access.requireOnNamespace(call.caller(), action, call.catalog(), call.namespace(), privilege);
  }

  private static Namespace parentOf(Namespace ns) {
    return Namespace.of(Arrays.copyOf(ns.levels(), ns.length() - 1));
  }
}
