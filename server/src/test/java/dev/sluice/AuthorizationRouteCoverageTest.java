package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.http.HttpServer.RouteInfo;
import dev.sluice.testing.TestServer;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The authorization matrix is derived from the route table the running server dispatches on: every
 * route that takes a bearer token must be reached by a row of {@link AuthorizationMatrixTest},
 * {@link ViewAuthorizationMatrixTest} or {@link ManagementAuthorizationMatrixTest} (a case whose
 * call the server routes there), or be listed below with the test that holds its authorization or
 * the reason it has none. A route added without either fails this test.
 */
class AuthorizationRouteCoverageTest {
  private static final String M = "/api/management/v1";
  private static final String TABLE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}";
  private static final String READ_RESTRICTIONS =
      "/catalogs/{catalog}/namespaces/{namespace}/tables/{table}/read-restrictions";

  /**
   * Authenticated routes whose authorization is not matrix-shaped (a filtered answer, never 403; or
   * it needs a real S3 store: signing, the storage self-check), with the test that holds it, as
   * {@code Class#method}.
   */
  static final Map<String, String> TESTED_ELSEWHERE =
      Map.ofEntries(
          Map.entry(
              "GET " + M + "/catalogs", "RbacBehaviourTest#listingsShowOnlyWhatTheCallerMaySee"),
          Map.entry(
              "GET /api/catalog/v1/{prefix}/readable-table-locations",
              "ReadableTableLocationsTest#tableReadPropertiesListAndViewsShowNothing"),
          Map.entry(
              "POST " + TABLE + "/sign",
              "S3RemoteSigningTest#aReadersWritesAndDeletesAreRefusedBySluiceBeforeTheyReachRgw"),
          Map.entry(
              "POST " + TABLE + "/sign/{grant}",
              "S3RemoteSigningTest#aStagedTablesGrantServesOnlyItsPrincipalItsTableAndFreeLocations"),
          Map.entry(
              "POST " + TABLE + "/plan", "ScanPlanningTest#aPlanIsOnlyItsOwnersOnItsOwnTable"),
          Map.entry(
              "GET " + TABLE + "/plan/{plan-id}",
              "ScanPlanningTest#aPlanIsOnlyItsOwnersOnItsOwnTable"),
          Map.entry(
              "DELETE " + TABLE + "/plan/{plan-id}",
              "ScanPlanningTest#aPlanIsOnlyItsOwnersOnItsOwnTable"),
          Map.entry(
              "POST " + TABLE + "/tasks", "ScanPlanningTest#aPlanIsOnlyItsOwnersOnItsOwnTable"),
          Map.entry(
              "POST " + TABLE + "/plan/{plan-id}/sign",
              "ScanPlanVendingRgwTest#signingServesOnlyReadsOfThePlansFiles"),
          Map.entry(
              "GET " + TABLE + "/credentials/{grant}",
              "S3StagedRefreshTest#privilegesRevokedBetweenStageAndRefreshNarrowOrRefuseTheNextRefresh"),
          Map.entry(
              "POST " + M + "/catalogs/{name}/verify",
              "StorageVerifyTest#onlyTheServiceAdminOrCatalogManageContentMayVerify"),
          Map.entry(
              "GET " + M + "/storage-types",
              "ManagementApiTest#storageTypesListEachBackendsFormFields"),
          Map.entry(
              "GET " + M + "/actions", "CallerActionsTest#serviceActionsAreWhatTheCallsAllow"),
          Map.entry(
              "GET " + M + "/catalogs/{name}/actions",
              "CallerActionsTest#catalogActionsAreWhatTheCallsAllow"),
          Map.entry(
              "GET " + M + "/catalogs/{catalog}/namespaces/{namespace}/storage-identity",
              "NamespaceStorageIdentityTest#onlyTheServiceAdminMaySeeSetOrClearAnIdentity"),
          Map.entry(
              "PUT " + M + "/catalogs/{catalog}/namespaces/{namespace}/storage-identity",
              "NamespaceStorageIdentityTest#onlyTheServiceAdminMaySeeSetOrClearAnIdentity"),
          Map.entry(
              "DELETE " + M + "/catalogs/{catalog}/namespaces/{namespace}/storage-identity",
              "NamespaceStorageIdentityTest#onlyTheServiceAdminMaySeeSetOrClearAnIdentity"),
          Map.entry(
              "GET " + M + READ_RESTRICTIONS,
              "ReadRestrictionAdminTest#aManagerSetsListsAndRemovesAReaderMayNot"),
          Map.entry(
              "PUT " + M + READ_RESTRICTIONS + "/{principalRole}",
              "ReadRestrictionAdminTest#aManagerSetsListsAndRemovesAReaderMayNot"),
          Map.entry(
              "DELETE " + M + READ_RESTRICTIONS + "/{principalRole}",
              "ReadRestrictionAdminTest#aManagerSetsListsAndRemovesAReaderMayNot"));

  /** Authenticated routes with nothing to authorize, and why. */
  static final Map<String, String> NOTHING_TO_AUTHORIZE = Map.of();

  /** Routes that take no bearer token, and why. */
  static final Map<String, String> PUBLIC =
      Map.of(
          "GET /healthz",
          "liveness; says nothing about the catalog",
          "GET /readyz",
          "readiness: whether the database answers",
          "GET /metrics",
          "counters and timings, no names of tables or principals",
          "POST /api/catalog/v1/oauth/tokens",
          "where a token is had: the client's credentials",
          "GET /",
          "a redirect to the console",
          "GET /ui",
          "the console's page: static, the same for everyone",
          "GET /ui/{asset}",
          "the console's script, stylesheet and icon: static",
          "GET " + M + "/openapi.yaml",
          "the management API's OpenAPI document: static",
          "GET " + M + "/openapi.json",
          "the same document as JSON: static");

  private static TestServer server;
  private static List<RouteInfo> routes;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.startH2();
    routes = server.server().routes();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String key(RouteInfo route) {
    return route.method() + " " + route.template();
  }

  /** Every matrix row as "name: METHOD path", its placeholders filled with sample values. */
  private static Map<String, String[]> matrixCalls() {
    Map<String, String[]> calls = new LinkedHashMap<>();
    AuthorizationMatrixFixture.Catalog sample =
        new AuthorizationMatrixFixture.Catalog("c", "m", "vm");
    Stream.concat(AuthorizationMatrixTest.cases(), ViewAuthorizationMatrixTest.cases())
        .forEach(c -> calls.put(c.name(), new String[] {c.method(), sample.url(c.path())}));
    ManagementAuthorizationMatrixTest.cases()
        .forEach(c -> calls.put(c.name(), new String[] {c.method(), M + c.path()}));
    calls.replaceAll((name, call) -> new String[] {call[0], call[1].replaceAll("\\{\\w+}", "x1")});
    return calls;
  }

  /** The route the server dispatches {@code method path} to (the first match), or null. */
  private static RouteInfo route(String method, String path) {
    List<String> segments = Arrays.asList(path.split("\\?")[0].substring(1).split("/", -1));
    for (RouteInfo route : routes) {
      List<String> template = Arrays.asList(route.template().substring(1).split("/"));
      if (route.method().equals(method) && fits(template, segments)) {
        return route;
      }
    }
    return null;
  }

  private static boolean fits(List<String> template, List<String> segments) {
    if (template.size() != segments.size()) {
      return false;
    }
    for (int i = 0; i < template.size(); i++) {
      String t = template.get(i);
      String s = segments.get(i);
      if (t.startsWith("{") ? s.isEmpty() : !t.equals(s)) {
        return false;
      }
    }
    return true;
  }

  /** Route key → the matrix rows that reach it. */
  private static Map<String, Set<String>> rowsByRoute() {
    Map<String, Set<String>> rows = new LinkedHashMap<>();
    matrixCalls()
        .forEach(
            (name, call) -> {
              RouteInfo route = route(call[0], call[1]);
              assertThat(route)
                  .as("row %s: %s %s reaches no route", name, call[0], call[1])
                  .isNotNull();
              rows.computeIfAbsent(key(route), k -> new TreeSet<>()).add(name);
            });
    return rows;
  }

  @Test
  void everyAuthenticatedRouteHasAMatrixRowOrIsListedWithItsTestOrReason() {
    Map<String, Set<String>> rows = rowsByRoute();
    Set<String> uncovered =
        routes.stream()
            .filter(RouteInfo::authenticated)
            .map(AuthorizationRouteCoverageTest::key)
            .filter(k -> !rows.containsKey(k))
            .filter(k -> !TESTED_ELSEWHERE.containsKey(k) && !NOTHING_TO_AUTHORIZE.containsKey(k))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(uncovered).as("routes without a row in an authorization matrix").isEmpty();
  }

  @Test
  void theListsNameRoutesThatExistAndNoneAMatrixAlreadyCovers() {
    Map<String, Set<String>> rows = rowsByRoute();
    Set<String> authenticated =
        routes.stream()
            .filter(RouteInfo::authenticated)
            .map(AuthorizationRouteCoverageTest::key)
            .collect(Collectors.toSet());
    Set<String> open =
        routes.stream()
            .filter(r -> !r.authenticated())
            .map(AuthorizationRouteCoverageTest::key)
            .collect(Collectors.toSet());
    assertThat(open).as("routes that take no token").isEqualTo(PUBLIC.keySet());
    for (Map<String, String> listed : List.of(TESTED_ELSEWHERE, NOTHING_TO_AUTHORIZE)) {
      assertThat(authenticated).containsAll(listed.keySet());
      assertThat(listed.keySet()).doesNotContainAnyElementsOf(rows.keySet());
    }
  }

  @Test
  void theTestsNamedForTheListedRoutesExist() throws Exception {
    for (String test : TESTED_ELSEWHERE.values()) {
      String[] at = test.split("#");
      Class<?> type = Class.forName("dev.sluice." + at[0]);
      List<Method> methods =
          Arrays.stream(type.getDeclaredMethods())
              .filter(m -> m.getName().equals(at[1]))
              .filter(
                  m ->
                      m.isAnnotationPresent(Test.class)
                          || m.isAnnotationPresent(ParameterizedTest.class))
              .toList();
      assertThat(methods).as(test).isNotEmpty();
    }
  }
}
