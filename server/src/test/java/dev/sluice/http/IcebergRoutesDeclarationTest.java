package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.rest.Endpoint;
import org.junit.jupiter.api.Test;

/**
 * The Iceberg routes are declared once; {@code /v1/config}'s endpoints come from that declaration.
 * These checks go through the route table as the server builds it, with each handler answering with
 * the declaration it was mounted for.
 */
class IcebergRoutesDeclarationTest {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");
  private static final String TABLE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}";

  /**
   * Routes that are served but deliberately not advertised: config itself, and Sluice's own
   * extensions (not in the Iceberg spec).
   */
  private static final Set<String> NOT_ADVERTISED =
      Set.of(
          "GET /api/catalog/v1/config",
          "GET /api/catalog/v1/{prefix}/readable-table-locations",
          // Remote signing of a staged table or a scan plan: clients find these in its config.
          "POST " + TABLE + "/sign/{grant}",
          "POST " + TABLE + "/plan/{plan-id}/sign",
          // A staged table's refresh endpoint: clients find it in the stage-create answer's config.
          "GET " + TABLE + "/credentials/{grant}");

  private final List<Route> table = routeTable();

  private static List<Route> routeTable() {
    HttpServer.Routes routes = new HttpServer.Routes();
    IcebergRoutes.mount(routes, declared -> x -> Reply.ok(declared));
    return routes.build();
  }

  @Test
  void configAdvertisesEveryIcebergEndpoint() throws Exception {
    List<Endpoint> expected = new ArrayList<>();
    for (Field field : Endpoint.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == Endpoint.class) {
        expected.add((Endpoint) field.get(null));
      }
    }
    assertThat(expected).hasSize(30); // Iceberg 1.11: 30 endpoints
    assertThat(IcebergRoutes.ENDPOINTS).doesNotHaveDuplicates();
    assertThat(IcebergRoutes.ENDPOINTS).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void everyAdvertisedEndpointIsRoutedToItsDeclaration() throws Exception {
    for (Endpoint endpoint : IcebergRoutes.ENDPOINTS) {
      String template = IcebergRoutes.MOUNT + endpoint.path();
      Map<String, String> values = sampleValues(template);
      String path = fill(template, values);

      Route route = resolve(endpoint.httpMethod(), path);

      assertThat(route).as("%s %s", endpoint.httpMethod(), path).isNotNull();
      assertThat(route.authenticated()).as("%s", endpoint).isTrue();
      // Iceberg's placeholders bind by their own names, which the handlers read.
      assertThat(route.bind(Exchange.splitPath(path))).as("%s", endpoint).isEqualTo(values);
      IcebergRoutes.Declared declared =
          (IcebergRoutes.Declared) route.handler().handle(null).body();
      assertThat(declared.advertisedAs()).isEqualTo(endpoint);
    }
  }

  @Test
  void everyRouteNotAdvertisedIsAKnownException() throws Exception {
    Set<String> advertised =
        IcebergRoutes.ENDPOINTS.stream()
            .map(e -> e.httpMethod() + " " + IcebergRoutes.MOUNT + e.path())
            .collect(Collectors.toSet());
    Set<String> notAdvertised =
        table.stream()
            .map(r -> r.method() + " " + r.template())
            .filter(key -> !advertised.contains(key))
            .collect(Collectors.toSet());
    assertThat(notAdvertised).isEqualTo(NOT_ADVERTISED);

    for (Route route : table) {
      IcebergRoutes.Declared declared =
          (IcebergRoutes.Declared) route.handler().handle(null).body();
      boolean known = NOT_ADVERTISED.contains(route.method() + " " + route.template());
      assertThat(declared.advertisedAs() == null).as(route.template()).isEqualTo(known);
      // The exceptions are still routed: by method and a concrete path, to themselves.
      if (known) {
        String path = fill(route.template(), sampleValues(route.template()));
        assertThat(resolve(route.method(), path)).isSameAs(route);
      }
    }
  }

  @Test
  void noTwoDeclarationsCollide() {
    assertThat(table).hasSize(IcebergRoutes.DECLARED.size());
    for (int i = 0; i < table.size(); i++) {
      for (int j = i + 1; j < table.size(); j++) {
        Route a = table.get(i);
        Route b = table.get(j);
        assertThat(a.method().equals(b.method()) && overlap(a.segments(), b.segments()))
            .as("%s %s collides with %s", a.method(), a.template(), b.template())
            .isFalse();
      }
    }
  }

  @Test
  void theCollisionCheckSeesAPlaceholderShadowingALiteral() {
    // Guards the check above: /tables/rename and /tables/{table} would both take POST .../rename.
    assertThat(overlap(segments("/a/{prefix}/tables/rename"), segments("/a/{prefix}/tables/{t}")))
        .isTrue();
    assertThat(overlap(segments("/a/{prefix}/tables/rename"), segments("/a/{prefix}/views/rename")))
        .isFalse();
    assertThat(overlap(segments("/a/{prefix}"), segments("/a/{prefix}/tables"))).isFalse();
  }

  /** The first route that takes this method and path, as {@code HttpServer}'s dispatch picks. */
  private Route resolve(String method, String path) {
    List<String> segments = Exchange.splitPath(path);
    for (Route route : table) {
      if (route.matches(segments) && route.method().equals(method)) {
        return route;
      }
    }
    return null;
  }

  /** Whether some path matches both templates. */
  private static boolean overlap(List<String> a, List<String> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      String x = a.get(i);
      String y = b.get(i);
      if (!x.startsWith("{") && !y.startsWith("{") && !x.equals(y)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> segments(String template) {
    return Route.of("GET", template, true, x -> null).segments();
  }

  /** A distinct value per placeholder, none equal to a literal segment. */
  private static Map<String, String> sampleValues(String template) {
    Map<String, String> values = new LinkedHashMap<>();
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      values.put(m.group(1), "sample-" + m.group(1));
    }
    return values;
  }

  private static String fill(String template, Map<String, String> values) {
    return PLACEHOLDER.matcher(template).replaceAll(m -> values.get(m.group(1)));
  }
}
