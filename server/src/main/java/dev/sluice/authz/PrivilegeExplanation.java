package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import dev.sluice.store.AccessStore;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.SecurableRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Why a principal holds each privilege on a securable: for every privilege, each principal role →
 * catalog role → grant that gives it (a grant gives its privilege and everything that implies, on
 * its securable and, for a catalog or namespace, everything below). The privileges are exactly
 * those {@link Authorizer#effective} finds for the principal's held roles (not narrowed by any
 * token scope), read from the store without the authorizer's cache.
 */
public final class PrivilegeExplanation {
  /**
   * One path to a privilege: a principal role of the principal, and a grant of its catalog role.
   */
  public record Via(String principalRole, GrantRecord grant) {
    public Via {
      requireNonNull(principalRole, "principalRole");
      requireNonNull(grant, "grant");
    }
  }

  /** A privilege held, with every path that gives it. */
  public record Explained(Privilege privilege, List<Via> via) {
    public Explained {
      requireNonNull(privilege, "privilege");
      via = List.copyOf(via);
    }
  }

  private static final Comparator<Via> ORDER =
      Comparator.comparing(Via::principalRole)
          .thenComparing(v -> v.grant().catalogRole())
          .thenComparing(v -> v.grant().securable().type())
          .thenComparing(v -> v.grant().securable().namespace().key())
          .thenComparing(v -> v.grant().securable().name())
          .thenComparing(v -> v.grant().privilege());

  private final AccessStore access;

  public PrivilegeExplanation(AccessStore access) {
    this.access = requireNonNull(access, "access");
  }

  /** Privileges in declaration order, each with its paths; empty when the principal holds none. */
  public List<Explained> explain(String principal, String catalog, SecurableRef securable) {
    requireNonNull(principal, "principal");
    requireNonNull(catalog, "catalog");
    requireNonNull(securable, "securable");
    Map<Privilege, List<Via>> byPrivilege = new EnumMap<>(Privilege.class);
    // One store call per role (not one for all) so each grant is tied to the role it came through;
    // a grant reached through two roles is listed under both.
    for (String role : new TreeSet<>(access.principalRolesOf(principal))) {
      for (GrantRecord grant : access.grantsFor(catalog, List.of(role))) {
        if (!grant.securable().covers(securable)) {
          continue;
        }
        Privilege granted = parseStored(grant.privilege());
        if (granted == null) {
          continue;
        }
        for (Privilege p : granted.implied()) {
          byPrivilege.computeIfAbsent(p, k -> new ArrayList<>()).add(new Via(role, grant));
        }
      }
    }
    List<Explained> out = new ArrayList<>();
    byPrivilege.forEach(
        (p, via) -> {
          via.sort(ORDER);
          out.add(new Explained(p, via));
        });
    return out;
  }

  private static Privilege parseStored(String name) {
    try {
      return Privilege.valueOf(name);
    } catch (IllegalArgumentException e) {
      return null; // a privilege from a newer version: grants nothing here, as in Authorizer
    }
  }
}
