package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.PrivilegeExplanation;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.management.ManagementAccess;
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
 * CATALOG_MANAGE_ACCESS on the catalog, and the principal itself may ask ({@link
 * ManagementAccess#explainPrivileges}); anyone else gets the same 403 whether the catalog or
 * principal exists or not.
 */
public final class PrivilegeRoutes {
  static final String PATH =
      "/api/management/v1/catalogs/{catalog}/principals/{principal}/effective-privileges";

  private final ManagementAccess checks;
  private final PrivilegeExplanation explanation;

  public PrivilegeRoutes(ManagementAccess checks, PrivilegeExplanation explanation) {
    this.checks = requireNonNull(checks, "checks");
    this.explanation = requireNonNull(explanation, "explanation");
  }

  Reply explain(ManagementRoutes.Call call) {
    Exchange x = call.x();
    String catalog = x.path("catalog");
    String principal = x.path("principal");
    // Syntax first: a 400 depends on the query alone, so it tells nobody whether anything exists.
    SecurableRef securable = securable(x);
    checks.explainPrivileges(
        x.principal(), call.caller(), call.action(), catalog, principal, securable);
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
