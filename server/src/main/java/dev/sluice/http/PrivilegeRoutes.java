package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Authorizer;
import dev.sluice.authz.Caller;
import dev.sluice.authz.CatalogVisibility;
import dev.sluice.authz.Privilege;
import dev.sluice.authz.PrivilegeExplanation;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.management.AccessAdmin;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * {@code GET /api/management/v1/catalogs/{catalog}/principals/{principal}/effective-privileges
 * ?type=&namespace=&name=}: the privileges a principal holds on one securable, each with the
 * principal role → catalog role → grant that gives it. The service admin, a holder of
 * CATALOG_MANAGE_ACCESS on the catalog, and the principal itself may ask; anyone else gets the same
 * 403 whether the catalog or principal exists or not.
 */
public final class PrivilegeRoutes {
  static final String PATH =
      "/api/management/v1/catalogs/{catalog}/principals/{principal}/effective-privileges";
  private static final String ACTION = "explainPrivileges";

  private final AccessAdmin admin;
  private final Authorizer authz;
  private final CatalogVisibility visibility;
  private final PrivilegeExplanation explanation;

  public PrivilegeRoutes(AccessAdmin admin, Authorizer authz, PrivilegeExplanation explanation) {
    this.admin = requireNonNull(admin, "admin");
    this.authz = requireNonNull(authz, "authz");
    this.visibility = new CatalogVisibility(authz);
    this.explanation = requireNonNull(explanation, "explanation");
  }

  public void register(HttpServer.Routes routes) {
    routes.add("GET", PATH, this::explain);
  }

  private Reply explain(Exchange x) {
    String catalog = x.path("catalog");
    String principal = x.path("principal");
    // Syntax first: a 400 depends on the query alone, so it tells nobody whether anything exists.
    SecurableRef securable = securable(x);
    authorize(x, catalog, principal, securable);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("principal", principal);
    out.put("catalog", catalog);
    out.put("securable", securableJson(securable));
    List<Map<String, Object>> privileges = new ArrayList<>();
    for (PrivilegeExplanation.Explained e : explanation.explain(principal, catalog, securable)) {
      List<Map<String, Object>> via = new ArrayList<>();
      for (PrivilegeExplanation.Via v : e.via()) {
        Map<String, Object> path = new LinkedHashMap<>();
        path.put("principalRole", v.principalRole());
        path.put("catalogRole", v.grant().catalogRole());
        path.put("grant", AccessRoutes.grant(v.grant()));
        via.add(path);
      }
      Map<String, Object> held = new LinkedHashMap<>();
      held.put("privilege", e.privilege().name());
      held.put("via", via);
      privileges.add(held);
    }
    out.put("privileges", privileges);
    return Reply.okPlain(out);
  }

  /**
   * The service admin learns what does not exist (404); anyone else must have standing in the
   * catalog (else one 403 for a catalog that exists and one that does not), and then be the
   * principal asked about or hold CATALOG_MANAGE_ACCESS. An access manager asking about a principal
   * that does not exist gets an empty answer, as for one holding nothing: principal names are the
   * service admin's to list.
   */
  private void authorize(Exchange x, String catalog, String principal, SecurableRef securable) {
    Caller caller = authz.caller(x.principal(), x.requestId());
    String target = "principal " + principal + " on " + securable;
    if (caller.isServiceAdmin()) {
      admin.requireCatalog(catalog);
      admin.principal(principal);
      authz.record(caller, ACTION, catalog, target, true);
      return;
    }
    visibility.require(caller, ACTION, catalog);
    // An external identity's roles come from its token, not the store: it is not "itself" here.
    boolean self = caller.principal().equals(principal) && x.principal().externalRoles() == null;
    if (self) {
      authz.record(caller, ACTION, catalog, target, true);
      return;
    }
    authz.require(caller, ACTION, catalog, SecurableRef.CATALOG, Privilege.CATALOG_MANAGE_ACCESS);
  }

  // ---------------------------------------------------------------- query in, JSON out

  static SecurableRef securable(Exchange x) {
    String type = x.query("type");
    if (type == null || type.isEmpty()) {
      throw new BadRequestException(
          "Missing query parameter: type (catalog, namespace, table or view)");
    }
    String namespace = x.query("namespace");
    String name = x.query("name");
    return switch (type.toLowerCase(Locale.ROOT)) {
      case "catalog" -> {
        absent("namespace", namespace, type);
        absent("name", name, type);
        yield SecurableRef.CATALOG;
      }
      case "namespace" -> {
        absent("name", name, type);
        yield SecurableRef.namespace(namespace(namespace));
      }
      case "table" -> SecurableRef.table(namespace(namespace), name(name));
      case "view" -> SecurableRef.view(namespace(namespace), name(name));
      default ->
          throw new BadRequestException(
              "Invalid query parameter type: %s (catalog, namespace, table or view)", type);
    };
  }

  private static void absent(String parameter, String value, String type) {
    if (value != null) {
      throw new BadRequestException(
          "Invalid query parameter %s: a %s securable has none", parameter, type);
    }
  }

  /** Levels joined by U+001F as in Iceberg's REST paths; the level rules of grants. */
  private static NamespacePath namespace(String value) {
    if (value == null || value.isEmpty()) {
      throw new BadRequestException("Missing query parameter: namespace (levels joined by U+001F)");
    }
    List<String> levels = List.of(value.split(String.valueOf(NamespacePath.SEPARATOR), -1));
    IdentifierRules.checkLevels(levels);
    return new NamespacePath(levels);
  }

  private static String name(String value) {
    if (value == null) {
      throw new BadRequestException("Missing query parameter: name (the table or view)");
    }
    IdentifierRules.checkName("name", value);
    return value;
  }

  private static Map<String, Object> securableJson(SecurableRef s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", s.type().name().toLowerCase(Locale.ROOT));
    out.put("namespace", s.namespace().levels());
    out.put("name", s.name().isEmpty() ? null : s.name());
    return out;
  }
}
