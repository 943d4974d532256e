package dev.sluice.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * OAuth scopes that select principal roles: {@code PRINCIPAL_ROLE:ALL} activates every role the
 * principal holds, {@code PRINCIPAL_ROLE:<name>} just that one. A token without any PRINCIPAL_ROLE
 * scope (Iceberg clients send {@code catalog} by default) activates all.
 */
public final class RoleScopes {
  public static final String PREFIX = "PRINCIPAL_ROLE:";
  public static final String ALL = PREFIX + "ALL";

  private RoleScopes() {}

  /** The role names a scope list asks for; empty means all. */
  public static Set<String> requested(List<String> scopes) {
    Set<String> names = new TreeSet<>();
    for (String scope : scopes) {
      if (scope.equals(ALL)) {
        return Set.of();
      }
      if (scope.startsWith(PREFIX)) {
        names.add(scope.substring(PREFIX.length()));
      }
    }
    return names;
  }

  public static List<String> activate(List<String> held, List<String> scopes) {
    Set<String> requested = requested(scopes);
    if (requested.isEmpty()) {
      return held;
    }
    List<String> active = new ArrayList<>();
    for (String role : held) {
      if (requested.contains(role)) {
        active.add(role);
      }
    }
    return active;
  }
}
