package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.api.ActAsTargets;
import dev.sluice.api.Actions;
import dev.sluice.api.Catalog;
import dev.sluice.api.Catalogs;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.api.CreateCatalogRoleRequest;
import dev.sluice.api.CreatePrincipalRequest;
import dev.sluice.api.CreatePrincipalRoleRequest;
import dev.sluice.api.EffectivePrivileges;
import dev.sluice.api.Events;
import dev.sluice.api.GrantCatalogRoleRequest;
import dev.sluice.api.GrantPrincipalRoleRequest;
import dev.sluice.api.GrantRequest;
import dev.sluice.api.Grants;
import dev.sluice.api.ManagementJson;
import dev.sluice.api.NamespaceStorageIdentity;
import dev.sluice.api.Principal;
import dev.sluice.api.PrincipalWithCredentials;
import dev.sluice.api.Principals;
import dev.sluice.api.ReadRestriction;
import dev.sluice.api.Role;
import dev.sluice.api.Roles;
import dev.sluice.api.RotatedSigningKey;
import dev.sluice.api.SetReadRestrictionRequest;
import dev.sluice.api.SetStorageIdentityRequest;
import dev.sluice.api.SigningKeys;
import dev.sluice.api.StorageTypes;
import dev.sluice.api.TableReadRestrictions;
import dev.sluice.api.UpdateCatalogRequest;
import dev.sluice.api.UpdatePrincipalRequest;
import dev.sluice.api.VerificationReport;
import dev.sluice.api.VerifyCatalogRequest;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Privilege;
import dev.sluice.management.ManagementAccess;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The management API under {@code /api/management/v1}, in Apache Polaris's JSON shape: every route
 * declared once ({@link #DECLARED}) with the action its audit events name and the check that guards
 * it. The checks are decided in {@link ManagementAccess}, below HTTP, and run before a body is
 * read; the handlers ({@link CatalogRoutes}, {@link NamespaceIdentityRoutes}, {@link
 * ReadRestrictionRoutes}, {@link AccessRoutes}, {@link PrivilegeRoutes}, {@link SigningKeyRoutes})
 * only read the request, call {@code dev.sluice.management} and write the reply.
 */
public final class ManagementRoutes {
  static final String BASE = "/api/management/v1";
  private static final String CATALOGS = BASE + "/catalogs";
  private static final String CATALOG = CATALOGS + "/{name}";
  private static final String PRINCIPALS = BASE + "/principals";
  private static final String PRINCIPAL = PRINCIPALS + "/{principal}";
  private static final String PRINCIPAL_ROLES = BASE + "/principal-roles";
  private static final String PRINCIPAL_ROLE = PRINCIPAL_ROLES + "/{role}";
  private static final String ACT_AS = PRINCIPAL_ROLE + "/act-as";
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
                  catalogs(CatalogRoutes::create))
              .takes(CreateCatalogRequest.class)
              .answers(201, Catalog.class),
          route("GET", CATALOGS, "listCatalogs", anyone("catalogs"), catalogs(CatalogRoutes::list))
              .answers(200, Catalogs.class),
          route(
                  "GET",
                  BASE + "/storage-types",
                  "listStorageTypes",
                  anyone("storage types"),
                  catalogs(CatalogRoutes::storageTypes))
              .answers(200, StorageTypes.class),
          route(
                  "GET",
                  CATALOG,
                  "getCatalog",
                  onCatalog(Privilege.CATALOG_READ_PROPERTIES),
                  catalogs(CatalogRoutes::get))
              .answers(200, Catalog.class),
          route(
                  "PUT",
                  CATALOG,
                  "updateCatalog",
                  onCatalog(Privilege.CATALOG_WRITE_PROPERTIES),
                  catalogs(CatalogRoutes::update))
              .takes(UpdateCatalogRequest.class)
              .answers(200, Catalog.class),
          route(
                  "POST",
                  CATALOG + "/verify",
                  "verifyCatalog",
                  onCatalog(Privilege.CATALOG_MANAGE_CONTENT),
                  catalogs(CatalogRoutes::verify))
              .takes(VerifyCatalogRequest.class)
              .answers(200, VerificationReport.class),
          route(
                  "DELETE",
                  CATALOG,
                  "deleteCatalog",
                  serviceAdmin(x -> "catalog " + x.path("name")),
                  catalogs(CatalogRoutes::delete))
              .answers(204),
          // A namespace's storage identity (the namespace %1F-separated, as in Iceberg's REST API)
          route(
                  "GET",
                  NamespaceIdentityRoutes.PATH,
                  "getNamespaceStorageIdentity",
                  serviceAdmin(NamespaceIdentityRoutes::target),
                  namespaceIdentities(NamespaceIdentityRoutes::get))
              .answers(200, NamespaceStorageIdentity.class),
          route(
                  "PUT",
                  NamespaceIdentityRoutes.PATH,
                  "setNamespaceStorageIdentity",
                  serviceAdmin(NamespaceIdentityRoutes::target),
                  namespaceIdentities(NamespaceIdentityRoutes::set))
              .takes(SetStorageIdentityRequest.class)
              .answers(200, NamespaceStorageIdentity.class),
          route(
                  "DELETE",
                  NamespaceIdentityRoutes.PATH,
                  "clearNamespaceStorageIdentity",
                  serviceAdmin(NamespaceIdentityRoutes::target),
                  namespaceIdentities(NamespaceIdentityRoutes::clear))
              .answers(204),
          // A table's read restrictions per principal role (the namespace %1F-separated)
          route(
                  "GET",
                  ReadRestrictionRoutes.PATH,
                  "listTableReadRestrictions",
                  manageAccess(),
                  readRestrictions(ReadRestrictionRoutes::list))
              .answers(200, TableReadRestrictions.class),
          route(
                  "PUT",
                  ReadRestrictionRoutes.ROLE_PATH,
                  "setTableReadRestriction",
                  manageAccess(),
                  readRestrictions(ReadRestrictionRoutes::set))
              .takes(SetReadRestrictionRequest.class)
              .answers(200, ReadRestriction.class),
          route(
                  "DELETE",
                  ReadRestrictionRoutes.ROLE_PATH,
                  "removeTableReadRestriction",
                  manageAccess(),
                  readRestrictions(ReadRestrictionRoutes::remove))
              .answers(204),
          // Principals
          route(
                  "POST",
                  PRINCIPALS,
                  "createPrincipal",
                  serviceAdmin("principals"),
                  access(AccessRoutes::createPrincipal))
              .takes(CreatePrincipalRequest.class)
              .answers(201, PrincipalWithCredentials.class),
          route(
                  "GET",
                  PRINCIPALS,
                  "listPrincipals",
                  serviceAdmin("principals"),
                  access(AccessRoutes::listPrincipals))
              .answers(200, Principals.class),
          route(
                  "GET",
                  PRINCIPAL,
                  "getPrincipal",
                  selfOrServiceAdmin(),
                  access(AccessRoutes::getPrincipal))
              .answers(200, Principal.class),
          route(
                  "PUT",
                  PRINCIPAL,
                  "updatePrincipal",
                  serviceAdmin(x -> x.path("principal")),
                  access(AccessRoutes::updatePrincipal))
              .takes(UpdatePrincipalRequest.class)
              .answers(200, Principal.class),
          route(
                  "DELETE",
                  PRINCIPAL,
                  "deletePrincipal",
                  serviceAdmin(x -> x.path("principal")),
                  access(AccessRoutes::deletePrincipal))
              .answers(204),
          route(
                  "POST",
                  PRINCIPAL + "/rotate",
                  "rotateCredentials",
                  selfOrServiceAdmin(),
                  access(AccessRoutes::rotateCredentials))
              .answers(200, PrincipalWithCredentials.class),
          route(
                  "GET",
                  PRINCIPAL + "/principal-roles",
                  "listPrincipalRolesOfPrincipal",
                  selfOrServiceAdmin(),
                  access(AccessRoutes::rolesOfPrincipal))
              .answers(200, Roles.class),
          route(
                  "PUT",
                  PRINCIPAL + "/principal-roles",
                  "assignPrincipalRole",
                  serviceAdmin(x -> x.path("principal")),
                  access(AccessRoutes::assignPrincipalRole))
              .takes(GrantPrincipalRoleRequest.class)
              .answers(201),
          route(
                  "DELETE",
                  PRINCIPAL + "/principal-roles/{role}",
                  "revokePrincipalRole",
                  serviceAdmin(x -> x.path("principal")),
                  access(AccessRoutes::revokePrincipalRole))
              .answers(204),
          // Principal roles
          route(
                  "POST",
                  PRINCIPAL_ROLES,
                  "createPrincipalRole",
                  serviceAdmin("principal-roles"),
                  access(AccessRoutes::createPrincipalRole))
              .takes(CreatePrincipalRoleRequest.class)
              .answers(201, Role.class),
          route(
                  "GET",
                  PRINCIPAL_ROLES,
                  "listPrincipalRoles",
                  serviceAdmin("principal-roles"),
                  access(AccessRoutes::listPrincipalRoles))
              .answers(200, Roles.class),
          route(
                  "GET",
                  PRINCIPAL_ROLE,
                  "getPrincipalRole",
                  serviceAdmin(x -> x.path("role")),
                  access(AccessRoutes::getPrincipalRole))
              .answers(200, Role.class),
          route(
                  "DELETE",
                  PRINCIPAL_ROLE,
                  "deletePrincipalRole",
                  serviceAdmin(x -> x.path("role")),
                  access(AccessRoutes::deletePrincipalRole))
              .answers(204),
          route(
                  "GET",
                  PRINCIPAL_ROLE + "/principals",
                  "listPrincipalsWithRole",
                  serviceAdmin(x -> x.path("role")),
                  access(AccessRoutes::principalsWithRole))
              .answers(200, Principals.class),
          route(
                  "GET",
                  PRINCIPAL_ROLE + "/catalog-roles/{catalog}",
                  "listCatalogRolesOfPrincipalRole",
                  manageAccess(),
                  access(AccessRoutes::catalogRolesOfPrincipalRole))
              .answers(200, Roles.class),
          route(
                  "PUT",
                  PRINCIPAL_ROLE + "/catalog-roles/{catalog}",
                  "grantCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::assignCatalogRole))
              .takes(GrantCatalogRoleRequest.class)
              .answers(201),
          route(
                  "DELETE",
                  PRINCIPAL_ROLE + "/catalog-roles/{catalog}/{catalogRole}",
                  "revokeCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::unassignCatalogRole))
              .answers(204),
          // PRINCIPAL_ACT_AS: which principal roles a role's holders may act for (delegated tokens)
          route(
                  "GET",
                  ACT_AS,
                  "listActAsTargets",
                  serviceAdmin(x -> "principal-role " + x.path("role")),
                  access(AccessRoutes::actAsTargets))
              .answers(200, ActAsTargets.class),
          route(
                  "PUT",
                  ACT_AS + "/{targetRole}",
                  "grantActAs",
                  serviceAdmin(ManagementRoutes::actAsTarget),
                  access(AccessRoutes::grantActAs))
              .answers(204),
          route(
                  "DELETE",
                  ACT_AS + "/{targetRole}",
                  "revokeActAs",
                  serviceAdmin(ManagementRoutes::actAsTarget),
                  access(AccessRoutes::revokeActAs))
              .answers(204),
          // Catalog roles and grants
          route(
                  "POST",
                  CATALOG_ROLES,
                  "createCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::createCatalogRole))
              .takes(CreateCatalogRoleRequest.class)
              .answers(201, Role.class),
          route(
                  "GET",
                  CATALOG_ROLES,
                  "listCatalogRoles",
                  manageAccess(),
                  access(AccessRoutes::catalogRoles))
              .answers(200, Roles.class),
          route(
                  "GET",
                  CATALOG_ROLE,
                  "getCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::catalogRole))
              .answers(200, Role.class),
          route(
                  "DELETE",
                  CATALOG_ROLE,
                  "deleteCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::deleteCatalogRole))
              .answers(204),
          route(
                  "GET",
                  CATALOG_ROLE + "/principal-roles",
                  "listPrincipalRolesWithCatalogRole",
                  manageAccess(),
                  access(AccessRoutes::principalRolesWithCatalogRole))
              .answers(200, Roles.class),
          route(
                  "GET",
                  CATALOG_ROLE + "/grants",
                  "listGrants",
                  manageAccess(),
                  access(AccessRoutes::grants))
              .answers(200, Grants.class),
          route(
                  "PUT",
                  CATALOG_ROLE + "/grants",
                  "addGrant",
                  manageAccess(),
                  access(AccessRoutes::grant))
              .takes(GrantRequest.class)
              .answers(201),
          route(
                  "POST",
                  CATALOG_ROLE + "/grants",
                  "revokeGrant",
                  manageAccess(),
                  access(AccessRoutes::revoke))
              .takes(GrantRequest.class)
              .answers(201),
          route(
                  "GET",
                  PrivilegeRoutes.PATH,
                  "explainPrivileges",
                  inHandler("the query is checked first, so a 400 tells nobody what exists"),
                  privileges(PrivilegeRoutes::explain))
              .answers(200, EffectivePrivileges.class),
          route(
                  "GET",
                  BASE + "/actions",
                  "getActions",
                  anyone("actions"),
                  privileges(PrivilegeRoutes::actions))
              .answers(200, Actions.class),
          route(
                  "GET",
                  CATALOG + "/actions",
                  "getCatalogActions",
                  anyone("catalog actions"),
                  privileges(PrivilegeRoutes::catalogActions))
              .answers(200, Actions.class),
          // Audit events and token signing keys
          route(
                  "GET",
                  BASE + "/events",
                  "listEvents",
                  inHandler("the catalogs whose access the caller manages narrow the answer"),
                  access(AccessRoutes::events))
              .answers(200, Events.class),
          route(
                  "POST",
                  SIGNING_KEYS + "/rotate",
                  "rotateSigningKey",
                  serviceAdmin("signing-keys"),
                  signingKeys(SigningKeyRoutes::rotate))
              .answers(200, RotatedSigningKey.class),
          route(
                  "GET",
                  SIGNING_KEYS,
                  "listSigningKeys",
                  serviceAdmin("signing-keys"),
                  signingKeys(SigningKeyRoutes::list))
              .answers(200, SigningKeys.class),
          route(
                  "DELETE",
                  SIGNING_KEYS + "/{kid}",
                  "retireSigningKey",
                  serviceAdmin(x -> "signing-key " + x.path("kid")),
                  signingKeys(SigningKeyRoutes::retire))
              .answers(204));

  /** The handlers the declarations are bound to. */
  public record Handlers(
      CatalogRoutes catalogs,
      AccessRoutes access,
      PrivilegeRoutes privileges,
      SigningKeyRoutes signingKeys,
      NamespaceIdentityRoutes namespaceIdentities,
      ReadRestrictionRoutes readRestrictions) {
    public Handlers {
      requireNonNull(readRestrictions, "readRestrictions");
      requireNonNull(namespaceIdentities, "namespaceIdentities");
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
    new ApiDocument().register(routes);
    mount(
        routes,
        declared ->
            x -> {
              Call call = new Call(x, x.caller(checks), declared.action(), declared.request());
              declared.guard().check().check(checks, call);
              return declared.checkedReply(declared.handler().handle(handlers, call));
            });
  }

  /** Adds every declared route, handled by what {@code bind} makes of it. */
  static void mount(HttpServer.Routes routes, Function<Declared, RouteHandler> bind) {
    for (Declared declared : DECLARED) {
      routes.add(declared.method(), declared.path(), bind.apply(declared));
    }
  }

  /**
   * One request to a management route: the exchange, its caller, the route's action and the type
   * its body binds to ({@code Void} for none).
   */
  record Call(Exchange x, Caller caller, String action, Class<?> requestType) {
    /**
     * The body as the route's declared request record, strictly: an unknown, missing or mistyped
     * field is a 400 naming it.
     */
    <T> T body(Class<T> type) {
      if (type != requestType) {
        throw new IllegalStateException(action + " declares " + requestType + ", read as " + type);
      }
      try {
        return ManagementJson.read(x.body(), type);
      } catch (ManagementJson.ContractViolation e) {
        throw new BadRequestException("%s", e.getMessage());
      }
    }
  }

  /**
   * One management route: method, path, the action its audit events name, the check that guards it
   * and its handler.
   */
  record Declared(
      String method,
      String path,
      String action,
      Guard guard,
      Handler handler,
      Class<?> request,
      int status,
      Class<?> response) {
    Declared {
      requireNonNull(method, "method");
      requireNonNull(path, "path");
      requireNonNull(action, "action");
      requireNonNull(guard, "guard");
      requireNonNull(handler, "handler");
      requireNonNull(request, "request");
      requireNonNull(response, "response");
    }

    /** This route, reading its body as {@code type} (a record of {@code dev.sluice.api}). */
    Declared takes(Class<?> type) {
      return new Declared(method, path, action, guard, handler, type, status, response);
    }

    /** This route, answering {@code status} with no body. */
    Declared answers(int status) {
      return answers(status, Void.class);
    }

    /** This route, answering {@code status} with a {@code type} (a record of dev.sluice.api). */
    Declared answers(int status, Class<?> type) {
      return new Declared(method, path, action, guard, handler, request, status, type);
    }

    /**
     * {@code reply}, when it is what this route declares (its status, and a body of its type or
     * none): the declaration is what the API reference and the contract test read, so a handler
     * that strays from it is a bug, never an answer.
     */
    Reply checkedReply(Reply reply) {
      Object body = reply.body();
      boolean typed = response == Void.class ? body == null : response.isInstance(body);
      if (reply.status() != status || !typed) {
        throw new IllegalStateException(
            action
                + " declares "
                + status
                + " "
                + response.getSimpleName()
                + ", answered "
                + reply.status()
                + " "
                + (body == null ? "nothing" : body.getClass().getSimpleName()));
      }
      return reply;
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
    return new Declared(method, path, action, guard, handler, Void.class, 200, Void.class);
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

  private static Handler namespaceIdentities(On<NamespaceIdentityRoutes> on) {
    return (handlers, call) -> on.handle(handlers.namespaceIdentities(), call);
  }

  private static Handler readRestrictions(On<ReadRestrictionRoutes> on) {
    return (handlers, call) -> on.handle(handlers.readRestrictions(), call);
  }

  private static Handler signingKeys(On<SigningKeyRoutes> on) {
    return (handlers, call) -> on.handle(handlers.signingKeys(), call);
  }

  /** What a PRINCIPAL_ACT_AS change's audit event names. */
  private static String actAsTarget(Exchange x) {
    return "principal-role " + x.path("role") + " act-as " + x.path("targetRole");
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
