package dev.sluice.http;

import static dev.sluice.operations.Securables.namespace;
import static dev.sluice.operations.Securables.tableRef;
import static dev.sluice.operations.Securables.viewRef;
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
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * The Iceberg list routes (namespaces, tables, views), filtered by what the caller may see: with
 * the LIST privilege where it lists, every name; without it, only the names it holds some privilege
 * on; with neither, 403.
 */
final class IcebergListings {
  private final IcebergRequests requests;
  private final Authorizer authz;
  private final Paging paging;

  IcebergListings(IcebergRequests requests, Authorizer authz, Paging paging) {
    this.requests = requireNonNull(requests, "requests");
    this.authz = requireNonNull(authz, "authz");
    this.paging = requireNonNull(paging, "paging");
  }

  /** {@code GET …/namespaces}, under {@code parent} if given. */
  Reply namespaces(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Caller caller = requests.caller(x);
    String parentParam = x.query("parent");
    Namespace parent =
        parentParam == null || parentParam.isEmpty()
            ? Namespace.empty()
            : Namespace.of(parentParam.split("\u001f", -1));
    SecurableRef where = parent.isEmpty() ? SecurableRef.CATALOG : namespace(parent);
    boolean listAll =
        authz.effective(caller, catalog.name(), where).contains(Privilege.NAMESPACE_LIST);
    if (!listAll && !authz.seesAnythingAt(caller, catalog.name(), where)) {
      authz.require(caller, "listNamespaces", catalog.name(), where, Privilege.NAMESPACE_LIST);
    }
    authz.record(caller, "listNamespaces", catalog.name(), where.toString(), true);
    PageRequest request = paging.request(x);
    Page<Namespace> page =
        listAll
            ? catalog.listNamespaces(parent, request)
            : Page.visible(
                request,
                r -> catalog.listNamespaces(parent, r),
                n -> authz.seesAnythingAt(caller, catalog.name(), namespace(n)),
                n -> PageRequest.tokenFor(new NamespacePath(List.of(n.levels())).key()));
    return Reply.ok(
        withToken(ListNamespacesResponse.builder().addAll(page.items()), paging.nextToken(x, page))
            .build());
  }

  /** {@code GET …/namespaces/{namespace}/tables}. */
  Reply tables(Exchange x) {
    return Reply.ok(listContents(x, Privilege.TABLE_LIST, "listTables", false));
  }

  /** {@code GET …/namespaces/{namespace}/views}. */
  Reply views(Exchange x) {
    return Reply.ok(listContents(x, Privilege.VIEW_LIST, "listViews", true));
  }

  /**
   * Lists tables or views. With the LIST privilege on the namespace the caller sees every name;
   * without it, only those it holds some privilege on; with neither, 403.
   */
  private ListTablesResponse listContents(
      Exchange x, Privilege list, String action, boolean views) {
    SluiceCatalog catalog = requests.catalog(x);
    Caller caller = requests.caller(x);
    Namespace namespace = x.namespace("namespace");
    SecurableRef where = namespace(namespace);
    boolean listAll = authz.effective(caller, catalog.name(), where).contains(list);
    if (!listAll && !authz.seesAnythingAt(caller, catalog.name(), where)) {
      authz.require(caller, action, catalog.name(), where, list);
    }
    authz.record(caller, action, catalog.name(), where.toString(), true);
    PageRequest request = paging.request(x);
    java.util.function.Function<PageRequest, Page<TableIdentifier>> fetch =
        r -> views ? catalog.listViews(namespace, r) : catalog.listTables(namespace, r);
    Page<TableIdentifier> page =
        listAll
            ? fetch.apply(request)
            : Page.visible(
                request,
                fetch,
                id ->
                    !authz
                        .effective(caller, catalog.name(), views ? viewRef(id) : tableRef(id))
                        .isEmpty(),
                id -> PageRequest.tokenFor(id.name()));
    String token = paging.nextToken(x, page);
    ListTablesResponse.Builder builder = ListTablesResponse.builder().addAll(page.items());
    return (token == null ? builder : builder.nextPageToken(token)).build();
  }

  private static ListNamespacesResponse.Builder withToken(
      ListNamespacesResponse.Builder builder, String token) {
    return token == null ? builder : builder.nextPageToken(token);
  }
}
