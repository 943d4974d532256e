package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.AuthenticatedPrincipal;
import java.util.List;

/**
 * The caller of one request as authorization sees it: the principal and the principal roles active
 * for this request (those it holds now, narrowed by the token's scope). {@code identity} tells
 * principals apart that share a name ({@link dev.sluice.auth.AuthenticatedPrincipal#identity});
 * null for a caller no token stands for.
 */
public record Caller(
    String principal, List<String> activeRoles, String requestId, String identity) {
  public static final String SERVICE_ADMIN = AuthenticatedPrincipal.SERVICE_ADMIN_ROLE;

  public Caller {
    requireNonNull(principal, "principal");
    activeRoles = List.copyOf(activeRoles);
    requireNonNull(requestId, "requestId");
  }

  /** A caller no token stands for (tests, the server's own work). */
  public Caller(String principal, List<String> activeRoles, String requestId) {
    this(principal, activeRoles, requestId, null);
  }

  public boolean isServiceAdmin() {
    return activeRoles.contains(SERVICE_ADMIN);
  }
}
