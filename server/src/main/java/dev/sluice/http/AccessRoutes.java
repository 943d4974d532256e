package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.ActAsTargets;
import dev.sluice.api.CreateCatalogRoleRequest;
import dev.sluice.api.CreatePrincipalRequest;
import dev.sluice.api.CreatePrincipalRoleRequest;
import dev.sluice.api.EntitySpec;
import dev.sluice.api.Events;
import dev.sluice.api.Grant;
import dev.sluice.api.GrantCatalogRoleRequest;
import dev.sluice.api.GrantPrincipalRoleRequest;
import dev.sluice.api.GrantRequest;
import dev.sluice.api.Grants;
import dev.sluice.api.Principal;
import dev.sluice.api.PrincipalWithCredentials;
import dev.sluice.api.Principals;
import dev.sluice.api.Role;
import dev.sluice.api.Roles;
import dev.sluice.api.UpdatePrincipalRequest;
import dev.sluice.audit.AuditJson;
import dev.sluice.audit.AuditLog;
import dev.sluice.auth.Sealer;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.management.AccessAdmin;
import dev.sluice.management.ManagementAccess;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.PageRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.RoleRecord;
import dev.sluice.store.SecurableRef;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The access routes of the management API ({@link ManagementRoutes} declares them and the checks
 * that guard them): principals, principal roles, catalog roles, grants and audit events, in Apache
 * Polaris's JSON shape.
 */
public final class AccessRoutes {
  private final AccessAdmin admin;
  private final ManagementAccess checks;
  private final AccessStore access;
  private final AuditLog audit;
  private final Paging paging;

  public AccessRoutes(
      AccessAdmin admin,
      ManagementAccess checks,
      AccessStore access,
      AuditLog audit,
      Sealer pageTokens) {
    this.admin = requireNonNull(admin, "admin");
    this.paging = new Paging(pageTokens);
    this.checks = requireNonNull(checks, "checks");
    this.access = requireNonNull(access, "access");
    this.audit = requireNonNull(audit, "audit");
  }

  // ---------------------------------------------------------------- principals

  Reply createPrincipal(ManagementRoutes.Call call) {
    EntitySpec principal = call.body(CreatePrincipalRequest.class).principal();
    return Reply.status(
        201,
        credentials(admin.createPrincipal(principal.name(), principal.properties(), List.of())));
  }

  Reply listPrincipals(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x, admin.principals(paging.request(x)), AccessRoutes::principal, Principals::new));
  }

  Reply getPrincipal(ManagementRoutes.Call call) {
    return Reply.okPlain(principal(admin.principal(call.x().path("principal"))));
  }

  Reply updatePrincipal(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        principal(
            admin.updatePrincipal(
                x.path("principal"), call.body(UpdatePrincipalRequest.class).properties())));
  }

  Reply deletePrincipal(ManagementRoutes.Call call) {
    admin.deletePrincipal(call.x().path("principal"));
    return Reply.NO_CONTENT;
  }

  Reply rotateCredentials(ManagementRoutes.Call call) {
    return Reply.okPlain(credentials(admin.rotate(call.x().path("principal"))));
  }

  Reply rolesOfPrincipal(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.rolesOfPrincipal(x.path("principal"), paging.request(x)),
            AccessRoutes::role,
            Roles::new));
  }

  Reply assignPrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.assignPrincipalRole(
        x.path("principal"), call.body(GrantPrincipalRoleRequest.class).principalRole().name());
    return Reply.status(201, null);
  }

  Reply revokePrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.unassignPrincipalRole(x.path("principal"), x.path("role"));
    return Reply.NO_CONTENT;
  }

  // ---------------------------------------------------------------- principal roles

  Reply createPrincipalRole(ManagementRoutes.Call call) {
    EntitySpec role = call.body(CreatePrincipalRoleRequest.class).principalRole();
    return Reply.status(201, role(admin.createPrincipalRole(role.name(), role.properties())));
  }

  Reply listPrincipalRoles(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(x, admin.principalRoles(paging.request(x)), AccessRoutes::role, Roles::new));
  }

  Reply getPrincipalRole(ManagementRoutes.Call call) {
    return Reply.okPlain(role(admin.principalRole(call.x().path("role"))));
  }

  Reply deletePrincipalRole(ManagementRoutes.Call call) {
    admin.deletePrincipalRole(call.x().path("role"));
    return Reply.NO_CONTENT;
  }

  Reply principalsWithRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.principalsWithRole(x.path("role"), paging.request(x)),
            AccessRoutes::principal,
            Principals::new));
  }

  Reply catalogRolesOfPrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.catalogRolesOf(
                x.path("role"),
                x.path("catalog"),
                paging.request(x),
                call.caller().isServiceAdmin()),
            AccessRoutes::role,
            Roles::new));
  }

  Reply assignCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.assignCatalogRole(
        x.path("catalog"),
        call.body(GrantCatalogRoleRequest.class).catalogRole().name(),
        x.path("role"));
    return Reply.status(201, null);
  }

  Reply unassignCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.unassignCatalogRole(x.path("catalog"), x.path("catalogRole"), x.path("role"));
    return Reply.NO_CONTENT;
  }

  // ---------------------------------------------------------------- PRINCIPAL_ACT_AS

  Reply actAsTargets(ManagementRoutes.Call call) {
    return Reply.okPlain(new ActAsTargets(admin.actAsTargets(call.x().path("role"))));
  }

  Reply grantActAs(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.grantActAs(x.path("role"), x.path("targetRole"));
    return Reply.NO_CONTENT;
  }

  Reply revokeActAs(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.revokeActAs(x.path("role"), x.path("targetRole"));
    return Reply.NO_CONTENT;
  }

  // ---------------------------------------------------------------- catalog roles and grants

  Reply createCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    EntitySpec role = call.body(CreateCatalogRoleRequest.class).catalogRole();
    return Reply.status(
        201, role(admin.createCatalogRole(x.path("catalog"), role.name(), role.properties())));
  }

  Reply catalogRoles(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.catalogRoles(x.path("catalog"), paging.request(x)),
            AccessRoutes::role,
            Roles::new));
  }

  Reply catalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(role(admin.catalogRole(x.path("catalog"), x.path("role"))));
  }

  /** {@code ?force=true}: a change that would leave a catalog without an access manager. */
  private static boolean force(Exchange x) {
    String force = x.query("force");
    if (force == null || force.equals("false")) {
      return false;
    }
    if (force.equals("true")) {
      return true;
    }
    throw new BadRequestException("Invalid force: %s (true or false)", force);
  }

  Reply deleteCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.deleteCatalogRole(x.path("catalog"), x.path("role"), force(x));
    return Reply.NO_CONTENT;
  }

  Reply principalRolesWithCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.principalRolesWith(x.path("catalog"), x.path("role"), paging.request(x)),
            AccessRoutes::role,
            Roles::new));
  }

  Reply grants(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.page(
            x,
            admin.grants(x.path("catalog"), x.path("role"), paging.request(x)),
            AccessRoutes::grant,
            Grants::new));
  }

  Reply grant(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.grant(grant(x.path("catalog"), x.path("role"), call.body(GrantRequest.class).grant()));
    return Reply.status(201, null);
  }

  Reply revoke(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.revoke(
        grant(x.path("catalog"), x.path("role"), call.body(GrantRequest.class).grant()), force(x));
    return Reply.status(201, null);
  }

  // ---------------------------------------------------------------- audit events

  /**
   * Audit events, newest first. The service admin reads all; others, the catalogs whose access they
   * manage.
   */
  Reply events(ManagementRoutes.Call call) {
    Exchange x = call.x();
    Set<String> visible = checks.auditedCatalogs(call.caller(), call.action());
    String decision = x.query("decision");
    Boolean allowed = null;
    if (decision != null) {
      if (!decision.equalsIgnoreCase("ALLOW") && !decision.equalsIgnoreCase("DENY")) {
        throw new BadRequestException("Invalid decision: %s (ALLOW or DENY)", decision);
      }
      allowed = decision.equalsIgnoreCase("ALLOW");
    }
    AuditFilter filter =
        new AuditFilter(
            x.query("principal"),
            x.query("catalog"),
            x.query("securable"),
            allowed,
            longQuery(x, "from"),
            longQuery(x, "to"),
            visible,
            x.query("actor"));
    PageRequest request = paging.byId(x);
    // Bounded: while the database refuses writes this answers what is stored (or 503 if the
    // database is down for reads too), never waits on queued events.
    audit.flush();
    return Reply.okPlain(
        paging.page(x, access.events(filter, request), AuditJson::event, Events::new));
  }

  // ---------------------------------------------------------------- records in

  private static GrantRecord grant(String catalog, String catalogRole, Grant grant) {
    String privilege = Privilege.parse(grant.privilege()).name();
    String type = grant.type();
    SecurableRef securable =
        switch (type.toLowerCase(Locale.ROOT)) {
          case "catalog" -> {
            absent(grant.namespace(), "namespace", type);
            absent(grant.tableName(), "tableName", type);
            absent(grant.viewName(), "viewName", type);
            yield SecurableRef.CATALOG;
          }
          case "namespace" -> {
            absent(grant.tableName(), "tableName", type);
            absent(grant.viewName(), "viewName", type);
            yield SecurableRef.namespace(namespace(grant.namespace()));
          }
          case "table" -> {
            absent(grant.viewName(), "viewName", type);
            yield SecurableRef.table(
                namespace(grant.namespace()), name(grant.tableName(), "tableName"));
          }
          case "view" -> {
            absent(grant.tableName(), "tableName", type);
            yield SecurableRef.view(
                namespace(grant.namespace()), name(grant.viewName(), "viewName"));
          }
          default ->
              throw new BadRequestException(
                  "Invalid grant type: %s (catalog, namespace, table or view)", type);
        };
    return new GrantRecord(catalog, catalogRole, securable, privilege);
  }

  private static void absent(Object value, String field, String type) {
    if (value != null) {
      throw new BadRequestException("Invalid field grant.%s: a %s grant has none", field, type);
    }
  }

  private static String name(String value, String field) {
    if (value == null || value.isEmpty()) {
      throw new BadRequestException("Missing field: grant.%s (a non-empty string)", field);
    }
    return value;
  }

  private static NamespacePath namespace(List<String> levels) {
    if (levels == null || levels.isEmpty()) {
      throw new BadRequestException(
          "Missing or invalid field: grant.namespace (a non-empty array of strings)");
    }
    for (String level : levels) {
      if (level.isEmpty()) {
        throw new BadRequestException(
            "Invalid grant.namespace: every level must be a non-empty string");
      }
    }
    IdentifierRules.checkLevels(levels);
    return new NamespacePath(levels);
  }

  private static Long longQuery(Exchange x, String name) {
    String value = x.query(name);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new BadRequestException("Invalid %s: expected epoch milliseconds, got %s", name, value);
    }
  }

  // ---------------------------------------------------------------- records out

  static Principal principal(PrincipalRecord p) {
    return new Principal(p.name(), p.id(), p.clientId(), p.properties(), p.createdAt());
  }

  private static PrincipalWithCredentials credentials(AccessAdmin.NewCredentials created) {
    return new PrincipalWithCredentials(
        principal(created.principal()),
        new PrincipalWithCredentials.Credentials(
            created.principal().clientId(), created.clientSecret()));
  }

  private static Role role(RoleRecord r) {
    return new Role(r.name(), r.properties(), r.createdAt());
  }

  static Grant grant(GrantRecord g) {
    SecurableRef s = g.securable();
    return switch (s.type()) {
      case CATALOG -> Grant.onCatalog(g.privilege());
      case NAMESPACE -> Grant.onNamespace(s.namespace().levels(), g.privilege());
      case TABLE -> Grant.onTable(s.namespace().levels(), s.name(), g.privilege());
      case VIEW -> Grant.onView(s.namespace().levels(), s.name(), g.privilege());
    };
  }
}
