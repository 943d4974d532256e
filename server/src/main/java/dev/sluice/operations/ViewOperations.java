package dev.sluice.operations;

import static dev.sluice.operations.Securables.namespace;
import static dev.sluice.operations.Securables.viewRef;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.catalog.SluiceCatalog;
import java.util.function.Supplier;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewRepresentation;
import org.apache.iceberg.view.ViewVersion;

/**
 * The view requests: create, register, load, exists, replace, drop and rename, each authorized
 * before it acts ({@code call}'s table is the view); a drop or rename ends the authorization cache.
 * Only SQL representations are taken, as Iceberg's view handlers need: anything else is a 400.
 */
public final class ViewOperations {
  private final Authorizer authz;
  private final CatalogAccess access;

  public ViewOperations(Authorizer authz, CatalogAccess access) {
    this.authz = requireNonNull(authz, "authz");
    this.access = requireNonNull(access, "access");
  }

  public LoadViewResponse create(
      Caller caller, SluiceCatalog catalog, Namespace namespace, CreateViewRequest request) {
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    requireSqlRepresentations(request.viewVersion());
    authz.require(
        caller, "createView", catalog.name(), namespace(namespace), Privilege.VIEW_CREATE);
    return CatalogHandlers.createView(catalog, namespace, request);
  }

  /**
   * {@code POST …/register-view}: authorized as a create (VIEW_CREATE on the namespace); the
   * metadata file is checked as a registered table's ({@link SluiceCatalog#registerView}).
   */
  public LoadViewResponse register(
      Caller caller, SluiceCatalog catalog, Namespace namespace, RegisterViewRequest request) {
    request.validate();
    IdentifierRules.checkIdentifier(TableIdentifier.of(namespace, request.name()));
    authz.require(
        caller, "registerView", catalog.name(), namespace(namespace), Privilege.VIEW_CREATE);
    return CatalogHandlers.registerView(catalog, namespace, request);
  }

  public LoadViewResponse load(TableCall view) {
    readable(view, "loadView");
    return CatalogHandlers.loadView(view.catalog(), view.table());
  }

  public void exists(TableCall view) {
    readable(view, "viewExists");
    CatalogHandlers.viewExists(view.catalog(), view.table());
  }

  /** Authorized first; only then is {@code request} (the body) read. */
  public LoadViewResponse replace(TableCall view, Supplier<UpdateTableRequest> request) {
    access.requireOnView(
        view.caller(),
        "replaceView",
        view.catalog(),
        view.table(),
        Privilege.VIEW_WRITE_PROPERTIES);
    UpdateTableRequest update = request.get();
    update.updates().stream()
        .filter(MetadataUpdate.AddViewVersion.class::isInstance)
        .forEach(u -> requireSqlRepresentations(((MetadataUpdate.AddViewVersion) u).viewVersion()));
    return CatalogHandlers.updateView(view.catalog(), view.table(), update);
  }

  public void drop(TableCall view) {
    access.requireOnView(
        view.caller(), "dropView", view.catalog(), view.table(), Privilege.VIEW_DROP);
    CatalogHandlers.dropView(view.catalog(), view.table());
    authz.invalidate(); // the grants on it are gone
  }

  public void rename(Caller caller, SluiceCatalog catalog, RenameTableRequest request) {
    request.validate();
    authz.require(
        caller, "renameView", catalog.name(), viewRef(request.source()), Privilege.VIEW_DROP);
    authz.require(
        caller,
        "renameView",
        catalog.name(),
        namespace(request.destination().namespace()),
        Privilege.VIEW_CREATE);
    CatalogHandlers.renameView(catalog, request);
    authz.invalidate(); // its grants moved with it
  }

  private void readable(TableCall view, String action) {
    access.requireReadable(
        view.caller(),
        action,
        view.catalog(),
        viewRef(view.table()),
        view.table(),
        Privilege.VIEW_READ_PROPERTIES);
  }

  private static void requireSqlRepresentations(ViewVersion version) {
    for (ViewRepresentation representation : version.representations()) {
      if (!(representation instanceof SQLViewRepresentation)) {
        throw new BadRequestException(
            "Invalid view version: unsupported representation type '%s' (supported: sql)",
            representation.type());
      }
    }
  }
}
