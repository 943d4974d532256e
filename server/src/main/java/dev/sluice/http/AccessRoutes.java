package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.audit.AuditLog;
import dev.sluice.auth.RoleScopes;
import dev.sluice.auth.Sealer;
import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.management.AccessAdmin;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.GrantRecord;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.PageRequest;
import dev.sluice.store.PrincipalRecord;
import dev.sluice.store.RoleRecord;
import dev.sluice.store.SecurableRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Principals, principal roles, catalog roles, grants and audit events under {@code
 * /api/management/v1}, in Apache Polaris's JSON shape. Service-level objects need the service_admin
 * principal role; a catalog's roles and grants need CATALOG_MANAGE_ACCESS on it.
 */
public final class AccessRoutes {
  private static final String BASE = "/api/management/v1";

  private final AccessAdmin admin;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final AccessStore access;
  private final AuditLog audit;
  private final Paging paging;

  public AccessRoutes(
      AccessAdmin admin, Authorizer authz, AccessStore access, AuditLog audit, Sealer pageTokens) {
    this.admin = requireNonNull(admin, "admin");
    this.paging = new Paging(pageTokens);
    this.authz = requireNonNull(authz, "authz");
    this.visibility = new CatalogVisibility(authz);
    this.access = requireNonNull(access, "access");
    this.audit = requireNonNull(audit, "audit");
  }

  public void register(HttpServer.Routes routes) {
    String principal = BASE + "/principals/{principal}";
    String principalRole = BASE + "/principal-roles/{role}";
    String catalogRole = BASE + "/catalogs/{catalog}/catalog-roles/{role}";
    routes
        .add("POST", BASE + "/principals", this::createPrincipal)
        .add(
            "GET",
            BASE + "/principals",
            x -> {
              serviceAdmin(x, "listPrincipals", "principals");
              return Reply.okPlain(
                  paging.body(
                      x,
                      "principals",
                      admin.principals(paging.request(x)),
                      AccessRoutes::principal));
            })
        .add(
            "GET",
            principal,
            x -> {
              selfOrServiceAdmin(x, "getPrincipal");
              return Reply.okPlain(principal(admin.principal(x.path("principal"))));
            })
        .add(
            "PUT",
            principal,
            x -> {
              serviceAdmin(x, "updatePrincipal", x.path("principal"));
              return Reply.okPlain(
                  principal(admin.updatePrincipal(x.path("principal"), properties(x.jsonBody()))));
            })
        .add(
            "DELETE",
            principal,
            x -> {
              serviceAdmin(x, "deletePrincipal", x.path("principal"));
              admin.deletePrincipal(x.path("principal"));
              return Reply.NO_CONTENT;
            })
        .add(
            "POST",
            principal + "/rotate",
            x -> {
              selfOrServiceAdmin(x, "rotateCredentials");
              return Reply.okPlain(credentials(admin.rotate(x.path("principal"))));
            })
        .add(
            "GET",
            principal + "/principal-roles",
            x -> {
              selfOrServiceAdmin(x, "listPrincipalRolesOfPrincipal");
              return Reply.okPlain(
                  paging.body(
                      x,
                      "roles",
                      admin.rolesOfPrincipal(x.path("principal"), paging.request(x)),
                      AccessRoutes::role));
            })
        .add(
            "PUT",
            principal + "/principal-roles",
            x -> {
              serviceAdmin(x, "assignPrincipalRole", x.path("principal"));
              admin.assignPrincipalRole(x.path("principal"), name(x.jsonBody(), "principalRole"));
              return Reply.status(201, null);
            })
        .add(
            "DELETE",
            principal + "/principal-roles/{role}",
            x -> {
              serviceAdmin(x, "revokePrincipalRole", x.path("principal"));
              admin.unassignPrincipalRole(x.path("principal"), x.path("role"));
              return Reply.NO_CONTENT;
            })
        .add(
            "POST",
            BASE + "/principal-roles",
            x -> {
              serviceAdmin(x, "createPrincipalRole", "principal-roles");
              JsonNode role = object(x.jsonBody(), "principalRole");
              return Reply.status(
                  201, role(admin.createPrincipalRole(text(role, "name"), properties(role))));
            })
        .add(
            "GET",
            BASE + "/principal-roles",
            x -> {
              serviceAdmin(x, "listPrincipalRoles", "principal-roles");
              return Reply.okPlain(
                  paging.body(
                      x, "roles", admin.principalRoles(paging.request(x)), AccessRoutes::role));
            })
        .add(
            "GET",
            principalRole,
            x -> {
              serviceAdmin(x, "getPrincipalRole", x.path("role"));
              return Reply.okPlain(role(admin.principalRole(x.path("role"))));
            })
        .add(
            "DELETE",
            principalRole,
            x -> {
              serviceAdmin(x, "deletePrincipalRole", x.path("role"));
              admin.deletePrincipalRole(x.path("role"));
              return Reply.NO_CONTENT;
            })
        .add(
            "GET",
            principalRole + "/principals",
            x -> {
              serviceAdmin(x, "listPrincipalsWithRole", x.path("role"));
              return Reply.okPlain(
                  paging.body(
                      x,
                      "principals",
                      admin.principalsWithRole(x.path("role"), paging.request(x)),
                      AccessRoutes::principal));
            })
        .add(
            "GET",
            principalRole + "/catalog-roles/{catalog}",
            x -> {
              manageAccess(x, "listCatalogRolesOfPrincipalRole", x.path("catalog"));
              return Reply.okPlain(
                  paging.body(
                      x,
                      "roles",
                      admin.catalogRolesOf(
                          x.path("role"),
                          x.path("catalog"),
                          paging.request(x),
                          caller(x).isServiceAdmin()),
                      AccessRoutes::role));
            })
        .add(
            "PUT",
            principalRole + "/catalog-roles/{catalog}",
            x -> {
              manageAccess(x, "grantCatalogRole", x.path("catalog"));
              admin.assignCatalogRole(
                  x.path("catalog"), name(x.jsonBody(), "catalogRole"), x.path("role"));
              return Reply.status(201, null);
            })
        .add(
            "DELETE",
            principalRole + "/catalog-roles/{catalog}/{catalogRole}",
            x -> {
              manageAccess(x, "revokeCatalogRole", x.path("catalog"));
              admin.unassignCatalogRole(x.path("catalog"), x.path("catalogRole"), x.path("role"));
              return Reply.NO_CONTENT;
            })
        .add(
            "POST",
            BASE + "/catalogs/{catalog}/catalog-roles",
            x -> {
              manageAccess(x, "createCatalogRole", x.path("catalog"));
              JsonNode role = object(x.jsonBody(), "catalogRole");
              return Reply.status(
                  201,
                  role(
                      admin.createCatalogRole(
                          x.path("catalog"), text(role, "name"), properties(role))));
            })
        .add(
            "GET",
            BASE + "/catalogs/{catalog}/catalog-roles",
            x -> {
              manageAccess(x, "listCatalogRoles", x.path("catalog"));
              return Reply.okPlain(
                  paging.body(
                      x,
                      "roles",
                      admin.catalogRoles(x.path("catalog"), paging.request(x)),
                      AccessRoutes::role));
            })
        .add(
            "GET",
            catalogRole,
            x -> {
              manageAccess(x, "getCatalogRole", x.path("catalog"));
              return Reply.okPlain(role(admin.catalogRole(x.path("catalog"), x.path("role"))));
            })
        .add(
            "DELETE",
            catalogRole,
            x -> {
              manageAccess(x, "deleteCatalogRole", x.path("catalog"));
              admin.deleteCatalogRole(x.path("catalog"), x.path("role"));
              return Reply.NO_CONTENT;
            })
        .add(
            "GET",
            catalogRole + "/principal-roles",
            x -> {
              manageAccess(x, "listPrincipalRolesWithCatalogRole", x.path("catalog"));
              return Reply.okPlain(
                  paging.body(
                      x,
                      "roles",
                      admin.principalRolesWith(
                          x.path("catalog"), x.path("role"), paging.request(x)),
                      AccessRoutes::role));
            })
        .add(
            "GET",
            catalogRole + "/grants",
            x -> {
              manageAccess(x, "listGrants", x.path("catalog"));
              return Reply.okPlain(
                  paging.body(
                      x,
                      "grants",
                      admin.grants(x.path("catalog"), x.path("role"), paging.request(x)),
                      AccessRoutes::grant));
            })
        .add(
            "PUT",
            catalogRole + "/grants",
            x -> {
              manageAccess(x, "addGrant", x.path("catalog"));
              admin.grant(grant(x.path("catalog"), x.path("role"), x.jsonBody()));
              return Reply.status(201, null);
            })
        .add(
            "POST",
            catalogRole + "/grants",
            x -> {
              manageAccess(x, "revokeGrant", x.path("catalog"));
              admin.revoke(grant(x.path("catalog"), x.path("role"), x.jsonBody()));
              return Reply.status(201, null);
            })
        .add("GET", BASE + "/events", this::events);
  }

  private Reply createPrincipal(Exchange x) {
    serviceAdmin(x, "createPrincipal", "principals");
    JsonNode body = x.jsonBody();
    JsonNode principal = object(body, "principal");
    return Reply.status(
        201,
        credentials(
            admin.createPrincipal(text(principal, "name"), properties(principal), List.of())));
  }

  /**
   * Audit events, newest first. The service admin reads all; others, the catalogs whose access they
   * manage.
   */
  private Reply events(Exchange x) {
    Caller caller = caller(x);
    Set<String> visible = null;
    if (!caller.isServiceAdmin()) {
      visible = new HashSet<>();
      for (String catalog : authz.catalogsOf(caller)) {
        if (authz
            .effective(caller, catalog, SecurableRef.CATALOG)
            .contains(Privilege.CATALOG_MANAGE_ACCESS)) {
          visible.add(catalog);
        }
      }
      authz.record(caller, "listEvents", null, "events", !visible.isEmpty());
      if (visible.isEmpty()) {
        throw new ForbiddenException(
            "Principal '%s' may not read audit events", caller.principal());
      }
    } else {
      authz.record(caller, "listEvents", null, "events", true);
    }
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
            visible);
    PageRequest request = paging.byId(x);
    // Bounded: while the database refuses writes this answers what is stored (or 503 if the
    // database is down for reads too), never waits on queued events.
    audit.flush();
    return Reply.okPlain(
        paging.body(x, "events", access.events(filter, request), AccessRoutes::event));
  }

  // ---------------------------------------------------------------- authorization

  private Caller caller(Exchange x) {
    return authz.caller(x.principal(), x.requestId());
  }

  private void serviceAdmin(Exchange x, String action, String target) {
    authz.requireServiceAdmin(caller(x), action, target);
  }

  /**
   * A principal may read itself and rotate its own secret, but only with a token that acts with all
   * of its roles: a token narrowed to some (a {@code PRINCIPAL_ROLE:} scope) acts only through
   * them, so it could otherwise buy a new secret and, with it, an unnarrowed token.
   */
  private void selfOrServiceAdmin(Exchange x, String action) {
    Caller caller = caller(x);
    if (caller.principal().equals(x.path("principal"))
        && x.principal().externalRoles() == null
        && RoleScopes.requested(x.principal().scopes()).isEmpty()) {
      authz.record(caller, action, null, "principal " + caller.principal(), true);
      return;
    }
    authz.requireServiceAdmin(caller, action, "principal " + x.path("principal"));
  }

  /**
   * CATALOG_MANAGE_ACCESS on {@code catalog}; a caller with no standing in it cannot tell whether
   * it exists.
   */
  private void manageAccess(Exchange x, String action, String catalog) {
    Caller caller = caller(x);
    if (caller.isServiceAdmin()) {
      admin.requireCatalog(catalog); // the service admin may learn that a catalog does not exist
    } else {
      visibility.require(caller, action, catalog);
    }
    authz.require(caller, action, catalog, SecurableRef.CATALOG, Privilege.CATALOG_MANAGE_ACCESS);
  }

  // ---------------------------------------------------------------- JSON in

  static JsonNode object(JsonNode body, String field) {
    JsonNode node = body.get(field);
    if (node == null || !node.isObject()) {
      throw new BadRequestException("Invalid request: expected {\"%s\": {...}}", field);
    }
    return node;
  }

  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual() || value.asText().isEmpty()) {
      throw new BadRequestException("Missing or invalid field: %s (a non-empty string)", field);
    }
    return value.asText();
  }

  private static String name(JsonNode body, String field) {
    return text(object(body, field), "name");
  }

  static Map<String, String> properties(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonNode props = node.get("properties");
    if (props == null || props.isNull()) {
      return out;
    }
    if (!props.isObject()) {
      throw new BadRequestException("Invalid properties: must be an object of strings");
    }
    props
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().isTextual()) {
                throw new BadRequestException(
                    "Invalid properties.%s: must be a string", e.getKey());
              }
              out.put(e.getKey(), e.getValue().asText());
            });
    return out;
  }

  private static GrantRecord grant(String catalog, String catalogRole, JsonNode body) {
    JsonNode grant = object(body, "grant");
    String type = text(grant, "type");
    String privilege = Privilege.parse(text(grant, "privilege")).name();
    SecurableRef securable =
        switch (type.toLowerCase(java.util.Locale.ROOT)) {
          case "catalog" -> SecurableRef.CATALOG;
          case "namespace" -> SecurableRef.namespace(namespace(grant));
          case "table" -> SecurableRef.table(namespace(grant), text(grant, "tableName"));
          case "view" -> SecurableRef.view(namespace(grant), text(grant, "viewName"));
          default ->
              throw new BadRequestException(
                  "Invalid grant type: %s (catalog, namespace, table or view)", type);
        };
    return new GrantRecord(catalog, catalogRole, securable, privilege);
  }

  private static NamespacePath namespace(JsonNode grant) {
    JsonNode ns = grant.get("namespace");
    if (ns == null || !ns.isArray() || ns.isEmpty()) {
      throw new BadRequestException(
          "Missing or invalid field: namespace (a non-empty array of strings)");
    }
    List<String> levels = new ArrayList<>();
    for (JsonNode level : ns) {
      if (!level.isTextual() || level.asText().isEmpty()) {
        throw new BadRequestException("Invalid namespace: every level must be a non-empty string");
      }
      levels.add(level.asText());
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

  // ---------------------------------------------------------------- JSON out

  static Map<String, Object> principal(PrincipalRecord p) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", p.name());
    // Never reused: audit events name it (principalIdentity), so a re-created name is told apart.
    out.put("id", p.id());
    out.put("clientId", p.clientId());
    out.put("properties", p.properties());
    out.put("createTimestamp", p.createdAt());
    return out;
  }

  private static Map<String, Object> credentials(AccessAdmin.NewCredentials created) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("principal", principal(created.principal()));
    out.put(
        "credentials",
        Map.of("clientId", created.principal().clientId(), "clientSecret", created.clientSecret()));
    return out;
  }

  private static Map<String, Object> role(RoleRecord r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", r.name());
    out.put("properties", r.properties());
    out.put("createTimestamp", r.createdAt());
    return out;
  }

  static Map<String, Object> grant(GrantRecord g) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", g.securable().type().name().toLowerCase(java.util.Locale.ROOT));
    if (g.securable().type() != SecurableRef.Type.CATALOG) {
      out.put("namespace", g.securable().namespace().levels());
    }
    if (g.securable().type() == SecurableRef.Type.TABLE) {
      out.put("tableName", g.securable().name());
    } else if (g.securable().type() == SecurableRef.Type.VIEW) {
      out.put("viewName", g.securable().name());
    }
    out.put("privilege", g.privilege());
    return out;
  }

  private static Map<String, Object> event(AuditEvent e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", e.id());
    out.put("timestamp", e.time());
    out.put("principal", e.principal());
    if (e.principalIdentity() != null) {
      out.put("principalIdentity", e.principalIdentity());
    }
    out.put("activatedRoles", e.roles());
    out.put("action", e.action());
    out.put("catalog", e.catalog());
    out.put("securable", e.securable());
    out.put("decision", e.allowed() ? "ALLOW" : "DENY");
    out.put("requestId", e.requestId());
    out.put("count", e.count());
    out.put("lastTimestamp", e.lastTime());
    if (e.detail() != null) {
      out.put("detail", e.detail());
    }
    return out;
  }
}
