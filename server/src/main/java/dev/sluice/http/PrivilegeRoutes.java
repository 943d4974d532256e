package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.Actions;
import dev.sluice.api.EffectivePrivileges;
import dev.sluice.authz.PrivilegeExplanation;
import dev.sluice.catalog.IdentifierRules;
import dev.sluice.management.CallerActions;
import dev.sluice.management.ManagementAccess;
import dev.sluice.store.NamespacePath;
import dev.sluice.store.SecurableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
  private final CallerActions actions;

  public PrivilegeRoutes(
      ManagementAccess checks, PrivilegeExplanation explanation, CallerActions actions) {
    this.checks = requireNonNull(checks, "checks");
    this.explanation = requireNonNull(explanation, "explanation");
    this.actions = requireNonNull(actions, "actions");
  }

  /** {@code GET /actions}: what the caller may do that is not about one catalog. */
  Reply actions(ManagementRoutes.Call call) {
    return Reply.okPlain(new Actions(actions.service(call.caller())));
  }

  /**
   * {@code GET /catalogs/{name}/actions?namespace=&table=|view=}: what the caller may do on the
   * catalog, a namespace (levels joined by U+001F), or a table or view in it.
   */
  Reply catalogActions(ManagementRoutes.Call call) {
    Exchange x = call.x();
    String namespace = x.query("namespace");
    String table = x.query("table");
    String view = x.query("view");
    SecurableRef securable;
    if (namespace == null) {
      if (table != null || view != null) {
        throw new BadRequestException("Missing query parameter: namespace (of the table or view)");
      }
      securable = SecurableRef.CATALOG;
    } else if (table != null && view != null) {
      throw new BadRequestException("Invalid query: name a table or a view, not both");
    } else if (table != null) {
      securable = SecurableRef.table(namespace(namespace), name(table));
    } else if (view != null) {
      securable = SecurableRef.view(namespace(namespace), name(view));
    } else {
      securable = SecurableRef.namespace(namespace(namespace));
    }
    return Reply.okPlain(new Actions(actions.onCatalog(call.caller(), x.path("name"), securable)));
  }

  Reply explain(ManagementRoutes.Call call) {
    Exchange x = call.x();
    String catalog = x.path("catalog");
    String principal = x.path("principal");
    // Syntax first: a 400 depends on the query alone, so it tells nobody whether anything exists.
    SecurableRef securable = securable(x);
    checks.explainPrivileges(
        x.principal(), call.caller(), call.action(), catalog, principal, securable);
    List<EffectivePrivileges.HeldPrivilege> privileges = new ArrayList<>();
    for (PrivilegeExplanation.Explained e : explanation.explain(principal, catalog, securable)) {
      List<EffectivePrivileges.PrivilegePath> via = new ArrayList<>();
      for (PrivilegeExplanation.Via v : e.via()) {
        via.add(
            new EffectivePrivileges.PrivilegePath(
                v.principalRole(), v.grant().catalogRole(), AccessRoutes.grant(v.grant())));
      }
      privileges.add(new EffectivePrivileges.HeldPrivilege(e.privilege().name(), via));
    }
    return Reply.okPlain(
        new EffectivePrivileges(principal, catalog, securableJson(securable), privileges));
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

  private static EffectivePrivileges.Securable securableJson(SecurableRef s) {
    return new EffectivePrivileges.Securable(
        s.type().name().toLowerCase(Locale.ROOT),
        s.namespace().levels(),
        s.name().isEmpty() ? null : s.name());
  }
}
