package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.operations.CatalogListings;
import dev.sluice.store.Page;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * The Iceberg list routes (namespaces, tables, views): they read the parent and the page, and write
 * the names {@link CatalogListings} lets the caller see, with the sealed token of the next page.
 */
final class IcebergListings {
  private final IcebergRequests requests;
  private final CatalogListings listings;
  private final Paging paging;

  IcebergListings(IcebergRequests requests, CatalogListings listings, Paging paging) {
    this.requests = requireNonNull(requests, "requests");
    this.listings = requireNonNull(listings, "listings");
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
    Page<Namespace> page = listings.namespaces(caller, catalog, parent, () -> paging.request(x));
    String token = paging.nextToken(x, page);
    ListNamespacesResponse.Builder builder = ListNamespacesResponse.builder().addAll(page.items());
    return Reply.ok((token == null ? builder : builder.nextPageToken(token)).build());
  }

  /** {@code GET …/namespaces/{namespace}/tables}. */
  Reply tables(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Page<TableIdentifier> page =
        listings.tables(
            requests.caller(x), catalog, x.namespace("namespace"), () -> paging.request(x));
    return Reply.ok(response(x, page));
  }

  /** {@code GET …/namespaces/{namespace}/views}. */
  Reply views(Exchange x) {
    SluiceCatalog catalog = requests.catalog(x);
    Page<TableIdentifier> page =
        listings.views(
            requests.caller(x), catalog, x.namespace("namespace"), () -> paging.request(x));
    return Reply.ok(response(x, page));
  }

  private ListTablesResponse response(Exchange x, Page<TableIdentifier> page) {
    String token = paging.nextToken(x, page);
    ListTablesResponse.Builder builder = ListTablesResponse.builder().addAll(page.items());
    return (token == null ? builder : builder.nextPageToken(token)).build();
  }
}
