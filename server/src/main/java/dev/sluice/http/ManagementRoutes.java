package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.management.ManagementAccess;
import java.util.List;
import java.util.function.Function;

/**
 * The management API under {@code /api/management/v1}, in Apache Polaris's JSON shape: every route
 * declared once ({@link #DECLARED}) with the action its audit events name and the check that guards
 * it. The checks are decided in {@link ManagementAccess}, below HTTP, and run before a body is
 * read; the handlers ({@link CatalogRoutes}, {@link AccessRoutes}, {@link PrivilegeRoutes}, {@link
 * SigningKeyRoutes}) only read the request, call {@code dev.sluice.management} and write the reply.
 */
public final class ManagementRoutes {
  static final String BASE = "/api/management/v1";
  private static final String CATALOGS = BASE + "/catalogs";
  private static final String CATALOG = CATALOGS + "/{name}";
  private static final String PRINCIPALS = BASE + "/principals";
  private static final String PRINCIPAL = PRINCIPALS + "/{principal}";
  private static final String PRINCIPAL_ROLES = BASE + "/principal-roles";
  private static final String PRINCIPAL_ROLE = PRINCIPAL_ROLES + "/{role}";
  private static final String CATALOG_ROLES = CATALOGS + "/{catalog}/catalog-roles";
  private static final String CATALOG_ROLE = CATALOG_ROLES + "/{role}";
  private static final String SIGNING_KEYS = BASE + "/signing-keys";

  /** Every management route, declared once, in the order the API reference lists them. */
  static final List<Declared> DECLARED =
      List.of(
          // Catalogs
          route(
              "POST",
              CATALOGS,
              "createCatalog",
              serviceAdmin("catalogs"),
              catalogs(CatalogRoutes::create)),
          route("GET", CATALOGS, "listCatalogs", anyone("catalogs"), catalogs(CatalogRoutes::list)),
          route(
              "GET",
              BASE + "/storage-types",
              "listStorageTypes",
              anyone("storage types"),
              catalogs(CatalogRoutes::storageTypes)),
          route(
              "GET",
              CATALOG,
              "getCatalog",
              onCatalog(Privilege.CATALOG_READ_PROPERTIES),
              catalogs(CatalogRoutes::get)),
          route(
              "PUT",
              CATALOG,
              "updateCatalog",
              onCatalog(Privilege.CATALOG_WRITE_PROPERTIES),
              catalogs(CatalogRoutes::update)),
          route(
              "POST",
              CATALOG + "/verify",
              "verifyCatalog",
              onCatalog(Privilege.CATALOG_MANAGE_CONTENT),
              catalogs(CatalogRoutes::verify)),
          route(
              "DELETE",
              CATALOG,
              "deleteCatalog",
              serviceAdmin(x -> "catalog " + x.path("name")),
              catalogs(CatalogRoutes::delete)),
          // Principals
          route(
              "POST",
              PRINCIPALS,
              "createPrincipal",
              serviceAdmin("principals"),
              access(AccessRoutes::createPrincipal)),
          route(
              "GET",
              PRINCIPALS,
              "listPrincipals",
              serviceAdmin("principals"),
              access(AccessRoutes::listPrincipals)),
          route(
              "GET",
              PRINCIPAL,
              "getPrincipal",
              selfOrServiceAdmin(),
              access(AccessRoutes::getPrincipal)),
          route(
              "PUT",
              PRINCIPAL,
              "updatePrincipal",
              serviceAdmin(x -> x.path("principal")),
              access(AccessRoutes::updatePrincipal)),
          route(
              "DELETE",
              PRINCIPAL,
              "deletePrincipal",
              serviceAdmin(x -> x.path("principal")),
              access(AccessRoutes::deletePrincipal)),
          route(
              "POST",
              PRINCIPAL + "/rotate",
              "rotateCredentials",
              selfOrServiceAdmin(),
              access(AccessRoutes::rotateCredentials)),
          route(
              "GET",
              PRINCIPAL + "/principal-roles",
              "listPrincipalRolesOfPrincipal",
              selfOrServiceAdmin(),
              access(AccessRoutes::rolesOfPrincipal)),
          route(
              "PUT",
              PRINCIPAL + "/principal-roles",
              "assignPrincipalRole",
              serviceAdmin(x -> x.path("principal")),
              access(AccessRoutes::assignPrincipalRole)),
          route(
              "DELETE",
              PRINCIPAL + "/principal-roles/{role}",
              "revokePrincipalRole",
              serviceAdmin(x -> x.path("principal")),
              access(AccessRoutes::revokePrincipalRole)),
          // Principal roles
          route(
              "POST",
              PRINCIPAL_ROLES,
              "createPrincipalRole",
              serviceAdmin("principal-roles"),
              access(AccessRoutes::createPrincipalRole)),
          route(
              "GET",
              PRINCIPAL_ROLES,
              "listPrincipalRoles",
              serviceAdmin("principal-roles"),
              access(AccessRoutes::listPrincipalRoles)),
          route(
              "GET",
              PRINCIPAL_ROLE,
              "getPrincipalRole",
              serviceAdmin(x -> x.path("role")),
              access(AccessRoutes::getPrincipalRole)),
          route(
              "DELETE",
              PRINCIPAL_ROLE,
              "deletePrincipalRole",
              serviceAdmin(x -> x.path("role")),
              access(AccessRoutes::deletePrincipalRole)),
          route(
              "GET",
              PRINCIPAL_ROLE + "/principals",
              "listPrincipalsWithRole",
              serviceAdmin(x -> x.path("role")),
              access(AccessRoutes::principalsWithRole)),
          route(
              "GET",
              PRINCIPAL_ROLE + "/catalog-roles/{catalog}",
              "listCatalogRolesOfPrincipalRole",
              manageAccess(),
              access(AccessRoutes::catalogRolesOfPrincipalRole)),
          route(
              "PUT",
              PRINCIPAL_ROLE + "/catalog-roles/{catalog}",
              "grantCatalogRole",
              manageAccess(),
              access(AccessRoutes::assignCatalogRole)),
          route(
              "DELETE",
              PRINCIPAL_ROLE + "/catalog-roles/{catalog}/{catalogRole}",
              "revokeCatalogRole",
              manageAccess(),
              access(AccessRoutes::unassignCatalogRole)),
          // Catalog roles and grants
          route(
              "POST",
              CATALOG_ROLES,
              "createCatalogRole",
              manageAccess(),
              access(AccessRoutes::createCatalogRole)),
          route(
              "GET",
              CATALOG_ROLES,
              "listCatalogRoles",
              manageAccess(),
              access(AccessRoutes::catalogRoles)),
          route(
              "GET",
              CATALOG_ROLE,
              "getCatalogRole",
              manageAccess(),
              access(AccessRoutes::catalogRole)),
          route(
              "DELETE",
              CATALOG_ROLE,
              "deleteCatalogRole",
              manageAccess(),
              access(AccessRoutes::deleteCatalogRole)),
          route(
              "GET",
              CATALOG_ROLE + "/principal-roles",
              "listPrincipalRolesWithCatalogRole",
              manageAccess(),
              access(AccessRoutes::principalRolesWithCatalogRole)),
          route(
              "GET",
              CATALOG_ROLE + "/grants",
              "listGrants",
              manageAccess(),
              access(AccessRoutes::grants)),
          route(
              "PUT",
              CATALOG_ROLE + "/grants",
              "addGrant",
              manageAccess(),
              access(AccessRoutes::grant)),
          route(
              "POST",
              CATALOG_ROLE + "/grants",
              "revokeGrant",
              manageAccess(),
              access(AccessRoutes::revoke)),
          route(
              "GET",
              PrivilegeRoutes.PATH,
              "explainPrivileges",
              inHandler("the query is checked first, so a 400 tells nobody what exists"),
              privileges(PrivilegeRoutes::explain)),
          // Audit events and token signing keys
          route(
              "GET",
              BASE + "/events",
              "listEvents",
              inHandler("the catalogs whose access the caller manages narrow the answer"),
              access(AccessRoutes::events)),
          route(
              "POST",
              SIGNING_KEYS + "/rotate",
              "rotateSigningKey",
              serviceAdmin("signing-keys"),
              signingKeys(SigningKeyRoutes::rotate)),
          route(
              "GET",
              SIGNING_KEYS,
              "listSigningKeys",
              serviceAdmin("signing-keys"),
              signingKeys(SigningKeyRoutes::list)),
          route(
              "DELETE",
              SIGNING_KEYS + "/{kid}",
              "retireSigningKey",
              serviceAdmin(x -> "signing-key " + x.path("kid")),
              signingKeys(SigningKeyRoutes::retire)));

  /** The handlers the declarations are bound to. */
  public record Handlers(
      CatalogRoutes catalogs,
      AccessRoutes access,
      PrivilegeRoutes privileges,
      SigningKeyRoutes signingKeys) {
    public Handlers {
      requireNonNull(catalogs, "catalogs");
      requireNonNull(access, "access");
      requireNonNull(privileges, "privileges");
      requireNonNull(signingKeys, "signingKeys");
    }
  }

  private final ManagementAccess checks;
  private final Handlers handlers;

  public ManagementRoutes(ManagementAccess checks, Handlers handlers) {
    this.checks = requireNonNull(checks, "checks");
    this.handlers = requireNonNull(handlers, "handlers");
  }

  public void register(HttpServer.Routes routes) {
    mount(
        routes,
        declared ->
            x -> {
              Call call = new Call(x, x.caller(checks), declared.action());
              declared.guard().check().check(checks, call);
              return declared.handler().handle(handlers, call);
            });
  }

  /** Adds every declared route, handled by what {@code bind} makes of it. */
  static void mount(HttpServer.Routes routes, Function<Declared, RouteHandler> bind) {
    for (Declared declared : DECLARED) {
      routes.add(declared.method(), declared.path(), bind.apply(declared));
    }
  }

  /** One request to a management route: the exchange, its caller, and the route's action. */
  record Call(Exchange x, Caller caller, String action) {}

  /**
   * One management route: method, path, the action its audit events name, the check that guards it
   * and its handler.
   */
  record Declared(String method, String path, String action, Guard guard, Handler handler) {
    Declared {
      requireNonNull(method, "method");
      requireNonNull(path, "path");
      requireNonNull(action, "action");
      requireNonNull(guard, "guard");
      requireNonNull(handler, "handler");
    }
  }

  /**
   * Who may call a route, as the reference says it ({@code description}), and the check that holds
   * it, run before the handler.
   */
  record Guard(String description, Check check) {
    Guard {
      requireNonNull(description, "description");
      requireNonNull(check, "check");
    }

    /** True when the handler authorizes the call itself, once it has read what it needs. */
    boolean inHandler() {
      return description.startsWith(IN_HANDLER);
    }
  }

  @FunctionalInterface
  interface Check {
    void check(ManagementAccess checks, Call call);
  }

  /** A route's handler before it is bound to the handlers that serve it. */
  @FunctionalInterface
  interface Handler {
    Reply handle(Handlers handlers, Call call) throws Exception;
  }

  /** A handler method of one of the {@link Handlers}. */
  @FunctionalInterface
  interface On<T> {
    Reply handle(T target, Call call) throws Exception;
  }

  private static final String IN_HANDLER = "in the handler: ";

  private static Declared route(
      String method, String path, String action, Guard guard, Handler handler) {
    return new Declared(method, path, action, guard, handler);
  }

  private static Handler catalogs(On<CatalogRoutes> on) {
    return (handlers, call) -> on.handle(handlers.catalogs(), call);
  }

  private static Handler access(On<AccessRoutes> on) {
    return (handlers, call) -> on.handle(handlers.access(), call);
  }

  private static Handler privileges(On<PrivilegeRoutes> on) {
    return (handlers, call) -> on.handle(handlers.privileges(), call);
  }

  private static Handler signingKeys(On<SigningKeyRoutes> on) {
    return (handlers, call) -> on.handle(handlers.signingKeys(), call);
  }

  private static Guard serviceAdmin(String target) {
    return serviceAdmin(x -> target);
  }

  private static Guard serviceAdmin(Function<Exchange, String> target) {
    return new Guard(
        "the service admin",
        (checks, call) ->
            checks.serviceAdmin(call.caller(), call.action(), target.apply(call.x())));
  }

  private static Guard anyone(String target) {
    return new Guard(
        "any authenticated principal",
        (checks, call) -> checks.anyone(call.caller(), call.action(), target));
  }

  private static Guard selfOrServiceAdmin() {
    return new Guard(
        "the principal itself (with an unnarrowed token), or the service admin",
        (checks, call) ->
            checks.selfOrServiceAdmin(
                call.x().principal(), call.caller(), call.action(), call.x().path("principal")));
  }

  private static Guard manageAccess() {
    return new Guard(
        "CATALOG_MANAGE_ACCESS on {catalog}",
        (checks, call) ->
            checks.manageAccess(call.caller(), call.action(), call.x().path("catalog")));
  }

  private static Guard onCatalog(Privilege privilege) {
    return new Guard(
        privilege + " on {name}, or the service admin",
        (checks, call) ->
            checks.onCatalog(call.caller(), call.action(), call.x().path("name"), privilege));
  }

  private static Guard inHandler(String why) {
    return new Guard(IN_HANDLER + why, (checks, call) -> {});
  }
}
