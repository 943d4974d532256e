package dev.sluice;

import static dev.sluice.testing.RgwVendingBed.assertS3Status;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Scope integrity on a real Ceph RGW with STS: an attacker with ordinary grants on its own
 * namespace ({@code att}: TABLE_CREATE, TABLE_WRITE_DATA, TABLE_WRITE_PROPERTIES, TABLE_READ_DATA,
 * and TABLE_DROP to purge its own tables) and nothing on the victim's ({@code vic}) tries to get a
 * credential, or a server-side delete, that covers someone else's files. Every attempt is refused
 * with a 403 ErrorResponse and leaves the catalog and the bucket as they were; where a credential
 * is vended, RGW itself refuses it everywhere but its own table.
 */
@NeedsTestBeds
class S3ScopeIntegrityTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LAKE = "lake";
  private static final String API = "/api/catalog/v1/";
  private static RgwVendingBed bed;
  private static TestServer server;
  private static String bucket;
  private static String[] attackerCredentials;
  private static String attacker;
  private static String peeker;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("scope");
    server = bed.server();
    bucket = bed.bucket();
    bed.createCatalog(LAKE, "wh", "wh", Map.of());
    bed.createNamespace(LAKE, "att");
    bed.createNamespace(LAKE, "vic");
    // The victims: one in the other namespace, one beside the attacker's tables whose name
    // extends the attacker's table name "t", one with that very name in the other namespace.
    for (String[] victim :
        List.of(
            new String[] {"vic", "secret"},
            new String[] {"att", "t2"},
            new String[] {"vic", "t"})) {
      HttpResponse<String> created =
          server.send(
              "POST",
              API + LAKE + "/namespaces/" + victim[0] + "/tables",
              "{\"name\": \""
                  + victim[1]
                  + "\", \"schema\": "
                  + AuthorizationMatrixTest.SCHEMA
                  + "}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
      try (S3Client admin = bed.rgw().adminClient()) {
        CephRgw.put(
            admin,
            bucket,
            "wh/" + victim[0] + "/" + victim[1] + "/data/v.parquet",
            ("victim " + victim[1]).getBytes(StandardCharsets.UTF_8));
      }
    }
    Admin admin = bed.admin();
    String[] attackerKeys = admin.principal("mallory", "attackers");
    String[] peekerKeys = admin.principal("peeker", "peekers");
    admin.catalogRole(LAKE, "att_writer", "attackers");
    for (String privilege :
        List.of(
            "TABLE_CREATE",
            "TABLE_WRITE_DATA",
            "TABLE_WRITE_PROPERTIES",
            "TABLE_READ_DATA",
            "TABLE_DROP")) {
      admin.grant(
          LAKE, "att_writer", Admin.grantJson("namespace", List.of("att"), null, privilege));
    }
    admin.catalogRole(LAKE, "att_reader", "peekers");
    admin.grant(
        LAKE, "att_reader", Admin.grantJson("namespace", List.of("att"), null, "TABLE_READ_DATA"));
    attacker = server.token(attackerKeys[0], attackerKeys[1]);
    peeker = server.token(peekerKeys[0], peekerKeys[1]);
    attackerCredentials = attackerKeys;
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  /** Prefixes the attacker must never get a credential for. */
  private static List<String> foreign() {
    return List.of(
        "s3://" + bucket + "/",
        "s3://" + bucket,
        bed.s3("wh"),
        bed.s3("wh/att"),
        bed.s3("wh/vic"),
        bed.s3("wh/vic/secret"),
        bed.s3("wh/vic/secret/data"),
        bed.s3("wh/att/t2"),
        bed.s3("wh/att/t2/metadata"),
        // other spellings of the same prefixes
        bed.s3("wh/att/t2/"),
        bed.s3("wh/att//t2"),
        "s3://" + bucket + "//wh/att/t2",
        "S3://" + bucket + "/wh/att/t2",
        "s3a://" + bucket + "/wh/att/t2",
        "s3://" + bucket.toUpperCase(java.util.Locale.ROOT) + "/wh/att/t2",
        bed.s3("wh/att/t2%2Fdata"),
        bed.s3("wh/vic/../att/t2"));
  }

  @Test
  void createAndStageCreateAtAForeignPrefixVendNothing() throws Exception {
    Snapshot before = Snapshot.take();
    int refusals = 0;
    for (String location : foreign()) {
      for (boolean stage : List.of(false, true)) {
        assertVendsNothing(
            createAsAttacker(LAKE, "att", "grab", stage, location, Map.of()),
            "location " + location);
        refusals++;
        for (String property : LocationPolicy.LOCATION_PROPERTIES) {
          assertVendsNothing(
              createAsAttacker(LAKE, "att", "grab", stage, null, Map.of(property, location)),
              property + " " + location);
          refusals++;
        }
      }
    }
    before.assertUnchanged();
    assertThat(refusals).isEqualTo(foreign().size() * 2 * 5);
    // Control: the same requests at the attacker's own place vend a credential for it.
    for (boolean stage : List.of(true, false)) {
      HttpResponse<String> own =
          createAsAttacker(
              LAKE,
              "att",
              "legit",
              stage,
              null,
              Map.of("write.data.path", bed.s3("wh/att/legit/files")));
      assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
      JsonNode credential = TestServer.json(own.body()).get("storage-credentials").get(0);
      assertThat(credential.get("prefix").asText()).isEqualTo(bed.s3("wh/att/legit"));
      assertThat(credential.get("config").has("s3.session-token")).isTrue();
    }
  }

  @Test
  void registeringAVictimsMetadataFileIsRefused() throws Exception {
    Snapshot before = Snapshot.take();
    for (String[] victim : List.of(new String[] {"vic", "secret"}, new String[] {"att", "t2"})) {
      String file =
          bed.load(server.rootToken(), LAKE, victim[0], victim[1], false)
              .get("metadata-location")
              .asText();
      HttpResponse<String> registered =
          bed.send(
              attacker,
              "POST",
              API + LAKE + "/namespaces/att/register",
              "{\"name\": \"stolen\", \"metadata-location\": "
                  + JSON.writeValueAsString(file)
                  + "}",
              true);
      assertVendsNothing(registered, "register " + file);
      assertThat(
              bed.send(attacker, "HEAD", API + LAKE + "/namespaces/att/tables/stolen", null, false)
                  .statusCode())
          .isEqualTo(404);
    }
    before.assertUnchanged();
  }

  @Test
  void commitsCannotReAimATableAtAForeignPrefix() throws Exception {
    assertThat(createAsAttacker(LAKE, "att", "mine", false, null, Map.of()).statusCode())
        .isEqualTo(200);
    String table = API + LAKE + "/namespaces/att/tables/mine";
    Snapshot before = Snapshot.take();
    for (String location : foreign()) {
      String json = JSON.writeValueAsString(location);
      assertVendsNothing(
          bed.send(
              attacker,
              "POST",
              table,
              "{\"requirements\": [], \"updates\": [{\"action\": \"set-location\", \"location\": "
                  + json
                  + "}]}",
              true),
          "set-location " + location);
      for (String property : LocationPolicy.LOCATION_PROPERTIES) {
        assertVendsNothing(
            bed.send(
                attacker,
                "POST",
                table,
                "{\"requirements\": [], \"updates\": [{\"action\":"
                    + " \"set-properties\", \"updates\": {\""
                    + property
                    + "\": "
                    + json
                    + "}}]}",
                true),
            property + " " + location);
      }
    }
    before.assertUnchanged();
    // Control: re-aiming inside its own location is a normal commit and vends for the table.
    HttpResponse<String> own =
        bed.send(
            attacker,
            "POST",
            table,
            "{\"requirements\": [], \"updates\": [{\"action\":"
                + " \"set-properties\", \"updates\": {\"write.data.path\": \""
                + bed.s3("wh/att/mine/d2")
                + "\"}}]}",
            true);
    assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
    assertThat(TestServer.json(own.body()).get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(bed.s3("wh/att/mine"));
  }

  /**
   * A second catalog on the same bucket: one laid out like the first (same base location), one
   * allowing unstructured locations anywhere in the bucket. Neither can claim the first one's
   * namespaces, tables, their folders, or a folder that contains them.
   */
  @Test
  void aSecondCatalogOnTheSameBucketCannotClaimAnotherCatalogsTables() throws Exception {
    bed.createCatalog("twin", "wh", "wh", Map.of());
    bed.createNamespace("twin", "own");
    bed.createCatalog("loose", "loose", "", Map.of("allowUnstructuredLocations", "true"));
    bed.createNamespace("loose", "att");
    Admin admin = bed.admin();
    admin.catalogRole("twin", "twin_writer", "attackers");
    admin.grant(
        "twin", "twin_writer", Admin.grantJson("namespace", List.of("own"), null, "TABLE_CREATE"));
    admin.grant(
        "twin",
        "twin_writer",
        Admin.grantJson("namespace", List.of("own"), null, "TABLE_WRITE_DATA"));
    admin.catalogRole("loose", "loose_writer", "attackers");
    admin.grant(
        "loose",
        "loose_writer",
        Admin.grantJson("namespace", List.of("att"), null, "TABLE_CREATE"));
    admin.grant(
        "loose",
        "loose_writer",
        Admin.grantJson("namespace", List.of("att"), null, "TABLE_WRITE_DATA"));
    Snapshot before = Snapshot.take();
    // twin.vic would be lake's vic folder: even the service admin cannot create it, nor put a
    // namespace of twin's at or inside lake's vic.secret.
    String namespaces = "/api/catalog/v1/twin/namespaces";
    for (String body :
        List.of(
            "{\"namespace\": [\"vic\"]}",
            "{\"namespace\": [\"v2\"], \"properties\": {\"location\": \""
                + bed.s3("wh/vic/secret")
                + "\"}}",
            "{\"namespace\": [\"v3\"], \"properties\": {\"location\": \""
                + bed.s3("wh/vic/secret/x")
                + "\"}}")) {
      HttpResponse<String> refused = bed.server().send("POST", namespaces, body);
      assertThat(refused.statusCode()).as(body + " -> " + refused.body()).isEqualTo(403);
      assertThat(refused.body()).contains("ForbiddenException");
    }
    for (boolean stage : List.of(false, true)) {
      assertVendsNothing(
          createAsAttacker("twin", "own", "x", stage, bed.s3("wh/vic/secret/x"), Map.of()),
          "twin inside");
      for (String location :
          List.of(
              bed.s3("wh/vic/secret"),
              bed.s3("wh/vic/secret/data"),
              bed.s3("wh/att/t2"),
              bed.s3("wh/vic"),
              bed.s3("wh"),
              "s3://" + bucket + "/")) {
        assertVendsNothing(
            createAsAttacker("loose", "att", "grab", stage, location, Map.of()),
            "loose " + location);
        assertVendsNothing(
            createAsAttacker(
                "loose", "att", "grab", stage, null, Map.of("write.data.path", location)),
            "loose write.data.path " + location);
      }
    }
    before.assertUnchanged();
    // Control: both catalogs vend for a place nobody claims.
    JsonNode twin =
        TestServer.json(createAsAttacker("twin", "own", "fresh", false, null, Map.of()).body());
    assertThat(twin.get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(bed.s3("wh/own/fresh"));
    JsonNode loose =
        TestServer.json(
            createAsAttacker("loose", "att", "fine", false, bed.s3("elsewhere/fine"), Map.of())
                .body());
    assertThat(loose.get("storage-credentials").get(0).get("prefix").asText())
        .isEqualTo(bed.s3("elsewhere/fine"));
  }

  /**
   * Spellings the rules accept because they are other keys than the sibling's ("t2 " and "%74%32"
   * are not "t2" to S3): the credential vended for them must not reach t2 at RGW.
   */
  /**
   * Other spellings of the sibling "t2" are other keys to S3 (RGW neither decodes percent-escapes
   * in a session policy nor folds case), so the rules accept them; the credential vended for each
   * works on its own literal prefix and RGW refuses it on t2's.
   */
  @Test
  void otherSpellingsOfASiblingNeverReachIt() throws Exception {
    List<String> spellings =
        List.of(
            "wh/att/%74%32",
            "wh/att/t%32",
            "wh/att/%2574%2532",
            "wh/att/t2%20",
            "wh/att/T2",
            "wh/att/t2\u00a0",
            "wh/att/t2\ufeff",
            "wh/att/t2+");
    int vended = 0;
    for (int i = 0; i < spellings.size(); i++) {
      String spelling = spellings.get(i);
      HttpResponse<String> created =
          createAsAttacker(LAKE, "att", "alias" + i, false, bed.s3(spelling), Map.of());
      if (created.statusCode() == 403) {
        assertVendsNothing(created, spelling);
        continue;
      }
      assertThat(created.statusCode()).as(spelling + " -> " + created.body()).isEqualTo(200);
      JsonNode response = TestServer.json(created.body());
      assertThat(response.get("storage-credentials")).as(spelling).hasSize(1);
      assertThat(response.get("storage-credentials").get(0).get("prefix").asText())
          .isEqualTo(bed.s3(spelling));
      vended++;
      try (S3Client rw = bed.vendedClient(response)) {
        assertThat(CephRgw.put(rw, bucket, spelling + "/data/own.bin", new byte[] {1}))
            .as(spelling)
            .isEqualTo(200);
        assertS3Status(403, () -> CephRgw.get(rw, bucket, "wh/att/t2/data/v.parquet"));
        CephRgw.assertPutRefused(rw, bucket, "wh/att/t2/data/evil.bin", new byte[] {6});
        CephRgw.assertPutRefused(rw, bucket, "wh/att/t2/data/v.parquet", new byte[] {6});
        assertS3Status(403, () -> CephRgw.list(rw, bucket, "wh/att/t2/"));
      }
    }
    assertThat(vended).isGreaterThanOrEqualTo(6);
  }

  /**
   * Ceph RGW reads a space in a session policy as '+': a credential for "v w" would be one for
   * "v+w", another table's folder (measured: read, write and list). A location with a space is
   * therefore served without credentials; '+' itself is vended for as written.
   */
  @Test
  void aSpaceNeverScopesACredentialToAnotherTablesPlus() throws Exception {
    HttpResponse<String> victim =
        server.send(
            "POST",
            API + LAKE + "/namespaces/att/tables",
            "{\"name\": \"plus\","
                + " \"location\": \""
                + bed.s3("wh/att/v+w")
                + "\", \"schema\": "
                + AuthorizationMatrixTest.SCHEMA
                + "}");
    assertThat(victim.statusCode()).as(victim.body()).isEqualTo(200);
    try (S3Client admin = bed.rgw().adminClient()) {
      CephRgw.put(
          admin,
          bucket,
          "wh/att/v+w/data/v.parquet",
          "victim plus".getBytes(StandardCharsets.UTF_8));
    }
    HttpResponse<String> spaced =
        createAsAttacker(LAKE, "att", "spaced", false, bed.s3("wh/att/v w"), Map.of());
    HttpResponse<String> spacedData =
        createAsAttacker(
            LAKE,
            "att",
            "spaced_data",
            false,
            null,
            Map.of("write.data.path", bed.s3("wh/att/v w")));
    for (HttpResponse<String> response : List.of(spaced, spacedData)) {
      assertThat(response.statusCode()).as(response.body()).isIn(200, 403);
      assertThat(response.body()).doesNotContain("s3.session-token", "s3.access-key-id");
      assertThat(TestServer.json(response.body()).path("storage-credentials").size()).isZero();
    }
    for (String table : List.of("spaced", "spaced_data")) {
      HttpResponse<String> loaded =
          bed.send(attacker, "GET", API + LAKE + "/namespaces/att/tables/" + table, null, true);
      assertThat(loaded.statusCode()).isIn(200, 404);
      assertThat(loaded.body()).doesNotContain("s3.session-token");
    }
    // Control: the '+' table's own credential is scoped to it as written.
    try (S3Client own = bed.vendedClient(bed.load(server.rootToken(), LAKE, "att", "plus", true))) {
      assertThat(
              new String(
                  CephRgw.getBytes(own, bucket, "wh/att/v+w/data/v.parquet"),
                  StandardCharsets.UTF_8))
          .isEqualTo("victim plus");
      assertS3Status(403, () -> CephRgw.get(own, bucket, "wh/att/t2/data/v.parquet"));
    }
  }

  /** RGW, not Sluice, refuses a vended credential everywhere but its own table's prefix. */
  @Test
  void aVendedCredentialReachesOnlyItsOwnTableAtRgw() throws Exception {
    HttpResponse<String> created = createAsAttacker(LAKE, "att", "t", false, null, Map.of());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    String own = "wh/att/t/data/";
    List<String> siblings = List.of("wh/att/t2/", "wh/vic/secret/", "wh/vic/t/");
    try (S3Client rw = bed.vendedClient(TestServer.json(created.body()));
        S3Client admin = bed.rgw().adminClient()) {
      assertThat(CephRgw.put(rw, bucket, own + "own.bin", new byte[] {1, 2})).isEqualTo(200);
      assertThat(CephRgw.getBytes(rw, bucket, own + "own.bin")).containsExactly(1, 2);
      assertThat(CephRgw.list(rw, bucket, "wh/att/t/")).isEqualTo(200);
      for (String sibling : siblings) {
        assertS3Status(403, () -> CephRgw.get(rw, bucket, sibling + "data/v.parquet"));
        CephRgw.assertPutRefused(rw, bucket, sibling + "data/evil.bin", new byte[] {6});
        CephRgw.assertPutRefused(rw, bucket, sibling + "data/v.parquet", new byte[] {6});
        assertS3Status(403, () -> CephRgw.delete(rw, bucket, sibling + "data/v.parquet"));
        assertS3Status(403, () -> CephRgw.list(rw, bucket, sibling));
        assertS3Status(403, () -> CephRgw.list(rw, bucket, sibling + "data/"));
      }
      // "wh/att/t" without the slash would list t2's objects too
      for (String wider : List.of("wh/att/t", "wh/att/", "wh/", "")) {
        assertS3Status(403, () -> CephRgw.list(rw, bucket, wider));
      }
      assertThat(CephRgw.delete(rw, bucket, own + "own.bin")).isEqualTo(204);
      assertS3Status(404, () -> CephRgw.get(admin, bucket, own + "own.bin"));
      for (String sibling : siblings) {
        assertThat(
                new String(
                    CephRgw.getBytes(admin, bucket, sibling + "data/v.parquet"),
                    StandardCharsets.UTF_8))
            .startsWith("victim ");
        assertS3Status(404, () -> CephRgw.get(admin, bucket, sibling + "data/evil.bin"));
      }
      CephRgw.put(admin, bucket, own + "r.bin", new byte[] {3});
    }
    // A reader of the same table gets a read-only credential: its own objects, read only.
    try (S3Client ro = bed.vendedClient(bed.load(peeker, LAKE, "att", "t", true))) {
      assertThat(CephRgw.getBytes(ro, bucket, own + "r.bin")).containsExactly(3);
      assertThat(CephRgw.list(ro, bucket, "wh/att/t/")).isEqualTo(200);
      CephRgw.assertPutRefused(ro, bucket, own + "w.bin", new byte[] {4});
      CephRgw.assertPutRefused(ro, bucket, own + "r.bin", new byte[] {4}); // an overwrite
      assertS3Status(403, () -> CephRgw.delete(ro, bucket, own + "r.bin"));
      for (String sibling : siblings) {
        assertS3Status(403, () -> CephRgw.get(ro, bucket, sibling + "data/v.parquet"));
        assertS3Status(403, () -> CephRgw.list(ro, bucket, sibling));
      }
      assertS3Status(403, () -> CephRgw.list(ro, bucket, "wh/att/t"));
    }
  }

  /**
   * The attacker's table names victim objects in its metadata (an appended data file, a statistics
   * file); a purge deletes the table's own files with the catalog's keys and skips those.
   */
  @Test
  void purgeDeletesOnlyTheTablesOwnFiles() throws Exception {
    String victimData = "wh/vic/secret/data/v.parquet";
    String victimStats = "wh/att/t2/data/v.parquet";
    String ownKey;
    try (RESTCatalog client = bed.client(LAKE, attackerCredentials)) {
      Table table = client.createTable(TableIdentifier.of("att", "p"), RgwVendingBed.SCHEMA);
      DataFile mine = RgwVendingBed.writeDataFile(table, "mine.parquet", "mine");
      ownKey = bed.key(mine.location(), "");
      DataFile theirs =
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(bed.s3(victimData))
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(13)
              .withRecordCount(1)
              .build();
      table.newAppend().appendFile(mine).appendFile(theirs).commit();
      long snapshot = table.currentSnapshot().snapshotId();
      try {
        table
            .updateStatistics()
            .setStatistics(
                new GenericStatisticsFile(snapshot, bed.s3(victimStats), 16, 4, List.of()))
            .commit();
      } catch (ForbiddenException refusedUpFront) {
        // also fine: the path never reaches the metadata
      }
    }
    try (S3Client admin = bed.rgw().adminClient()) {
      assertThat(CephRgw.get(admin, bucket, ownKey)).isEqualTo(200);
      assertThat(keys(admin, "wh/att/p/"))
          .hasSizeGreaterThanOrEqualTo(4); // data, manifest, list, metadata
      HttpResponse<String> purged =
          bed.send(
              attacker,
              "DELETE",
              API + LAKE + "/namespaces/att/tables/p?purgeRequested=true",
              null,
              false);
      assertThat(purged.statusCode()).as(purged.body()).isEqualTo(204);
      assertThat(new String(CephRgw.getBytes(admin, bucket, victimData), StandardCharsets.UTF_8))
          .isEqualTo("victim secret");
      assertThat(new String(CephRgw.getBytes(admin, bucket, victimStats), StandardCharsets.UTF_8))
          .isEqualTo("victim t2");
      assertS3Status(404, () -> CephRgw.get(admin, bucket, ownKey));
      assertThat(keys(admin, "wh/att/p/")).isEmpty();
    }
  }

  // ------------------------------------------------------------------ helpers

  private static HttpResponse<String> createAsAttacker(
      String catalog,
      String ns,
      String name,
      boolean stage,
      String location,
      Map<String, String> properties)
      throws Exception {
    StringBuilder body =
        new StringBuilder(
            "{\"name\": \"" + name + "\", \"schema\": " + AuthorizationMatrixTest.SCHEMA);
    if (stage) {
      body.append(", \"stage-create\": true");
    }
    if (location != null) {
      body.append(", \"location\": ").append(JSON.writeValueAsString(location));
    }
    if (!properties.isEmpty()) {
      body.append(", \"properties\": ").append(JSON.writeValueAsString(properties));
    }
    return bed.send(
        attacker,
        "POST",
        API + catalog + "/namespaces/" + ns + "/tables",
        body.append('}').toString(),
        true);
  }

  /** 403 with an Iceberg ErrorResponse, and not a trace of a credential. */
  private static void assertVendsNothing(HttpResponse<String> response, String what)
      throws Exception {
    assertThat(response.statusCode()).as(what + " -> " + response.body()).isEqualTo(403);
    JsonNode error = TestServer.json(response.body()).get("error");
    assertThat(error).as(what + " -> " + response.body()).isNotNull();
    assertThat(error.get("code").asInt()).isEqualTo(403);
    assertThat(error.get("type").asText()).isEqualTo("ForbiddenException");
    assertThat(error.get("message").asText()).as(what).isNotBlank();
    assertThat(response.body())
        .as(what)
        .doesNotContain("s3.access-key-id", "s3.session-token", "storage-credentials");
  }

  /** Object keys under {@code prefix} with their ETags, read with the bed's own keys. */
  private static Map<String, String> keys(S3Client admin, String prefix) {
    Map<String, String> keys = new TreeMap<>();
    admin
        .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
        .contents()
        .forEach(o -> keys.put(o.key(), o.eTag()));
    return keys;
  }

  /** Every catalog's tables with their metadata files, and every object in the bucket. */
  private record Snapshot(Map<String, String> tables, Map<String, String> objects) {
    static Snapshot take() throws Exception {
      Map<String, String> tables = new TreeMap<>();
      JsonNode catalogs =
          TestServer.json(server.send("GET", "/api/management/v1/catalogs", null).body())
              .get("catalogs");
      for (JsonNode catalog : catalogs) {
        String name = catalog.get("name").asText();
        for (JsonNode ns :
            TestServer.json(server.send("GET", API + name + "/namespaces", null).body())
                .get("namespaces")) {
          String namespace = ns.get(0).asText();
          JsonNode ids =
              TestServer.json(
                  server
                      .send("GET", API + name + "/namespaces/" + namespace + "/tables", null)
                      .body());
          for (JsonNode id : ids.get("identifiers")) {
            String table = id.get("name").asText();
            tables.put(
                name + "." + namespace + "." + table,
                bed.load(server.rootToken(), name, namespace, table, false)
                    .get("metadata-location")
                    .asText());
          }
        }
      }
      try (S3Client admin = bed.rgw().adminClient()) {
        return new Snapshot(tables, keys(admin, ""));
      }
    }

    void assertUnchanged() throws Exception {
      Snapshot now = take();
      assertThat(now.tables()).isEqualTo(tables);
      assertThat(new ArrayList<>(now.objects().keySet()))
          .isEqualTo(new ArrayList<>(objects.keySet()));
      assertThat(now.objects()).isEqualTo(objects);
    }
  }
}
