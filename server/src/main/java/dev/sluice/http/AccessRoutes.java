package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    JsonNode principal = object(call.x().jsonBody(), "principal");
    return Reply.status(
        201,
        credentials(
            admin.createPrincipal(text(principal, "name"), properties(principal), List.of())));
  }

  Reply listPrincipals(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.body(x, "principals", admin.principals(paging.request(x)), AccessRoutes::principal));
  }

  Reply getPrincipal(ManagementRoutes.Call call) {
    return Reply.okPlain(principal(admin.principal(call.x().path("principal"))));
  }

  Reply updatePrincipal(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        principal(admin.updatePrincipal(x.path("principal"), properties(x.jsonBody()))));
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
        paging.body(
            x,
            "roles",
            admin.rolesOfPrincipal(x.path("principal"), paging.request(x)),
            AccessRoutes::role));
  }

  Reply assignPrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.assignPrincipalRole(x.path("principal"), name(x.jsonBody(), "principalRole"));
    return Reply.status(201, null);
  }

  Reply revokePrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.unassignPrincipalRole(x.path("principal"), x.path("role"));
    return Reply.NO_CONTENT;
  }

  // ---------------------------------------------------------------- principal roles

  Reply createPrincipalRole(ManagementRoutes.Call call) {
    JsonNode role = object(call.x().jsonBody(), "principalRole");
    return Reply.status(201, role(admin.createPrincipalRole(text(role, "name"), properties(role))));
  }

  Reply listPrincipalRoles(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.body(x, "roles", admin.principalRoles(paging.request(x)), AccessRoutes::role));
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
        paging.body(
            x,
            "principals",
            admin.principalsWithRole(x.path("role"), paging.request(x)),
            AccessRoutes::principal));
  }

  Reply catalogRolesOfPrincipalRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.body(
            x,
            "roles",
            admin.catalogRolesOf(
                x.path("role"),
                x.path("catalog"),
                paging.request(x),
                call.caller().isServiceAdmin()),
            AccessRoutes::role));
  }

  Reply assignCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.assignCatalogRole(x.path("catalog"), name(x.jsonBody(), "catalogRole"), x.path("role"));
    return Reply.status(201, null);
  }

  Reply unassignCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.unassignCatalogRole(x.path("catalog"), x.path("catalogRole"), x.path("role"));
    return Reply.NO_CONTENT;
  }

  // ---------------------------------------------------------------- catalog roles and grants

  Reply createCatalogRole(ManagementRoutes.Call call) {
    Exchange x = call.x();
    JsonNode role = object(x.jsonBody(), "catalogRole");
    return Reply.status(
        201,
        role(admin.createCatalogRole(x.path("catalog"), text(role, "name"), properties(role))));
  }

  Reply catalogRoles(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.body(
            x,
            "roles",
            admin.catalogRoles(x.path("catalog"), paging.request(x)),
            AccessRoutes::role));
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
        paging.body(
            x,
            "roles",
            admin.principalRolesWith(x.path("catalog"), x.path("role"), paging.request(x)),
            AccessRoutes::role));
  }

  Reply grants(ManagementRoutes.Call call) {
    Exchange x = call.x();
    return Reply.okPlain(
        paging.body(
            x,
            "grants",
            admin.grants(x.path("catalog"), x.path("role"), paging.request(x)),
            AccessRoutes::grant));
  }

  Reply grant(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.grant(grant(x.path("catalog"), x.path("role"), x.jsonBody()));
    return Reply.status(201, null);
  }

  Reply revoke(ManagementRoutes.Call call) {
    Exchange x = call.x();
    admin.revoke(grant(x.path("catalog"), x.path("role"), x.jsonBody()), force(x));
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
            visible);
    PageRequest request = paging.byId(x);
    // Bounded: while the database refuses writes this answers what is stored (or 503 if the
    // database is down for reads too), never waits on queued events.
    audit.flush();
    return Reply.okPlain(
        paging.body(x, "events", access.events(filter, request), AuditJson::fields));
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
        switch (type.toLowerCase(Locale.ROOT)) {
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
    out.put("type", g.securable().type().name().toLowerCase(Locale.ROOT));
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
}
