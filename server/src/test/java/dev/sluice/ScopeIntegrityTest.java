package dev.sluice;

import static dev.sluice.testing.ScopeFixture.assertOk;
import static dev.sluice.testing.ScopeFixture.commitBody;
import static dev.sluice.testing.ScopeFixture.createBody;
import static dev.sluice.testing.ScopeFixture.json;
import static dev.sluice.testing.ScopeFixture.setProperties;
import static dev.sluice.testing.ScopeFixture.viewBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.ScopeFixture;
import dev.sluice.testing.TestServer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An attacker with ordinary grants on its own namespace tries, through the REST API, to make Sluice
 * place its tables and views over another table's files, outside its namespace or outside the
 * warehouse: by create, stage-create, rename and view create, with the location spelled every way
 * that names the same place (commits, transactions, staged creates' commits and view replaces are
 * in {@link ScopeIntegrityCommitTest}, over the same targets). Each attack must be refused (403 for
 * a location rule, a well-formed ErrorResponse) and change nothing, neither in the store nor on
 * disk. Positive controls show the same calls work inside the attacker's own area. Register,
 * namespaces, names and server-side deletes are in {@link ScopeIntegrityFilesTest}; both set up the
 * scene of {@link ScopeFixture}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScopeIntegrityTest {
  static final Set<Integer> FORBIDDEN = Set.of(403);

  /** Every table property that names a place, as the server's location policy knows them. */
  static final List<String> LOCATION_PROPERTIES = LocationPolicy.LOCATION_PROPERTIES;

  protected ScopeFixture fx;

  @BeforeAll
  void start() throws Exception {
    fx = new ScopeFixture(startSluice());
  }

  /** The store under test: an H2 file here; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice() throws Exception {
    return TestServer.startH2();
  }

  @AfterAll
  void stop() throws Exception {
    fx.close();
  }

  /** A named target location, computed from the fixture, and the statuses its refusal may have. */
  record Target(String name, Function<ScopeFixture, String> location, Set<Integer> statuses) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Target at(String name) {
    return new Target(name, fx -> fx.at(name), FORBIDDEN);
  }

  static Target spelled(String name, Function<ScopeFixture, String> location) {
    return new Target(name, location, FORBIDDEN);
  }

  static String path(String location) {
    return ScopeFixture.localPath(location).toString();
  }

  /** Every place an attacker's table must not be put, in every spelling. */
  static Stream<Target> targets() {
    return Stream.of(
        at("storage root"),
        at("warehouse root"),
        at("catalog base"),
        at("victim namespace"),
        at("victim.t1"),
        at("victim.v"),
        at("outside"),
        at("outside secret"),
        at("attacker namespace"),
        at("attacker.own"),
        at("attacker.own2"),
        spelled("inside victim.t1", fx -> fx.at("victim.t1") + "/data/x"),
        spelled("inside attacker.own", fx -> fx.at("attacker.own") + "/sub"),
        spelled("victim.t1 with trailing slash", fx -> fx.at("victim.t1") + "/"),
        spelled("victim.t1 with a trailing dot", fx -> fx.at("victim.t1") + "."),
        spelled("victim.t1 with a trailing space", fx -> fx.at("victim.t1") + " "),
        spelled("victim.t1 with a trailing %20", fx -> fx.at("victim.t1") + "%20"),
        spelled("victim.t1 as file:///", fx -> "file://" + path(fx.at("victim.t1"))),
        spelled("victim.t1 as file:////", fx -> "file:///" + path(fx.at("victim.t1"))),
        spelled("victim.t1 as bare path", fx -> path(fx.at("victim.t1"))),
        spelled(
            "victim.t1 with doubled slashes",
            fx -> fx.at("victim.t1").replace("/victim/", "//victim//")),
        spelled("victim.t1 with upper-case scheme", fx -> "FILE:" + path(fx.at("victim.t1"))),
        spelled(
            "victim.t1 via localhost authority",
            fx -> "file://localhost" + path(fx.at("victim.t1"))),
        spelled("victim.t1 via another authority", fx -> "file://evil" + path(fx.at("victim.t1"))),
        spelled("victim namespace in upper case", fx -> fx.at("catalog base") + "/VICTIM/t1"),
        spelled("victim.t1 via ..", fx -> fx.at("attacker namespace") + "/../victim/t1"),
        spelled("victim.t1 via x/../..", fx -> fx.at("attacker namespace") + "/x/../../victim/t1"),
        spelled("victim.t1 via %2E%2E", fx -> fx.at("attacker namespace") + "/%2E%2E/victim/t1"),
        spelled(
            "victim.t1 via %2e%2e lower case",
            fx -> fx.at("attacker namespace") + "/%2e%2e/victim/t1"),
        spelled(
            "victim.t1 via %252E%252E",
            fx -> fx.at("attacker namespace") + "/%252E%252E/victim/t1"),
        spelled(
            "victim.t1 via %2F", fx -> fx.at("attacker namespace") + "/x%2F..%2F..%2Fvictim%2Ft1"),
        spelled("victim.t1 via ./", fx -> fx.at("attacker namespace") + "/./../victim/t1"),
        spelled(
            "outside via %2E%2E from attacker",
            fx -> fx.at("attacker namespace") + "/%2E%2E/%2E%2E/%2E%2E/outside/x"));
  }

  static Stream<Arguments> createTargets() {
    return targets().flatMap(t -> Stream.of(Arguments.of(t, false), Arguments.of(t, true)));
  }

  // ------------------------------------------------------------------ create / stage-create

  @ParameterizedTest(name = "create at {0} (stage-create: {1})")
  @MethodSource("createTargets")
  void createAtForeignLocationIsRefused(Target target, boolean stage) throws Exception {
    String location = target.location().apply(fx);
    JsonNode error =
        fx.refusedAndUnchanged(
            target.statuses(),
            () ->
                fx.asAttacker(
                    "POST",
                    fx.api(fx.a) + "/namespaces/attacker/tables",
                    createBody(fx.fresh("evil"), location, Map.of(), stage)));
    assertThat(error.get("message").asText()).containsIgnoringCase("location");
  }

  static Stream<Arguments> propertyTargets() {
    return LOCATION_PROPERTIES.stream()
        .flatMap(
            p ->
                Stream.of(
                    Arguments.of(p, at("victim.t1"), false),
                    Arguments.of(p, at("outside secret"), false),
                    Arguments.of(p, at("warehouse root"), false),
                    Arguments.of(p, at("attacker namespace"), false),
                    Arguments.of(
                        p,
                        spelled(
                            "victim.t1 via %2E%2E",
                            fx -> fx.at("attacker namespace") + "/%2E%2E/victim/t1"),
                        false),
                    Arguments.of(p, at("victim.t1"), true)));
  }

  @ParameterizedTest(name = "create with {0} at {1} (stage-create: {2})")
  @MethodSource("propertyTargets")
  void createWithForeignLocationPropertyIsRefused(String property, Target target, boolean stage)
      throws Exception {
    String location = target.location().apply(fx);
    fx.refusedAndUnchanged(
        target.statuses(),
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(fx.fresh("evil"), null, Map.of(property, location), stage)));
  }

  // ------------------------------------------------------------------ rename

  @Test
  void renameIntoVictimNamespaceIsRefusedAndTheLocationStays() throws Exception {
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/tables/rename",
                json(
                    Map.of(
                        "source",
                        Map.of("namespace", List.of("attacker"), "name", "own"),
                        "destination",
                        Map.of("namespace", List.of("victim"), "name", "own")))));
  }

  @Test
  void renameWithinOwnNamespaceKeepsItsOwnLocation() throws Exception {
    String name = fx.fresh("moving");
    JsonNode created =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(name, null, Map.of(), false)));
    String location = created.get("metadata").get("location").asText();
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/tables/rename",
            json(
                Map.of(
                    "source",
                    Map.of("namespace", List.of("attacker"), "name", name),
                    "destination",
                    Map.of("namespace", List.of("attacker"), "name", name + "_renamed")))));
    JsonNode loaded =
        assertOk(
            fx.asAttacker(
                "GET", fx.api(fx.a) + "/namespaces/attacker/tables/" + name + "_renamed", null));
    assertThat(loaded.get("metadata").get("location").asText()).isEqualTo(location);
    // The old name's location is still claimed by the renamed table: no one else can take it.
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(name, location, Map.of(), false)));
    // A new table of the old name, placed by Sluice, gets a folder of its own beside it.
    JsonNode again =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(name, null, Map.of(), false)));
    String fresh = again.get("metadata").get("location").asText();
    assertThat(fresh).startsWith(location + "-");
    assertThat(fresh + "/").doesNotStartWith(location + "/");
  }

  // ------------------------------------------------------------------ views

  static Stream<Target> viewTargets() {
    return Stream.of(
        at("victim.t1"),
        at("victim.v"),
        at("victim namespace"),
        at("warehouse root"),
        at("outside secret"),
        at("attacker.own"),
        spelled("victim.v via %2E%2E", fx -> fx.at("attacker namespace") + "/%2E%2E/victim/v"));
  }

  @ParameterizedTest(name = "create view at {0}")
  @MethodSource("viewTargets")
  void createViewAtForeignLocationIsRefused(Target target) throws Exception {
    String location = target.location().apply(fx);
    fx.refusedAndUnchanged(
        target.statuses(),
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/views",
                viewBody(fx.fresh("evilview"), location, Map.of())));
  }

  @ParameterizedTest(name = "create view with write.metadata.path at {0}")
  @MethodSource("viewTargets")
  void createViewWithForeignMetadataPathIsRefused(Target target) throws Exception {
    String location = target.location().apply(fx);
    fx.refusedAndUnchanged(
        target.statuses(),
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/views",
                viewBody(fx.fresh("evilview"), null, Map.of("write.metadata.path", location))));
  }

  // ------------------------------------------------------------------ other catalogs on the same
  // storage

  @Test
  void namespaceInAnotherCatalogOverTheSameFolderIsRefused() throws Exception {
    // Catalog b shares a's base: b.victim would live in a.victim's folder, so its tables would
    // sit among a.victim's. Refused even for the service admin; the refusal names b's own
    // namespace, never catalog a.
    JsonNode error =
        fx.refusedAndUnchanged(
            FORBIDDEN,
            List.of(fx.a, fx.b),
            () ->
                fx.server.send(
                    "POST",
                    fx.api(fx.b) + "/namespaces",
                    json(Map.of("namespace", List.of("victim")))));
    assertThat(error.get("message").asText())
        .contains("overlaps the location of another table or view")
        .doesNotContain(fx.a + ".");
    fx.refusedAndUnchanged(
        FORBIDDEN,
        List.of(fx.a, fx.b),
        () ->
            fx.server.send(
                "POST",
                fx.api(fx.b) + "/namespaces",
                json(
                    Map.of(
                        "namespace",
                        List.of("elsewhere"),
                        "properties",
                        Map.of("location", fx.at("victim.t1") + "/x")))));
  }

  @ParameterizedTest(name = "unstructured catalog: create at {0}")
  @MethodSource("crossCatalogTargets")
  void unstructuredCatalogStillCannotOverlap(Target target) throws Exception {
    String location = target.location().apply(fx);
    fx.refusedAndUnchanged(
        target.statuses(),
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.u) + "/namespaces/ns/tables",
                createBody(fx.fresh("evil"), location, Map.of(), false)));
  }

  static Stream<Target> crossCatalogTargets() {
    return Stream.of(
        at("victim.t1"),
        spelled("inside victim.t1", fx -> fx.at("victim.t1") + "/data"),
        at("victim namespace"),
        at("warehouse root"),
        at("storage root"),
        at("victim.v"));
  }

  // ------------------------------------------------------------------ races

  static Stream<Arguments> racingLocations() {
    return Stream.of(
        Arguments.of("one location", List.of("", "", "", "", "", "")),
        Arguments.of(
            "nested locations", List.of("", "/x", "/x/y", "/x/y/z", "/x/y/z/w", "/x/y/z/w/v")));
  }

  /**
   * Concurrent creates of overlapping locations: the store decides atomically, so exactly one wins.
   */
  @ParameterizedTest(name = "concurrent creates at {0}")
  @MethodSource("racingLocations")
  void concurrentOverlappingCreatesLetExactlyOneWin(String label, List<String> suffixes)
      throws Exception {
    String base = fx.at("attacker namespace") + "/" + fx.fresh("race");
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(suffixes.size());
    try {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<java.net.http.HttpResponse<String>>> answers =
          new java.util.ArrayList<>();
      for (String suffix : suffixes) {
        String body = createBody(fx.fresh("racer"), base + suffix, Map.of(), false);
        answers.add(
            pool.submit(
                () -> {
                  go.await();
                  return fx.asAttacker("POST", fx.api(fx.a) + "/namespaces/attacker/tables", body);
                }));
      }
      go.countDown();
      int won = 0;
      for (java.util.concurrent.Future<java.net.http.HttpResponse<String>> answer : answers) {
        java.net.http.HttpResponse<String> response = answer.get();
        if (response.statusCode() == 200) {
          won++;
        } else {
          ScopeFixture.assertError(response, FORBIDDEN);
        }
      }
      assertThat(won).as("creates that won").isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  // ------------------------------------------------------------------ positive controls

  @Test
  void attackerCanCreateInsideItsOwnNamespace() throws Exception {
    String ns = fx.at("attacker namespace");
    JsonNode byDefault =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody("plain", null, Map.of(), false)));
    assertThat(byDefault.get("metadata").get("location").asText()).isEqualTo(ns + "/plain");
    JsonNode custom =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(
                    "custom",
                    ns + "/somewhere/else",
                    Map.of("write.data.path", ns + "/somewhere/else/d"),
                    false)));
    assertThat(custom.get("metadata").get("location").asText()).isEqualTo(ns + "/somewhere/else");
    JsonNode staged =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody("staged", ns + "/staged-here", Map.of(), true)));
    assertThat(staged.get("metadata").get("location").asText()).isEqualTo(ns + "/staged-here");
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables/own2",
            commitBody(
                setProperties(
                    Map.of("write.data.path", fx.at("attacker.own2") + "/elsewhere-data")))));
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/views",
            viewBody("okview", ns + "/okview-here", Map.of())));
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.u) + "/namespaces/ns/tables",
            createBody("anywhere", fx.at("outside") + "/u-table", Map.of(), false)));
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.b) + "/namespaces/bown/tables",
            createBody("t9", null, Map.of(), false)));
  }

  @Test
  void droppingATableFreesItsLocation() throws Exception {
    String location = fx.at("attacker namespace") + "/reused";
    String first = fx.fresh("first");
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables",
            createBody(first, location, Map.of(), false)));
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(fx.fresh("second"), location, Map.of(), false)));
    assertOk(fx.asAttacker("DELETE", fx.api(fx.a) + "/namespaces/attacker/tables/" + first, null));
    JsonNode second =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables",
                createBody(fx.fresh("second"), location, Map.of(), false)));
    assertThat(second.get("metadata").get("location").asText()).isEqualTo(location);
  }
}
