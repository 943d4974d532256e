package dev.sluice.operations;

import static dev.sluice.operations.Securables.namespace;
import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.SecurableRef;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The Iceberg lists (namespaces, tables, views), filtered by what the caller may see: with the LIST
 * privilege where it lists, every name; without it, only the names it holds some privilege on; with
 * neither, 403. A filtered page may hold fewer names than asked for while its token still leads on,
 * as Iceberg's own filtered listings do. The page is read once the caller is authorized, so a
 * caller with no standing gets 403 whatever its page token.
 */
public final class CatalogListings {
  private final Authorizer authz;

  public CatalogListings(Authorizer authz) {
    this.authz = requireNonNull(authz, "authz");
  }

  /** The namespaces under {@code parent} (the catalog's top level when empty). */
  public Page<Namespace> namespaces(
      Caller caller, SluiceCatalog catalog, Namespace parent, Supplier<PageRequest> page) {
    SecurableRef where = parent.isEmpty() ? SecurableRef.CATALOG : namespace(parent);
    boolean listAll = mayList(caller, catalog, where, Privilege.NAMESPACE_LIST, "listNamespaces");
    PageRequest request = page.get();
    return listAll
        ? catalog.listNamespaces(parent, request)
        : Page.visible(
            request,
            r -> catalog.listNamespaces(parent, r),
            n -> authz.seesAnythingAt(caller, catalog.name(), namespace(n)),
            n -> PageRequest.tokenFor(new NamespacePath(List.of(n.levels())).key()));
  }

  public Page<TableIdentifier> tables(
      Caller caller, SluiceCatalog catalog, Namespace namespace, Supplier<PageRequest> page) {
    return contents(
        caller,
        catalog,
        namespace,
        page,
        Privilege.TABLE_LIST,
        "listTables",
        r -> catalog.listTables(namespace, r),
        Securables::tableRef);
  }

  public Page<TableIdentifier> views(
      Caller caller, SluiceCatalog catalog, Namespace namespace, Supplier<PageRequest> page) {
    return contents(
        caller,
        catalog,
        namespace,
        page,
        Privilege.VIEW_LIST,
        "listViews",
        r -> catalog.listViews(namespace, r),
        Securables::viewRef);
  }

  private Page<TableIdentifier> contents(
      Caller caller,
      SluiceCatalog catalog,
      Namespace namespace,
      Supplier<PageRequest> page,
      Privilege list,
      String action,
      Function<PageRequest, Page<TableIdentifier>> fetch,
      Function<TableIdentifier, SecurableRef> securable) {
    boolean listAll = mayList(caller, catalog, namespace(namespace), list, action);
    PageRequest request = page.get();
    return listAll
        ? fetch.apply(request)
        : Page.visible(
            request,
            fetch,
            id -> !authz.effective(caller, catalog.name(), securable.apply(id)).isEmpty(),
            id -> PageRequest.tokenFor(id.name()));
  }

  /**
   * True when the caller holds {@code list} at {@code where} and sees every name; false when it
   * sees only what it holds a privilege on; 403 when it holds nothing there.
   */
  private boolean mayList(
      Caller caller, SluiceCatalog catalog, SecurableRef where, Privilege list, String action) {
    boolean listAll = authz.effective(caller, catalog.name(), where).contains(list);
    if (!listAll && !authz.seesAnythingAt(caller, catalog.name(), where)) {
      authz.require(caller, action, catalog.name(), where, list);
    }
    authz.record(caller, action, catalog.name(), where.toString(), true);
    return listAll;
  }
}
