package dev.sluice.store;

import static java.util.Objects.requireNonNull;

/** A privilege on a securable, granted to a catalog role of a catalog. */
public record GrantRecord(
    String catalog, String catalogRole, SecurableRef securable, String privilege) {
  public GrantRecord {
    requireNonNull(catalog, "catalog");
    requireNonNull(catalogRole, "catalogRole");
    requireNonNull(securable, "securable");
    requireNonNull(privilege, "privilege");
  }
}
