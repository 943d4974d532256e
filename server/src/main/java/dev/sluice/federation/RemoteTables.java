package dev.sluice.federation;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirements;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.rest.ErrorHandlers;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The calls to a remote that must carry exactly what Sluice decided: a table's load, create and
 * commits (the requirements and updates Iceberg's own {@link UpdateRequirements} derive, as its
 * {@code RESTTableOperations} sends them), and listings read page by page up to a bound. Every
 * failure is translated by {@link RemoteErrors}.
 */
final class RemoteTables {
  private final RemoteConnection remote;
  private final int maxListed;

  RemoteTables(RemoteConnection remote, int maxListed) {
    this.remote = requireNonNull(remote, "remote");
    this.maxListed = maxListed;
  }

  /** The table's current answer at the remote; {@link NoSuchTableException} when it has none. */
  LoadTableResponse load(TableIdentifier table) {
    return RemoteErrors.call(
        remote.remote(),
        () ->
            remote
                .client()
                .get(
                    remote.paths().table(table),
                    Map.of(),
                    LoadTableResponse.class,
                    remote.tableHeaders(),
                    ErrorHandlers.tableErrorHandler()));
  }

  /** Creates a table at the remote, as asked (its location already decided and checked). */
  LoadTableResponse create(Namespace namespace, CreateTableRequest request) {
    return RemoteErrors.call(
        remote.remote(),
        () ->
            remote
                .client()
                .post(
                    remote.paths().tables(namespace),
                    request,
                    LoadTableResponse.class,
                    remote.tableHeaders(),
                    ErrorHandlers.createTableErrorHandler()));
  }

  /** A commit from {@code base} to {@code metadata}: its changes, asserted against {@code base}. */
  LoadTableResponse commit(TableIdentifier table, TableMetadata base, TableMetadata metadata) {
    UpdateTableRequest request =
        new UpdateTableRequest(
            UpdateRequirements.forUpdateTable(base, metadata.changes()), metadata.changes());
    return post(table, request, ErrorHandlers.tableCommitHandler());
  }

  /** The commit of a staged create: the table must not exist yet; its changes create it. */
  LoadTableResponse commitCreate(TableIdentifier table, TableMetadata metadata) {
    UpdateTableRequest request =
        new UpdateTableRequest(
            UpdateRequirements.forCreateTable(metadata.changes()), metadata.changes());
    return post(table, request, ErrorHandlers.createTableErrorHandler());
  }

  private LoadTableResponse post(
      TableIdentifier table,
      UpdateTableRequest request,
      java.util.function.Consumer<org.apache.iceberg.rest.responses.ErrorResponse> errors) {
    return RemoteErrors.call(
        remote.remote(),
        () ->
            remote
                .client()
                .post(
                    remote.paths().table(table),
                    request,
                    LoadTableResponse.class,
                    remote.tableHeaders(),
                    errors));
  }

  /** Every namespace under {@code parent} (the top level when empty), sorted by key. */
  List<Namespace> namespaces(Namespace parent) {
    Map<String, String> query = new HashMap<>();
    if (!parent.isEmpty()) {
      query.put("parent", RESTUtil.namespaceToQueryParam(parent, remote.separator()));
    }
    return all(
        "namespaces under " + (parent.isEmpty() ? "the top level" : parent),
        token ->
            remote
                .client()
                .get(
                    remote.paths().namespaces(),
                    withPage(query, token),
                    ListNamespacesResponse.class,
                    Map.of(),
                    ErrorHandlers.namespaceErrorHandler()),
        ListNamespacesResponse::namespaces,
        ListNamespacesResponse::nextPageToken);
  }

  List<TableIdentifier> tables(Namespace namespace) {
    return contents(namespace, remote.paths().tables(namespace), "tables");
  }

  List<TableIdentifier> views(Namespace namespace) {
    return contents(namespace, remote.paths().views(namespace), "views");
  }

  private List<TableIdentifier> contents(Namespace namespace, String path, String what) {
    return all(
        what + " in " + namespace,
        token ->
            remote
                .client()
                .get(
                    path,
                    withPage(Map.of(), token),
                    ListTablesResponse.class,
                    Map.of(),
                    ErrorHandlers.namespaceErrorHandler()),
        ListTablesResponse::identifiers,
        ListTablesResponse::nextPageToken);
  }

  private static Map<String, String> withPage(Map<String, String> query, String token) {
    Map<String, String> out = new HashMap<>(query);
    out.put("pageToken", token == null ? "" : token);
    out.put("pageSize", "1000");
    return out;
  }

  /**
   * Every page of a listing, held in memory up to {@code maxListed} names: a remote listing longer
   * than that is refused (503), since pages here are sorted and filtered by what the caller may
   * see.
   */
  private <R, T> List<T> all(
      String what,
      Function<String, R> fetch,
      Function<R, List<T>> items,
      Function<R, String> next) {
    return RemoteErrors.call(
        remote.remote(),
        () -> {
          List<T> out = new ArrayList<>();
          String token = null;
          do {
            R page = fetch.apply(token);
            out.addAll(items.apply(page));
            if (out.size() > maxListed) {
              throw new ListingTooLong(
                  String.format(
                      "%s lists more than %d %s (federation.maxListedNames)",
                      remote.remote(), maxListed, what));
            }
            String following = next.apply(page);
            token = following == null || following.isEmpty() ? null : following;
          } while (token != null);
          return out;
        });
  }

  /** A remote listing beyond the bound: unavailable through Sluice until the bound is raised. */
  static final class ListingTooLong extends ServiceUnavailableException {
    ListingTooLong(String message) {
      super("%s", message);
    }
  }
}
