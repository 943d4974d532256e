package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.catalog.SluiceCatalog;
import dev.sluice.operations.CatalogAccess;
import dev.sluice.operations.NamespaceCall;
import dev.sluice.operations.TableCall;
import dev.sluice.store.IdempotencyClaim;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What an Iceberg request names (its caller, catalog, table or view), read from the exchange, and
 * the checks every route makes before it, made by {@link CatalogAccess}: shared by the routes so
 * that each resolves a catalog and refuses a caller the same way.
 */
final class IcebergRequests {
  private final Authorizer authz;
  private final CatalogAccess access;

  IcebergRequests(Authorizer authz, CatalogAccess access) {
    this.authz = requireNonNull(authz, "authz");
    this.access = requireNonNull(access, "access");
  }

  Caller caller(Exchange x) {
    return x.caller(authz);
  }

  /**
   * The prefix's catalog, resolved for the caller ({@link CatalogAccess#catalog}); under an {@code
   * Idempotency-Key}, the view of it whose changes record the request's claim.
   */
  SluiceCatalog catalog(Exchange x) {
    SluiceCatalog catalog = access.catalog(caller(x), x.path("prefix"));
    Optional<IdempotencyClaim> claim = x.idempotencyClaim(); // empty: no allocation on a load
    return claim.isPresent() ? catalog.claiming(claim.get()) : catalog;
  }

  /** The caller, the prefix's catalog ({@link #catalog}) and the path's table. */
  TableCall tableCall(Exchange x) {
    return new TableCall(caller(x), catalog(x), table(x));
  }

  /** The caller, the prefix's catalog ({@link #catalog}) and the path's namespace. */
  NamespaceCall namespaceCall(Exchange x) {
    return new NamespaceCall(caller(x), catalog(x), x.namespace("namespace"));
  }

  /** The caller, the prefix's catalog ({@link #catalog}) and the path's view. */
  TableCall viewCall(Exchange x) {
    return new TableCall(caller(x), catalog(x), view(x));
  }

  static TableIdentifier table(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("table"));
  }

  static TableIdentifier view(Exchange x) {
    return TableIdentifier.of(x.namespace("namespace"), x.path("view"));
  }
}
