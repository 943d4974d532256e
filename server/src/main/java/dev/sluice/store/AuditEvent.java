package dev.sluice.store;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** One authorization decision. Carries names and decisions only, never a secret. */
public record AuditEvent(
    long id,
    long time,
    String principal,
    List<String> roles,
    String action,
    String catalog,
    String securable,
    boolean allowed,
    String requestId) {
  public AuditEvent {
    requireNonNull(principal, "principal");
    roles = List.copyOf(roles);
    requireNonNull(action, "action");
    requireNonNull(securable, "securable");
    requireNonNull(requestId, "requestId");
  }
}
