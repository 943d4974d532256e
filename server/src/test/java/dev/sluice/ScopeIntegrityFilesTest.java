package dev.sluice;

import static dev.sluice.testing.ScopeFixture.assertError;
import static dev.sluice.testing.ScopeFixture.assertOk;
import static dev.sluice.testing.ScopeFixture.commitBody;
import static dev.sluice.testing.ScopeFixture.createBody;
import static dev.sluice.testing.ScopeFixture.json;
import static dev.sluice.testing.ScopeFixture.localPath;
import static dev.sluice.testing.ScopeFixture.setProperties;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.FileTreeSnapshot;
import dev.sluice.testing.ScopeFixture;
import dev.sluice.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scope-integrity attacks that go through files (see {@link ScopeIntegrityTest} for the scene):
 * registering someone else's metadata file or a doctored copy of it, moving namespaces, names that
 * try to escape their folder, and server-side deletes (purge, delete-after-commit) aimed at files
 * the attacker wrote into its own metadata. Refusals change nothing; deletes the server does run
 * stay inside the table's own locations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScopeIntegrityFilesTest {
  static final Set<Integer> FORBIDDEN = Set.of(403);
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

  private String attackerNs() {
    return fx.at("attacker namespace");
  }

  private HttpResponse<String> register(String namespacePath, String name, String metadataFile)
      throws Exception {
    return fx.asAttacker(
        "POST",
        fx.api(fx.a) + "/namespaces/" + namespacePath + "/register",
        json(Map.of("name", name, "metadata-location", metadataFile)));
  }

  /**
   * Writes a copy of victim.t1's current metadata at {@code file}, with {@code location} and extra
   * properties.
   */
  private String doctoredCopy(Path file, String location, Map<String, String> properties)
      throws Exception {
    ObjectNode metadata =
        (ObjectNode) ScopeFixture.JSON.readTree(localPath(fx.t1Metadata).toFile());
    metadata.put("location", location);
    properties.forEach(((ObjectNode) metadata.get("properties"))::put);
    Files.createDirectories(file.getParent());
    Files.writeString(file, metadata.toString());
    return file.toUri().toString();
  }

  private Path inAttacker(String relative) {
    return localPath(attackerNs()).resolve(relative);
  }

  // ------------------------------------------------------------------ register

  @Test
  void registerVictimsCurrentMetadataFileIsRefused() throws Exception {
    fx.refusedAndUnchanged(
        FORBIDDEN, () -> register("attacker", fx.fresh("stolen"), fx.t1Metadata));
  }

  @Test
  void registerVictimsPreviousMetadataFileIsRefused() throws Exception {
    fx.refusedAndUnchanged(
        FORBIDDEN, () -> register("attacker", fx.fresh("stolen"), fx.t1PreviousMetadata.get(0)));
  }

  static Stream<String> victimMetadataSpellings() {
    return Stream.of("bare path", "file:/", "file:///", "doubled slashes", "upper-case scheme");
  }

  @ParameterizedTest(name = "register victim.t1's metadata file spelled as {0}")
  @MethodSource("victimMetadataSpellings")
  void registerVictimsMetadataFileInAnySpellingIsRefused(String spelling) throws Exception {
    String path = localPath(fx.t1Metadata).toString();
    String file =
        switch (spelling) {
          case "bare path" -> path;
          case "file:/" -> "file:" + path;
          case "file:///" -> "file://" + path;
          case "doubled slashes" -> "file:" + path.replace("/victim/", "//victim//");
          default -> "FILE:" + path;
        };
    fx.refusedAndUnchanged(Set.of(400, 403), () -> register("attacker", fx.fresh("stolen"), file));
  }

  @Test
  void registerVictimsMetadataFileThroughEncodedDotDotIsRefused() throws Exception {
    String relative = fx.t1Metadata.substring(fx.t1Metadata.indexOf("/victim/"));
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () -> register("attacker", fx.fresh("stolen"), attackerNs() + "/%2E%2E" + relative));
  }

  @Test
  void registerCopyInOwnFolderPointingAtVictimLocationIsRefused() throws Exception {
    String name = fx.fresh("copied");
    String copy =
        doctoredCopy(
            inAttacker(name + "/metadata/00009-copy.metadata.json"), fx.at("victim.t1"), Map.of());
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerCopyInOwnFolderWithVictimDataPathIsRefused() throws Exception {
    String name = fx.fresh("copied");
    String copy =
        doctoredCopy(
            inAttacker(name + "/metadata/00009-copy.metadata.json"),
            attackerNs() + "/" + name,
            Map.of("write.data.path", fx.at("victim.t1") + "/data"));
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerCopyOutsideTheWarehouseIsRefused() throws Exception {
    String name = fx.fresh("copied");
    String copy =
        doctoredCopy(
            fx.outside.resolve(name + ".metadata.json"), attackerNs() + "/" + name, Map.of());
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerCopyAtTheWarehouseRootIsRefused() throws Exception {
    String name = fx.fresh("copied");
    String copy =
        doctoredCopy(
            fx.warehouse.resolve(name + ".metadata.json"), attackerNs() + "/" + name, Map.of());
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerCopyInsideAnotherTablesFolderIsRefused() throws Exception {
    String name = fx.fresh("copied");
    Path file =
        localPath(fx.at("attacker.own")).resolve("metadata/00009-" + name + ".metadata.json");
    String copy = doctoredCopy(file, attackerNs() + "/" + name, Map.of());
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerFileOutsideTheNewTablesOwnLocationIsRefused() throws Exception {
    // Inside the namespace, but not inside the location the file itself declares.
    String name = fx.fresh("copied");
    String copy =
        doctoredCopy(
            inAttacker(name + "-loose.metadata.json"), attackerNs() + "/" + name, Map.of());
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("attacker", name, copy));
  }

  @Test
  void registerIntoVictimNamespaceIsRefused() throws Exception {
    fx.refusedAndUnchanged(FORBIDDEN, () -> register("victim", fx.fresh("stolen"), fx.t1Metadata));
  }

  @Test
  void registerOfAFileThatIsNotMetadataIsBadInput() throws Exception {
    String name = fx.fresh("garbage");
    Path file = inAttacker(name + "/metadata/00000-garbage.metadata.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"not\": \"metadata\"}");
    fx.refusedAndUnchanged(
        Set.of(400, 422), () -> register("attacker", name, file.toUri().toString()));
  }

  @Test
  void registerOwnProperFileWorks() throws Exception {
    String name = fx.fresh("registered");
    String location = attackerNs() + "/" + name;
    String copy =
        doctoredCopy(inAttacker(name + "/metadata/00000-own.metadata.json"), location, Map.of());
    JsonNode registered = assertOk(register("attacker", name, copy));
    assertThat(registered.get("metadata").get("location").asText()).isEqualTo(location);
    assertThat(registered.get("metadata-location").asText()).isEqualTo(copy);
  }

  // ------------------------------------------------------------------ namespaces

  static Stream<Arguments> namespaceTargets() {
    return Stream.of(
        Arguments.of("attacker%1Fsub", "victim namespace", "/"),
        Arguments.of("attacker%1Fsub", "victim.t1", "/"),
        Arguments.of("attacker%1Fsub", "catalog base", "/"),
        Arguments.of("attacker%1Fsub", "warehouse root", "/"),
        Arguments.of("attacker%1Fsub", "outside", "/"),
        Arguments.of("attacker%1Fsub", "attacker namespace", "/%2E%2E/victim"),
        Arguments.of("attacker%1Fsub", "attacker namespace", "/../victim"),
        Arguments.of("attacker", "outside", "/"),
        Arguments.of("attacker", "storage root", "/"),
        Arguments.of("attacker", "catalog base", "/%2E%2E/b"));
  }

  @ParameterizedTest(name = "set location of {0} to {1} + {2}")
  @MethodSource("namespaceTargets")
  void namespaceLocationOutsideItsParentIsRefused(String namespace, String target, String suffix)
      throws Exception {
    String location = fx.at(target) + (suffix.equals("/") ? "" : suffix);
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/" + namespace + "/properties",
                json(Map.of("removals", List.of(), "updates", Map.of("location", location)))));
  }

  @ParameterizedTest(
      name = "create namespace attacker.x at {0} (as root: the rules bind admins too)")
  @MethodSource("namespaceCreateTargets")
  void namespaceCreatedOutsideItsParentIsRefused(String target) throws Exception {
    String location = fx.at(target);
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.server.send(
                "POST",
                fx.api(fx.a) + "/namespaces",
                json(
                    Map.of(
                        "namespace",
                        List.of("attacker", fx.fresh("x")),
                        "properties",
                        Map.of("location", location)))));
  }

  static Stream<String> namespaceCreateTargets() {
    return Stream.of("victim namespace", "outside", "catalog base", "storage root");
  }

  static Stream<Arguments> siblingFolders() {
    return Stream.of(
        Arguments.of("victim namespace", ""),
        Arguments.of("victim namespace", "/not-yet-used"),
        Arguments.of("catalog base", ""));
  }

  /**
   * Found by this suite: a top-level namespace could name any location inside the catalog's base,
   * so an attacker holding NAMESPACE_WRITE_PROPERTIES on its own namespace moved it onto the victim
   * namespace's folder (or a folder inside it, or the base itself, which covers every sibling) and
   * its tables then lived among the victim's. Namespaces now claim their locations (no overlap
   * outside their own ancestry); the two tests below show what the move bought.
   */
  @ParameterizedTest(name = "move own namespace onto {0}{1}")
  @MethodSource("siblingFolders")
  void namespaceCannotBeMovedOntoAnotherNamespacesFolder(String target, String suffix)
      throws Exception {
    String squat = squatNamespace();
    String location = fx.at(target) + suffix;
    fx.refusedAndUnchanged(
        FORBIDDEN,
        () ->
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/" + squat + "/properties",
                json(Map.of("removals", List.of(), "updates", Map.of("location", location)))));
  }

  /**
   * Root drops victim.gone without purge (its files stay, as Spark's DROP TABLE leaves them); the
   * attacker tries to move its namespace onto victim's folder and register gone's metadata file,
   * which would give it a table over the victim's files (credentials for them, and a purge that
   * deletes them): both are refused.
   */
  @Test
  void droppedVictimTableCannotBeTakenOverThroughAMovedNamespace() throws Exception {
    String gone = fx.fresh("gone");
    assertOk(
        fx.server.send(
            "POST",
            fx.api(fx.a) + "/namespaces/victim/tables",
            createBody(gone, null, Map.of(), false)));
    String goneMetadata =
        assertOk(fx.server.send("GET", fx.api(fx.a) + "/namespaces/victim/tables/" + gone, null))
            .get("metadata-location")
            .asText();
    assertOk(fx.server.send("DELETE", fx.api(fx.a) + "/namespaces/victim/tables/" + gone, null));
    String squat = movedOntoVictim();
    fx.refusedAndUnchanged(FORBIDDEN, () -> register(squat, gone, goneMetadata));
  }

  /**
   * The attacker's namespace moved onto victim's folder, it creates {@code future} there; root's
   * later {@code victim.future} is refused as an overlap.
   */
  @Test
  void victimsFutureTableCannotBeSquattedThroughAMovedNamespace() throws Exception {
    String future = fx.fresh("future");
    String squat = movedOntoVictim();
    HttpResponse<String> squatted =
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/" + squat + "/tables",
            createBody(future, null, Map.of(), false));
    if (squatted.statusCode() != 200) {
      assertError(squatted, FORBIDDEN);
    }
    assertOk(
        fx.server.send(
            "POST",
            fx.api(fx.a) + "/namespaces/victim/tables",
            createBody(future, null, Map.of(), false)));
  }

  /**
   * A squat namespace the attacker tried to move onto victim's folder (the move is refused when the
   * hole is closed).
   */
  private String movedOntoVictim() throws Exception {
    String squat = squatNamespace();
    HttpResponse<String> moved =
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/" + squat + "/properties",
            json(
                Map.of(
                    "removals",
                    List.of(),
                    "updates",
                    Map.of("location", fx.at("victim namespace")))));
    if (moved.statusCode() != 200) {
      assertError(moved, FORBIDDEN);
    }
    return squat;
  }

  /** A fresh top-level namespace on which the attacker holds what it holds on {@code attacker}. */
  private String squatNamespace() throws Exception {
    String squat = fx.fresh("squat");
    assertOk(
        fx.server.send(
            "POST", fx.api(fx.a) + "/namespaces", json(Map.of("namespace", List.of(squat)))));
    Admin admin = new Admin(fx.server);
    for (String privilege :
        List.of("TABLE_CREATE", "NAMESPACE_WRITE_PROPERTIES", "TABLE_WRITE_DATA", "TABLE_DROP")) {
      admin.grant(
          fx.a, "attacker_cr", Admin.grantJson("namespace", List.of(squat), null, privilege));
    }
    return squat;
  }

  // ------------------------------------------------------------------ names

  static Stream<Arguments> lookAlikes() {
    return Stream.of(
        Arguments.of("..", "~2E~2E"),
        Arguments.of(".", "~2E"),
        Arguments.of("...", ".."),
        Arguments.of("a/b", "a~2Fb"),
        Arguments.of("%2F", "/"),
        Arguments.of("~2F", "/"),
        Arguments.of("%2E%2E", ".."),
        Arguments.of("x/../../victim", "x"),
        Arguments.of("\u0430", "a"),
        Arguments.of("A", "a"),
        Arguments.of("t1", "T1"));
  }

  /**
   * Two names that could map to one folder: both tables are created, each in its own folder inside
   * the namespace.
   */
  @ParameterizedTest(name = "tables named {0} and {1}")
  @MethodSource("lookAlikes")
  void tableNamesNeverEscapeOrCollide(String first, String second) throws Exception {
    String ns = fx.fresh("names");
    assertOk(
        fx.server.send(
            "POST",
            fx.api(fx.a) + "/namespaces",
            json(Map.of("namespace", List.of("attacker", ns)))));
    String nsLocation = attackerNs() + "/" + ns;
    String one = createdSegment(ns, nsLocation, first);
    String two = createdSegment(ns, nsLocation, second);
    assertThat(one).isNotEqualTo(two);
  }

  private String createdSegment(String ns, String nsLocation, String name) throws Exception {
    JsonNode created =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker%1F" + ns + "/tables",
                createBody(name, null, Map.of(), false)));
    String location = created.get("metadata").get("location").asText();
    assertThat(location).startsWith(nsLocation + "/");
    String segment = location.substring(nsLocation.length() + 1);
    assertThat(segment).matches("[A-Za-z0-9_.~-]+").isNotIn(".", "..");
    Path file = localPath(created.get("metadata-location").asText());
    assertThat(file).exists();
    assertThat(file.toRealPath().startsWith(localPath(nsLocation).toRealPath().resolve(segment)))
        .isTrue();
    return segment;
  }

  static Stream<String> namespaceNames() {
    return Stream.of("..", ".", "%2F", "~2F", "\u0430", "%2E%2E");
  }

  @ParameterizedTest(name = "namespace named {0}")
  @MethodSource("namespaceNames")
  void namespaceNamesNeverEscape(String name) throws Exception {
    assertOk(
        fx.server.send(
            "POST",
            fx.api(fx.a) + "/namespaces",
            json(Map.of("namespace", List.of("attacker", name)))));
    String encoded = URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    JsonNode created =
        assertOk(
            fx.asAttacker(
                "POST",
                fx.api(fx.a) + "/namespaces/attacker%1F" + encoded + "/tables",
                createBody("t1", null, Map.of(), false)));
    String location = created.get("metadata").get("location").asText();
    assertThat(location).startsWith(attackerNs() + "/").endsWith("/t1");
    String segment =
        location.substring(attackerNs().length() + 1, location.length() - "/t1".length());
    assertThat(segment).matches("[A-Za-z0-9_.~-]+").isNotIn(".", "..", "sub", "own", "own2");
    assertThat(
            localPath(created.get("metadata-location").asText())
                .toRealPath()
                .startsWith(localPath(attackerNs()).toRealPath().resolve(segment)))
        .isTrue();
  }

  // ------------------------------------------------------------------ server-side deletes

  /** Victim's and the outside area's files, which no purge or cleanup of the attacker may touch. */
  private String untouchable() {
    return FileTreeSnapshot.of(localPath(fx.at("victim namespace")))
        + "--\n"
        + FileTreeSnapshot.of(fx.outside);
  }

  private JsonNode createOwn(String name) throws Exception {
    return assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables",
            createBody(name, null, Map.of(), false)));
  }

  private void purge(String name, Set<Integer> statuses) throws Exception {
    HttpResponse<String> purged =
        fx.asAttacker(
            "DELETE",
            fx.api(fx.a) + "/namespaces/attacker/tables/" + name + "?purgeRequested=true",
            null);
    if (purged.statusCode() != 204) {
      assertError(purged, statuses);
    }
    assertThat(
            fx.asAttacker("GET", fx.api(fx.a) + "/namespaces/attacker/tables/" + name, null)
                .statusCode())
        .isEqualTo(404);
  }

  static Stream<Arguments> statisticsTargets() {
    return Stream.of(
        Arguments.of("victim data file"),
        Arguments.of("outside secret file"),
        Arguments.of("victim metadata file"));
  }

  @ParameterizedTest(name = "statistics file at {0}, then purge")
  @MethodSource("statisticsTargets")
  void purgeNeverDeletesAForeignStatisticsFile(String target) throws Exception {
    String path =
        switch (target) {
          case "victim data file" -> fx.t1Data.toUri().toString();
          case "outside secret file" -> fx.secret.toUri().toString();
          default -> fx.t1Metadata;
        };
    String name = fx.fresh("stats");
    String ownMetadata = createOwn(name).get("metadata-location").asText();
    String before = untouchable();
    Map<String, Object> statistics =
        Map.of(
            "snapshot-id",
            1,
            "statistics-path",
            path,
            "file-size-in-bytes",
            10,
            "file-footer-size-in-bytes",
            1,
            "blob-metadata",
            List.of());
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
            commitBody(
                Map.of("action", "set-statistics", "snapshot-id", 1, "statistics", statistics))));
    purge(name, Set.of());
    assertThat(untouchable()).isEqualTo(before);
    assertThat(localPath(ownMetadata)).as("the attacker's own metadata is purged").doesNotExist();
  }

  @Test
  void purgeNeverDeletesAForeignDataFileAppendedByPath() throws Exception {
    String name = fx.fresh("append");
    createOwn(name);
    String before = untouchable();
    String ownManifestList;
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("attacker", fx.attackerClient(fx.a));
      Table table = catalog.loadTable(TableIdentifier.of("attacker", name));
      table
          .newAppend()
          .appendFile(ScopeFixture.dataFile(fx.t1Data.toUri().toString(), Files.size(fx.t1Data)))
          .commit();
      ownManifestList = table.currentSnapshot().manifestListLocation();
    }
    assertThat(localPath(ownManifestList)).exists();
    purge(name, Set.of());
    assertThat(untouchable()).isEqualTo(before);
    assertThat(localPath(ownManifestList))
        .as("the attacker's own manifest list is purged")
        .doesNotExist();
  }

  @Test
  void purgeNeverDeletesThroughAForeignManifestList() throws Exception {
    String name = fx.fresh("borrowed");
    createOwn(name);
    String before = untouchable();
    Map<String, Object> snapshot =
        Map.of(
            "snapshot-id",
            4242,
            "timestamp-ms",
            System.currentTimeMillis(),
            "sequence-number",
            1,
            "manifest-list",
            fx.t1ManifestList,
            "summary",
            Map.of("operation", "append"),
            "schema-id",
            0);
    HttpResponse<String> committed =
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
            commitBody(
                Map.of("action", "add-snapshot", "snapshot", snapshot),
                Map.of(
                    "action",
                    "set-snapshot-ref",
                    "ref-name",
                    "main",
                    "type",
                    "branch",
                    "snapshot-id",
                    4242)));
    if (committed.statusCode() == 200) {
      // Reading the victim's manifest list to find files to delete is refused: the purge stops
      // there.
      purge(name, FORBIDDEN);
    } else {
      assertError(committed, Set.of(400, 403));
    }
    assertThat(untouchable()).isEqualTo(before);
  }

  /**
   * A doctored copy of victim.t1's metadata registered in the attacker's own folder keeps the
   * victim's metadata log; expiring that log after a commit must not delete the victim's files.
   */
  @Test
  void deleteAfterCommitNeverDeletesForeignMetadataFiles() throws Exception {
    String name = fx.fresh("expiring");
    String location = attackerNs() + "/" + name;
    String copy =
        doctoredCopy(
            inAttacker(name + "/metadata/00005-doctored.metadata.json"), location, Map.of());
    String before = untouchable();
    HttpResponse<String> registered = register("attacker", name, copy);
    if (registered.statusCode() != 200) {
      assertError(registered, FORBIDDEN);
      assertThat(untouchable()).isEqualTo(before);
      return;
    }
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
            commitBody(
                setProperties(
                    Map.of(
                        "write.metadata.delete-after-commit.enabled",
                        "true",
                        "write.metadata.previous-versions-max",
                        "1")))));
    assertOk(
        fx.asAttacker(
            "POST",
            fx.api(fx.a) + "/namespaces/attacker/tables/" + name,
            commitBody(setProperties(Map.of("again", "1")))));
    assertThat(untouchable()).isEqualTo(before);
    for (String victimFile : fx.t1PreviousMetadata) {
      assertThat(localPath(victimFile)).exists();
    }
    assertThat(localPath(copy)).as("its own expired metadata file is deleted").doesNotExist();
    purge(name, FORBIDDEN);
    assertThat(untouchable()).isEqualTo(before);
  }
}
