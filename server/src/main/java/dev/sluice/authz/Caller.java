package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The caller of one request as authorization sees it: the principal and the principal roles active
 * for this request (those it holds now, narrowed by the token's scope).
 */
public record Caller(String principal, List<String> activeRoles, String requestId) {
  public static final String SERVICE_ADMIN = "service_admin";

  public Caller {
    requireNonNull(principal, "principal");
    activeRoles = List.copyOf(activeRoles);
    requireNonNull(requestId, "requestId");
  }

  public boolean isServiceAdmin() {
    return activeRoles.contains(SERVICE_ADMIN);
  }
}
