package dev.sluice.store;

/**
 * Filters for reading audit events; null fields do not filter. Times are epoch millis, inclusive.
 */
public record AuditFilter(
    String principal,
    String catalog,
    String securable,
    Boolean allowed,
    Long from,
    Long to,
    java.util.Set<String> catalogsVisible) {
  public static final AuditFilter ALL = new AuditFilter(null, null, null, null, null, null, null);
}
