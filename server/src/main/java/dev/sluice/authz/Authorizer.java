package dev.sluice.authz;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.audit.AuditLog;
import dev.sluice.audit.RequestAudit;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.auth.RoleScopes;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.DelegationStore;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.SecurableRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Every authorization decision: principal → active principal roles → catalog roles → privileges on
 * securables, where a grant on a catalog or namespace reaches everything below. Each decision is
 * recorded in the {@link AuditLog}.
 *
 * <p>Role assignments and grants are cached for at most {@link #CACHE_TTL} (documented in
 * docs/AUTHORIZATION.md); a change made through this replica clears the cache at once, so here it
 * takes effect on the very next request, and on other replicas within one second.
 */
public final class Authorizer implements Callers {
  public static final Duration CACHE_TTL = Duration.ofSeconds(1);

  private record GrantKey(String catalog, List<String> roles) {}

  private final AccessStore access;

  /** The principal roles any of the given actor roles may act for (PRINCIPAL_ACT_AS). */
  private final Function<List<String>, List<String>> actingTargetsOf;

  private final AuditLog audit;
  private final Cache<String, List<String>> rolesByPrincipal;
  private final Cache<String, Set<String>> actingTargets;
  private final Cache<GrantKey, List<GrantRecord>> grantsByRoles;

  /** Without PRINCIPAL_ACT_AS grants: a delegated token activates no role. */
  public Authorizer(AccessStore access, AuditLog audit) {
    this(access, roles -> List.of(), audit);
  }

  public Authorizer(AccessStore access, DelegationStore delegations, AuditLog audit) {
    this(access, requireNonNull(delegations, "delegations")::targetsOfAny, audit);
  }

  private Authorizer(
      AccessStore access, Function<List<String>, List<String>> actingTargetsOf, AuditLog audit) {
    this.access = requireNonNull(access, "access");
    this.actingTargetsOf = actingTargetsOf;
    this.audit = requireNonNull(audit, "audit");
    this.actingTargets =
        Caffeine.newBuilder().expireAfterWrite(CACHE_TTL).maximumSize(10_000).build();
    this.rolesByPrincipal =
        Caffeine.newBuilder().expireAfterWrite(CACHE_TTL).maximumSize(100_000).build();
    this.grantsByRoles =
        Caffeine.newBuilder().expireAfterWrite(CACHE_TTL).maximumSize(100_000).build();
  }

  /**
   * Forgets cached roles and grants; called after every change to them made through this replica.
   */
  public void invalidate() {
    rolesByPrincipal.invalidateAll();
    grantsByRoles.invalidateAll();
    actingTargets.invalidateAll();
  }

  /**
   * The request's caller: roles held now, narrowed to the token's {@code PRINCIPAL_ROLE:} scopes.
   */
  @Override
  public Caller caller(AuthenticatedPrincipal principal, String requestId) {
    return caller(principal, requestId, null);
  }

  @Override
  public Caller caller(AuthenticatedPrincipal principal, RequestAudit trail) {
    return caller(principal, trail.requestId(), trail);
  }

  private Caller caller(AuthenticatedPrincipal principal, String requestId, RequestAudit trail) {
    List<String> held =
        principal.externalRoles() != null
            ? principal.externalRoles()
            // By identity: a principal created again under the name never gets the cached roles
            // of the one before it.
            : rolesByPrincipal.get(
                principal.identity(), identity -> access.principalRolesOf(principal.name()));
    List<String> active = RoleScopes.activate(held, principal.scopes());
    if (!principal.delegated()) {
      return new Caller(principal.name(), active, requestId, principal.identity(), trail);
    }
    // A delegated token acts only through the roles its actor may act for now: revoking the
    // PRINCIPAL_ACT_AS grant takes effect within CACHE_TTL on tokens already issued.
    String actor = principal.actor().name();
    Set<String> targets =
        actingTargets.get(
            "principal:" + principal.actor().principalId(),
            id -> Set.copyOf(actingTargetsOf.apply(access.principalRolesOf(actor))));
    List<String> acting =
        active.stream()
            .filter(targets::contains)
            .filter(role -> !role.equals(Caller.SERVICE_ADMIN))
            .toList();
    return new Caller(principal.name(), acting, requestId, principal.identity(), trail, actor);
  }

  /**
   * The privileges {@code caller} holds on {@code securable}, through every grant that reaches it.
   */
  public Set<Privilege> effective(Caller caller, String catalog, SecurableRef securable) {
    EnumSet<Privilege> out = EnumSet.noneOf(Privilege.class);
    for (GrantRecord grant : grants(caller, catalog)) {
      if (grant.securable().covers(securable)) {
        Privilege p = parseStored(grant.privilege());
        if (p != null) {
          out.addAll(p.implied());
        }
      }
    }
    return out;
  }

  /** Allows or refuses (403), and records the decision. */
  public void require(
      Caller caller, String action, String catalog, SecurableRef securable, Privilege privilege) {
    boolean allowed = effective(caller, catalog, securable).contains(privilege);
    record(caller, action, catalog, securable.toString(), allowed);
    if (!allowed) {
      throw refusal(caller, action, catalog, securable, privilege);
    }
  }

  /** The 403 every refusal of {@link #require} gets, whatever the securable's existence. */
  static ForbiddenException refusal(
      Caller caller, String action, String catalog, SecurableRef securable, Privilege privilege) {
    return refusal(caller, action, catalog, securable, privilege.name());
  }

  /** As above, saying what the caller {@code needs} (a privilege, and what else would help). */
  static ForbiddenException refusal(
      Caller caller, String action, String catalog, SecurableRef securable, String needs) {
    return new ForbiddenException(
        "Principal '%s' with activated principal roles %s is not authorized for %s on %s (needs %s)",
        caller.principal(), caller.activeRoles(), action, where(catalog, securable), needs);
  }

  /** {@code catalog c}, or {@code table ns.t in catalog c}: a securable as a message names it. */
  static String where(String catalog, SecurableRef securable) {
    return securable.type() == SecurableRef.Type.CATALOG
        ? "catalog " + catalog
        : securable + " in catalog " + catalog;
  }

  /** Like {@link #require} with several acceptable privileges: any one suffices. */
  public void requireAny(
      Caller caller, String action, String catalog, SecurableRef securable, Set<Privilege> anyOf) {
    Set<Privilege> held = effective(caller, catalog, securable);
    boolean allowed = anyOf.stream().anyMatch(held::contains);
    record(caller, action, catalog, securable.toString(), allowed);
    if (!allowed) {
      throw new ForbiddenException(
          "Principal '%s' with activated principal roles %s is not authorized for %s on %s (needs one of %s)",
          caller.principal(), caller.activeRoles(), action, where(catalog, securable), anyOf);
    }
  }

  /** True when some grant of the caller reaches {@code securable} or anything below it. */
  public boolean seesAnythingAt(Caller caller, String catalog, SecurableRef securable) {
    for (GrantRecord grant : grants(caller, catalog)) {
      if (grant.securable().covers(securable) || grant.securable().within(securable)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Service-level operations (catalogs, principals, principal roles) need the service_admin role.
   */
  public void requireServiceAdmin(Caller caller, String action, String target) {
    boolean allowed = caller.isServiceAdmin();
    record(caller, action, null, target, allowed);
    if (!allowed) {
      throw new ForbiddenException(
          "Principal '%s' with activated principal roles %s is not authorized for %s (needs principal role %s)",
          caller.principal(), caller.activeRoles(), action, Caller.SERVICE_ADMIN);
    }
  }

  /** Records a decision made elsewhere (e.g. a listing that was filtered). */
  public void record(
      Caller caller, String action, String catalog, String securable, boolean allowed) {
    record(caller, action, catalog, securable, allowed, null);
  }

  /** As above, with what an allowed change changed ({@link AuditEvent#detail()}). */
  public void record(
      Caller caller,
      String action,
      String catalog,
      String securable,
      boolean allowed,
      String detail) {
    AuditEvent event =
        new AuditEvent(
                0,
                System.currentTimeMillis(),
                caller.principal(),
                caller.activeRoles(),
                action,
                catalog,
                securable,
                allowed,
                caller.requestId())
            .withDetail(detail)
            .withIdentity(caller.identity())
            .withActor(caller.actor());
    if (caller.trail() != null) {
      caller.trail().record(event);
    } else {
      audit.record(event);
    }
  }

  /** The catalogs in which the caller holds any catalog role. */
  public List<String> catalogsOf(Caller caller) {
    return access.catalogsFor(caller.activeRoles());
  }

  private List<GrantRecord> grants(Caller caller, String catalog) {
    return grants(caller.activeRoles(), catalog);
  }

  private List<GrantRecord> grants(Collection<String> principalRoles, String catalog) {
    if (principalRoles.isEmpty()) {
      return List.of();
    }
    List<String> roles = new ArrayList<>(new TreeSet<>(principalRoles));
    return grantsByRoles.get(
        new GrantKey(catalog, roles), key -> access.grantsFor(key.catalog(), key.roles()));
  }

  /**
   * True when the caller (not itself acting for anyone) may act for a principal role that holds a
   * grant in {@code catalog}: an engine configures itself for the catalogs its users use, with no
   * grant of its own there.
   */
  public boolean actsForSomeoneIn(Caller caller, String catalog) {
    if (caller.actor() != null || caller.activeRoles().isEmpty()) {
      return false;
    }
    List<String> roles = List.copyOf(new TreeSet<>(caller.activeRoles()));
    Set<String> targets =
        new TreeSet<>(
            actingTargets.get(
                "roles:" + String.join("\u0000", roles),
                key -> Set.copyOf(actingTargetsOf.apply(roles))));
    targets.remove(Caller.SERVICE_ADMIN);
    return !grants(targets, catalog).isEmpty();
  }

  private static Privilege parseStored(String name) {
    try {
      return Privilege.valueOf(name);
    } catch (IllegalArgumentException e) {
      return null; // a privilege from a newer version: grants nothing here
    }
  }
}
