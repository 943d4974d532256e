package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import dev.sluice.audit.RequestAudit;
import dev.sluice.auth.AuthenticatedPrincipal;
import java.util.List;

/**
 * The caller of one request as authorization sees it: the principal and the principal roles active
 * for this request (those it holds now, narrowed by the token's scope). {@code identity} tells
 * principals apart that share a name ({@link dev.sluice.auth.AuthenticatedPrincipal#identity});
 * null for a caller no token stands for. {@code trail}, when not null, is the HTTP request's audit
 * trail: the decisions made for this caller are stored with the request's outcome ({@link
 * RequestAudit}); without one they are recorded at once. {@code actor} is the engine principal
 * acting for {@code principal} with a delegated token (null otherwise): decisions are the
 * principal's, and every event names both.
 */
public record Caller(
    String principal,
    List<String> activeRoles,
    String requestId,
    String identity,
    RequestAudit trail,
    String actor) {
  public static final String SERVICE_ADMIN = AuthenticatedPrincipal.SERVICE_ADMIN_ROLE;

  public Caller {
    requireNonNull(principal, "principal");
    activeRoles = List.copyOf(activeRoles);
    requireNonNull(requestId, "requestId");
  }

  public Caller(
      String principal,
      List<String> activeRoles,
      String requestId,
      String identity,
      RequestAudit trail) {
    this(principal, activeRoles, requestId, identity, trail, null);
  }

  /** A caller no token stands for (tests, the server's own work). */
  public Caller(String principal, List<String> activeRoles, String requestId) {
    this(principal, activeRoles, requestId, null, null, null);
  }

  public boolean isServiceAdmin() {
    return activeRoles.contains(SERVICE_ADMIN);
  }
}
