package dev.sluice.auth;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The scope of a token obtained by token exchange: never more principal roles than the subject
 * token activates (a token can only ever be narrowed).
 *
 * <ul>
 *   <li>No {@code scope}, or one without any {@code PRINCIPAL_ROLE:} entry (Iceberg clients refresh
 *       with {@code catalog}): the subject token's scopes, unchanged.
 *   <li>{@code PRINCIPAL_ROLE:ALL}: allowed only when the subject token activates all roles.
 *   <li>{@code PRINCIPAL_ROLE:<name>...}: each must be active in the subject token.
 * </ul>
 *
 * Whether the principal still holds the roles is checked separately, as for every grant.
 */
final class ExchangeScopes {
  private ExchangeScopes() {}

  /** Thrown when the requested scope would activate a role the subject token does not. */
  static final class Widening extends RuntimeException {
    Widening(String message) {
      super(message);
    }
  }

  static List<String> narrow(List<String> subject, List<String> requested) {
    if (requested.stream().noneMatch(s -> s.startsWith(RoleScopes.PREFIX))) {
      return subject;
    }
    Set<String> active = RoleScopes.requested(subject); // empty: all roles
    Set<String> asked = RoleScopes.requested(requested); // empty: PRINCIPAL_ROLE:ALL
    if (active.isEmpty()) {
      return requested;
    }
    if (asked.isEmpty()) {
      throw new Widening(
          RoleScopes.ALL + " would widen a token limited to " + String.join(", ", active));
    }
    Set<String> extra = new TreeSet<>(asked);
    extra.removeAll(active);
    if (!extra.isEmpty()) {
      throw new Widening(
          "the subject token does not activate principal role(s) " + String.join(", ", extra));
    }
    return requested;
  }
}
