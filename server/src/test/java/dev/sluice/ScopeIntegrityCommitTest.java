package dev.sluice;

import static dev.sluice.ScopeIntegrityTest.FORBIDDEN;
import static dev.sluice.ScopeIntegrityTest.at;
import static dev.sluice.ScopeIntegrityTest.spelled;
import static dev.sluice.testing.ScopeFixture.assertOk;
import static dev.sluice.testing.ScopeFixture.commitBody;
import static dev.sluice.testing.ScopeFixture.createBody;
import static dev.sluice.testing.ScopeFixture.json;
import static dev.sluice.testing.ScopeFixture.removeProperties;
import static dev.sluice.testing.ScopeFixture.setLocation;
import static dev.sluice.testing.ScopeFixture.setProperties;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.ScopeIntegrityTest.Target;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.ScopeFixture;
import dev.sluice.testing.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scope-integrity attacks by commit (see {@link ScopeIntegrityTest} for the scene and the
 * targets): the attacker re-aims its own table at every place that is not its own, in every
 * spelling, by set-location and by each location property ({@link
 * LocationPolicy#LOCATION_PROPERTIES}), alone, mixed with harmless updates, in a multi-table
 * transaction, and in the commit that finishes a staged create; its view likewise on replace. Each
 * is refused exactly as a create there is (403, a well-formed ErrorResponse), nothing changes in
 * the store or on disk (no metadata file left behind either), and root loads the table with the
 * same metadata file as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScopeIntegrityCommitTest {
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

  static Stream<Target> commitTargets() {
    // Moving a table inside its own folder is no attack; everything else is someone else's place.
    return ScopeIntegrityTest.targets()
        .filter(t -> !t.name().equals("attacker.own") && !t.name().equals("inside attacker.own"));
  }

  /** Every update that names a location, with the name of what it sets. */
  static Stream<String> locationUpdates() {
    return Stream.concat(Stream.of("location"), LocationPolicy.LOCATION_PROPERTIES.stream());
  }

  static Map<String, Object> update(String what, String location) {
    return what.equals("location") ? setLocation(location) : setProperties(Map.of(what, location));
  }

  static Stream<Arguments> updatesAndTargets() {
    return locationUpdates().flatMap(u -> commitTargets().map(t -> Arguments.of(u, t)));
  }

  /**
   * A transaction checks each table's change as a commit does (the same code, {@code
   * SluiceTableOperations.checkLocations}): every update, at a few places of each kind.
   */
  static Stream<Arguments> transactionTargets() {
    List<String> kinds =
        List.of(
            "victim.t1",
            "warehouse root",
            "outside secret",
            "attacker.own2",
            "victim.t1 via %2E%2E",
            "victim.t1 as bare path");
    List<Target> some = commitTargets().filter(t -> kinds.contains(t.name())).toList();
    assertThat(some).hasSameSizeAs(kinds);
    return locationUpdates().flatMap(u -> some.stream().map(t -> Arguments.of(u, t)));
  }

  // ------------------------------------------------------------------ one table

  @ParameterizedTest(name = "commit {0} = {1}")
  @MethodSource("updatesAndTargets")
  void commitToAForeignLocationIsRefused(String what, Target target) throws Exception {
    String location = target.location().apply(fx);
    JsonNode error = refusedCommit("own", commitBody(update(what, location)));
    assertThat(error.get("message").asText()).containsIgnoringCase("location");
  }

  @Test
  void removeAndSetLocationPropertiesInOneCommitIsRefused() throws Exception {
    refusedCommit(
        "own",
        commitBody(
            removeProperties("write.data.path", "write.metadata.path"),
            setProperties(
                Map.of(
                    "write.metadata.path", fx.at("victim.t1") + "/metadata", "harmless", "yes"))));
  }

  @Test
  void setLocationAndSetPropertyTogetherIsRefusedForTheProperty() throws Exception {
    String own = fx.at("attacker.own");
    refusedCommit(
        "own",
        commitBody(
            setLocation(own),
            setProperties(Map.of("write.data.path", fx.at("victim.t2") + "/data"))));
  }

  static Stream<Arguments> viewUpdatesAndTargets() {
    // Every target is someone else's place for the view attacker.ownview, attacker.own too.
    return locationUpdates()
        .flatMap(u -> ScopeIntegrityTest.targets().map(t -> Arguments.of(u, t)));
  }

  /** A view claims its locations as a table does: the same refusals on replace. */
  @ParameterizedTest(name = "replace view: {0} = {1}")
  @MethodSource("viewUpdatesAndTargets")
  void viewCommitToAForeignLocationIsRefused(String what, Target target) throws Exception {
    String location = target.location().apply(fx);
    refusedCommit("views", "ownview", commitBody(update(what, location)));
  }

  // ------------------------------------------------------------------ transactions

  /**
   * A harmless change to attacker.own2 and {@code what} on attacker.own: the whole transaction is
   * refused, own2 included.
   */
  @ParameterizedTest(name = "multi-table transaction: {0} of attacker.own = {1}")
  @MethodSource("transactionTargets")
  void transactionWithAForeignLocationIsRefusedAsAWhole(String what, Target target)
      throws Exception {
    String location = target.location().apply(fx);
    Map<String, Object> harmless = tableChange("own2", setProperties(Map.of("innocent", "change")));
    Map<String, Object> evil = tableChange("own", update(what, location));
    String tables = fx.api(fx.a) + "/namespaces/attacker/tables/";
    List<String> before = List.of(pointer(tables + "own"), pointer(tables + "own2"));
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/transactions/commit",
                json(Map.of("table-changes", List.of(harmless, evil)))));
    assertThat(List.of(pointer(tables + "own"), pointer(tables + "own2"))).isEqualTo(before);
  }

  private static Map<String, Object> tableChange(String table, Map<String, Object> update) {
    return Map.of(
        "identifier",
        Map.of("namespace", List.of("attacker"), "name", table),
        "requirements",
        List.of(),
        "updates",
        List.of(update));
  }

  // ------------------------------------------------------------------ staged creates

  static Stream<Arguments> stagedCommitTargets() {
    List<Arguments> all = new ArrayList<>();
    commitTargets().forEach(t -> all.add(Arguments.of(t, Map.of())));
    all.add(Arguments.of(at("attacker.own"), Map.of()));
    all.add(
        Arguments.of(
            spelled(
                "own staged location, write.data.path into victim.t1",
                fx -> fx.at("attacker namespace") + "/staged-ok"),
            Map.of("write.data.path", "victim.t1")));
    return all.stream();
  }

  /**
   * Stage-create at an innocent location, then the create commit (assert-create) moves the table or
   * its data path elsewhere: the commit that creates the table is checked too.
   */
  @ParameterizedTest(name = "stage-create, then create commit at {0} {1}")
  @MethodSource("stagedCommitTargets")
  void stagedCreateCommittedElsewhereIsRefused(Target target, Map<String, String> properties)
      throws Exception {
    String name = fx.fresh("staged");
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables",
            createBody(name, fx.at("attacker namespace") + "/" + name, Map.of(), true)));
    String location = target.location().apply(fx);
    Map<String, String> resolved = new HashMap<>();
    properties.forEach((k, v) -> resolved.put(k, fx.at(v) + "/data"));
    fx.refusedAndUnchanged(
        target.statuses(),
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
                createCommit(location, resolved)));
  }

  @Test
  void stagedCreateCommittedAtItsOwnLocationWorks() throws Exception {
    String name = fx.fresh("staged");
    String location = fx.at("attacker namespace") + "/" + name;
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables",
            createBody(name, location, Map.of(), true)));
    JsonNode created =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
                createCommit(location, Map.of("write.data.path", location + "/d"))));
    assertThat(created.get("metadata").get("location").asText()).isEqualTo(location);
  }

  /** Control: each update, aimed inside the table's own folder, is an ordinary commit. */
  @Test
  void theSameUpdatesInsideTheTablesOwnFolderWork() throws Exception {
    String name = fx.fresh("control");
    String own =
        assertOk(
                fx.asAttacker(
                    "POST",
                    fx.api(fx.a) + "/namespaces/attacker/tables",
                    createBody(name, null, Map.of(), false)))
            .get("metadata")
            .get("location")
            .asText();
    for (String what : locationUpdates().toList()) {
      String location = what.equals("location") ? own : own + "/" + fx.fresh("in");
      JsonNode committed =
          assertOk(
              fx.asAttacker(
                  "POST",
                  fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
                  commitBody(update(what, location))));
      assertThat(committed.get("metadata").get("location").asText()).isEqualTo(own);
    }
  }

  // ------------------------------------------------------------------ helpers

  /** The commit an Iceberg client sends to finish a staged create. */
  static String createCommit(String location, Map<String, String> properties) throws Exception {
    return json(
        Map.of(
            "requirements", List.of(Map.of("type", "assert-create")),
            "updates",
                List.of(
                    Map.of("action", "assign-uuid", "uuid", UUID.randomUUID().toString()),
                    Map.of("action", "upgrade-format-version", "format-version", 2),
                    Map.of(
                        "action",
                        "add-schema",
                        "schema",
                        ScopeFixture.JSON.readTree(ScopeFixture.SCHEMA_JSON),
                        "last-column-id",
                        1),
                    Map.of("action", "set-current-schema", "schema-id", -1),
                    Map.of("action", "add-spec", "spec", Map.of("spec-id", 0, "fields", List.of())),
                    Map.of("action", "set-default-spec", "spec-id", -1),
                    Map.of(
                        "action",
                        "add-sort-order",
                        "sort-order",
                        Map.of("order-id", 0, "fields", List.of())),
                    Map.of("action", "set-default-sort-order", "sort-order-id", -1),
                    setLocation(location),
                    setProperties(properties))));
  }

  /**
   * A commit to attacker.{@code table} that must be refused with 403 and change nothing; root loads
   * the table with the same metadata file before and after.
   */
  private JsonNode refusedCommit(String table, String body) throws Exception {
    return refusedCommit("tables", table, body);
  }

  /** As above, for a table or a view ({@code kind}: "tables" or "views"). */
  private JsonNode refusedCommit(String kind, String name, String body) throws Exception {
    String path = fx.api(fx.a) + "/namespaces/attacker/" + kind + "/" + name;
    String before = pointer(path);
    JsonNode error = fx.refusedAndUnchanged(FORBIDDEN, () -> fx.asAttacker("POST", path, body));
    assertThat(pointer(path)).as("%s after a refused commit", path).isEqualTo(before);
    return error;
  }

  /** The metadata file of the table or view at {@code path}, as root loads it. */
  private String pointer(String path) throws Exception {
    return assertOk(fx.server.send("GET", path, null)).get("metadata-location").asText();
  }
}
