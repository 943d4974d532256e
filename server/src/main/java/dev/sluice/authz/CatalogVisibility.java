package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.SecurableRef;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Who may learn whether a catalog exists. A caller with no standing in a catalog (not the service
 * admin, no grant reaching into it, no catalog role of it among its active principal roles) gets
 * one answer, 403 with one message, whether or not the catalog exists: telling 403 from 404 would
 * let anyone enumerate catalog names. Everyone else gets precise answers.
 */
public final class CatalogVisibility {
  /** Said for a catalog that exists and for one that does not, alike. */
  static final String REFUSED =
      "Principal '%s' is not authorized for catalog '%s' or it does not exist";

  private final Authorizer authz;

  public CatalogVisibility(Authorizer authz) {
    this.authz = requireNonNull(authz, "authz");
  }

  /** True when the caller may be told whether {@code catalog} exists. */
  public boolean mayKnow(Caller caller, String catalog) {
    // Cheapest first: the grants are cached; the catalog-role lookup is only for a caller
    // holding a role of the catalog without any grant (it sees the catalog in its list anyway).
    return caller.isServiceAdmin()
        || authz.seesAnythingAt(caller, catalog, SecurableRef.CATALOG)
        || authz.catalogsOf(caller).contains(catalog)
        || authz.actsForSomeoneIn(caller, catalog);
  }

  /**
   * Refuses (403, and a DENY in the audit trail) a caller who may not know; existence plays no
   * part.
   */
  public void require(Caller caller, String action, String catalog) {
    if (!mayKnow(caller, catalog)) {
      authz.record(caller, action, catalog, "catalog", false);
      throw new ForbiddenException(REFUSED, caller.principal(), catalog);
    }
  }
}
