package dev.sluice.store;

import java.util.Set;

/**
 * Filters for reading audit events; null fields do not filter. Times are epoch millis, inclusive.
 * {@code actor} keeps the events of calls an engine principal made for others (a delegated token's
 * actor).
 */
public record AuditFilter(
    String principal,
    String catalog,
    String securable,
    Boolean allowed,
    Long from,
    Long to,
    Set<String> catalogsVisible,
    String actor) {
  public static final AuditFilter ALL =
      new AuditFilter(null, null, null, null, null, null, null, null);

  /** Without an actor filter. */
  public AuditFilter(
      String principal,
      String catalog,
      String securable,
      Boolean allowed,
      Long from,
      Long to,
      Set<String> catalogsVisible) {
    this(principal, catalog, securable, allowed, from, to, catalogsVisible, null);
  }
}
