package dev.sluice.store;

import java.util.List;

/**
 * Read restrictions on tables ({@code table_read_restrictions}), per (catalog, table, principal
 * role). A restriction lives with its table: a rename moves it, a drop drops it (so a table created
 * again under the name starts without one); deleting the principal role deletes it.
 */
public interface ReadRestrictionStore {
  /** The restrictions on one table, in principal role order; empty when none. */
  List<StoredReadRestriction> forTable(String catalog, NamespacePath namespace, String table);

  /**
   * Inserts or replaces the restriction of (catalog, table, role); {@link NotFound} when the table
   * or the principal role does not exist.
   */
  void put(StoredReadRestriction restriction);

  /** Removes the restriction of (catalog, table, role); false when there was none. */
  boolean remove(String catalog, NamespacePath namespace, String table, String principalRole);
}
