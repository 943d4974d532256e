package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.location.LocationPolicy;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CatalogSnapshot;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The location-escape corpus on a real Ceph RGW, by a writer holding ordinary grants on namespace
 * {@code sales} of catalog {@code lake} (allowed: {@code s3://bucket/wh}). Each location outside
 * the table's own area is refused alike on create, stage-create and commit (set-location, each
 * location property, alone or in a multi-table transaction): 403 with an Iceberg ErrorResponse, no
 * credential, the table's metadata pointer as root loads it unchanged, and not an object written in
 * the bucket. The only creates that succeed are the IAM-special spellings inside the namespace,
 * never vended for. {@code s3a://} names the same bucket as {@code s3://}, in another catalog too.
 */
@NeedsTestBeds
class S3LocationEscapeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String API = "/api/catalog/v1/";
  private static final String LAKE = "lake";
  private static RgwVendingBed bed;
  private static TestServer server;
  private static String bucket;
  private static String writer;
  private static S3Client rgwAdmin;

  static final List<String> ESCAPES =
      List.of(
          "s3://%1$s/wh2/t",
          "s3://%1$s/w",
          "s3://%1$s/",
          "s3://%1$s",
          "s3://other/wh/t",
          "s3://%1$s-x/wh/t",
          "gs://%1$s/wh/t",
          "file:/etc",
          "s3://%1$s/wh/../x",
          "s3://%1$s/wh/./t",
          "s3://%1$s/wh/%%2e%%2e/x",
          "s3://%1$s/wh/%%2E%%2E/x",
          "s3://%1$s/wh/.%%2e/x",
          "s3://%1$s/wh/%%252e%%252e/x",
          "s3://%1$s/wh/ns%%2f..%%2fx",
          "s3://%1$s/wh/ns%%2Ft",
          "s3://%1$s/wh/t?x=1",
          "s3://%1$s/wh/t?",
          "s3://%1$s/wh/t#frag",
          "s3://%1$s/wh/t%%0a",
          "s3://%1$s/wh/t%%00",
          "s3://%1$s/wh\\..\\x",
          "s3://%1$s/wh/t%%5c..",
          "s3://%1$s/wh/%%zz",
          // IAM-special characters, inside the namespace (structured locations) so they are
          // creatable:
          "s3://%1$s/wh/sales/*",
          "s3://%1$s/wh/sales/t*",
          "s3://%1$s/wh/sales/${aws:username}",
          "s3://%1$s/wh/sales/$t",
          "s3://%1$s/wh/*",
          "s3://*/wh/t",
          "s3://%1$s/wh/sub/../../x",
          "s3a://%1$s/wh2/t",
          "s3://%1$s/WH/t");

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("escape");
    server = bed.server();
    bucket = bed.bucket();
    rgwAdmin = bed.rgw().adminClient();
    bed.createCatalog(LAKE, "wh", "wh", Map.of());
    bed.createNamespace(LAKE, "sales");
    ok(
        server.send(
            "POST", API + LAKE + "/namespaces/sales/tables", create("victim", null, Map.of())));
    Admin admin = bed.admin();
    String[] keys = admin.principal("writer", "writers");
    admin.catalogRole(LAKE, "sales_writer", "writers");
    for (String privilege : WRITER_PRIVILEGES) {
      admin.grant(
          LAKE, "sales_writer", Admin.grantJson("namespace", List.of("sales"), null, privilege));
    }
    writer = server.token(keys[0], keys[1]);
    ok(asWriter("POST", API + LAKE + "/namespaces/sales/tables", create("target", null, Map.of())));
    ok(asWriter("POST", API + LAKE + "/namespaces/sales/tables", create("other", null, Map.of())));
  }

  private static final List<String> WRITER_PRIVILEGES =
      List.of("TABLE_CREATE", "TABLE_WRITE_DATA", "TABLE_WRITE_PROPERTIES", "TABLE_READ_DATA");

  @AfterAll
  static void stop() throws Exception {
    rgwAdmin.close();
    bed.close();
  }

  @Test
  void theCorpusIsRefusedOnCreateAndOnEveryKindOfCommit() throws Exception {
    String tables = API + LAKE + "/namespaces/sales/tables";
    int servedWithout = 0;
    int refusals = 0;
    for (int i = 0; i < ESCAPES.size(); i++) {
      String location = String.format(ESCAPES.get(i), bucket);
      String name = "esc" + i;
      String objects = objects();
      for (boolean stage : List.of(true, false)) {
        String before = catalogs();
        HttpResponse<String> created =
            asWriter("POST", tables, create(name, location, Map.of(), stage));
        if (created.statusCode() == 200 && location.matches(".*/wh/sales/[^/]*[*$].*")) {
          // Inside the namespace with only IAM-special characters: a place, but never vended for.
          assertThat(TestServer.json(created.body()).path("storage-credentials").size())
              .as(location)
              .isZero();
          servedWithout += stage ? 0 : 1;
          objects = objects(); // its metadata file, written by a create that succeeded
        } else {
          refused(created, before, (stage ? "stage-create at " : "create at ") + location);
          refusals++;
        }
      }
      for (String property : LocationPolicy.LOCATION_PROPERTIES) {
        refused(
            "create with " + property + "=" + location,
            () -> asWriter("POST", tables, create("escp", null, Map.of(property, location))));
        refusals++;
      }
      for (Map<String, Object> update : updates(location)) {
        refused(
            "commit " + update,
            () -> asWriter("POST", tables + "/target", commit(update)),
            "lake.sales.target");
        refused(
            "transaction " + update,
            () -> asWriter("POST", API + LAKE + "/transactions/commit", transaction(update)),
            "lake.sales.target",
            "lake.sales.other");
        refusals += 2;
      }
      assertThat(objects()).as("objects after the refusals at " + location).isEqualTo(objects);
    }
    // The four IAM-special locations inside the namespace; everything else, every time.
    assertThat(servedWithout).isEqualTo(4);
    assertThat(refusals)
        .isEqualTo(ESCAPES.size() * (2 + 4 + 5 * 2) - 2 * 4)
        .isGreaterThanOrEqualTo(400);
  }

  /**
   * A second catalog allowed the whole bucket as {@code s3a://} (a Hadoop spelling the S3 backends
   * accept): the same objects as lake's {@code s3://} tables, so its tables may overlap them no
   * more than an {@code s3://} spelling may, on create or on commit. A structured catalog based at
   * {@code s3a://bucket/wh} cannot take lake's namespace folders either, not even as root.
   */
  @Test
  void anS3aSpellingOfAnotherCatalogsTableIsRefusedOnCreateAndCommit() throws Exception {
    String victim = "s3a://" + bucket + "/wh/sales/victim";
    String allowed = "s3a://" + bucket;
    createS3aCatalog("loose", allowed + "/", allowed + "/loose", true);
    bed.createNamespace("loose", "att");
    Admin admin = bed.admin();
    admin.catalogRole("loose", "loose_writer", "writers");
    for (String privilege : WRITER_PRIVILEGES) {
      admin.grant(
          "loose", "loose_writer", Admin.grantJson("namespace", List.of("att"), null, privilege));
    }
    String tables = API + "loose/namespaces/att/tables";
    ok(asWriter("POST", tables, create("own", null, Map.of())));
    List<String> spellings =
        List.of(
            victim,
            victim + "/data",
            victim + "/",
            "S3A://" + bucket + "/wh/sales/victim",
            "s3a://" + bucket + "//wh/sales/victim",
            "s3a://" + bucket + "/wh/sales",
            "s3a://" + bucket + "/wh",
            allowed + "/",
            allowed);
    for (String location : spellings) {
      String objects = objects();
      for (boolean stage : List.of(false, true)) {
        refused(
            (stage ? "stage-create at " : "create at ") + location,
            () -> asWriter("POST", tables, create("grab", location, Map.of(), stage)));
      }
      for (String property : LocationPolicy.LOCATION_PROPERTIES) {
        refused(
            "create with " + property + "=" + location,
            () -> asWriter("POST", tables, create("grab", null, Map.of(property, location))));
      }
      for (Map<String, Object> update : updates(location)) {
        refused(
            "commit " + update,
            () -> asWriter("POST", tables + "/own", commit(update)),
            "loose.att.own");
      }
      assertThat(objects()).as("objects after the refusals at " + location).isEqualTo(objects);
    }
    createS3aCatalog("twin", allowed + "/wh", allowed + "/wh", false);
    String objects = objects();
    refused(
        "twin.sales as root",
        () -> server.send("POST", API + "twin/namespaces", "{\"namespace\": [\"sales\"]}"));
    assertThat(objects()).isEqualTo(objects);
    // Control: a place nobody claims is vended for, scoped to it.
    JsonNode fine =
        ok(asWriter("POST", tables, create("fine", allowed + "/elsewhere/fine", Map.of(), false)));
    assertThat(fine.get("storage-credentials").get(0).get("prefix").asText())
        .endsWith(bucket + "/elsewhere/fine");
  }

  // ------------------------------------------------------------------ helpers

  /** One request whose answer must be a refusal. */
  @FunctionalInterface
  private interface Attack {
    HttpResponse<String> send() throws Exception;
  }

  /**
   * Runs {@code attack} and asserts {@link #refused(HttpResponse, String, String)}; each of {@code
   * tables} ({@code catalog.ns.table}) loads as root with the same metadata file before and after.
   */
  private static void refused(String what, Attack attack, String... tables) throws Exception {
    List<String> pointers = new ArrayList<>();
    for (String table : tables) {
      pointers.add(pointer(table));
    }
    String before = catalogs();
    refused(attack.send(), before, what);
    for (int i = 0; i < tables.length; i++) {
      assertThat(pointer(tables[i])).as(what + ": " + tables[i]).isEqualTo(pointers.get(i));
    }
  }

  /** The metadata file of {@code catalog.ns.table}, as root loads it. */
  private static String pointer(String table) throws Exception {
    String[] parts = table.split("\\.");
    return bed.load(server.rootToken(), parts[0], parts[1], parts[2], false)
        .get("metadata-location")
        .asText();
  }

  /**
   * Every catalog's namespaces, tables and views with their pointers and claims, read from the
   * store.
   */
  private static String catalogs() throws Exception {
    List<String> catalogs = new ArrayList<>();
    TestServer.json(server.send("GET", "/api/management/v1/catalogs", null).body())
        .get("catalogs")
        .forEach(c -> catalogs.add(c.get("name").asText()));
    return CatalogSnapshot.of(server.server().store(), catalogs);
  }

  /**
   * Every object in the bucket with its ETag, listed with the bed's own keys (once per batch of
   * refusals: an RGW listing takes tens of milliseconds).
   */
  private static String objects() {
    StringBuilder sb = new StringBuilder();
    rgwAdmin
        .listObjectsV2Paginator(b -> b.bucket(bucket))
        .contents()
        .forEach(o -> sb.append(o.key()).append(' ').append(o.eTag()).append('\n'));
    return sb.toString();
  }

  /** 403 in Iceberg's ErrorResponse shape, no credential, and the catalogs unchanged. */
  private static void refused(HttpResponse<String> response, String before, String what)
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
    assertThat(catalogs()).as(what + ": a refused request changes nothing").isEqualTo(before);
  }

  /** Every update that names a location: set-location, and each location property. */
  private static List<Map<String, Object>> updates(String location) {
    List<Map<String, Object>> updates = new ArrayList<>();
    updates.add(Map.of("action", "set-location", "location", location));
    for (String property : LocationPolicy.LOCATION_PROPERTIES) {
      updates.add(Map.of("action", "set-properties", "updates", Map.of(property, location)));
    }
    return updates;
  }

  private static String commit(Map<String, Object> update) throws Exception {
    return JSON.writeValueAsString(Map.of("requirements", List.of(), "updates", List.of(update)));
  }

  /** lake's sales.other changes harmlessly, sales.target with {@code update}: all or nothing. */
  private static String transaction(Map<String, Object> update) throws Exception {
    return JSON.writeValueAsString(
        Map.of(
            "table-changes",
            List.of(
                Map.of(
                    "identifier",
                    Map.of("namespace", List.of("sales"), "name", "other"),
                    "requirements",
                    List.of(),
                    "updates",
                    List.of(Map.of("action", "set-properties", "updates", Map.of("k", "v")))),
                Map.of(
                    "identifier",
                    Map.of("namespace", List.of("sales"), "name", "target"),
                    "requirements",
                    List.of(),
                    "updates",
                    List.of(update)))));
  }

  private static String create(String name, String location, Map<String, String> properties)
      throws Exception {
    return create(name, location, properties, false);
  }

  private static String create(
      String name, String location, Map<String, String> properties, boolean stage)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("schema", JSON.readTree(AuthorizationMatrixTest.SCHEMA));
    if (location != null) {
      body.put("location", location);
    }
    body.put("properties", properties);
    if (stage) {
      body.put("stage-create", true);
    }
    return JSON.writeValueAsString(body);
  }

  private static void createS3aCatalog(
      String name, String allowed, String base, boolean unstructured) throws Exception {
    String json =
        bed.catalogJson(name, bed.rgw().endpoint())
            .replace(
                "\"allowedLocations\": [\"" + bed.s3("wh") + "\"]",
                "\"allowedLocations\": [\"" + allowed + "\"]")
            .replace(
                "\"default-base-location\": \"" + bed.s3("wh") + "\"",
                "\"default-base-location\": \""
                    + base
                    + "\""
                    + (unstructured ? ", \"allowUnstructuredLocations\": \"true\"" : ""));
    assertThat(json).contains(allowed, base);
    ok(server.send("POST", "/api/management/v1/catalogs", json));
  }

  private static HttpResponse<String> asWriter(String method, String path, String body)
      throws Exception {
    return bed.send(writer, method, path, body, true);
  }

  private static JsonNode ok(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 204);
    return response.body().isEmpty() ? null : TestServer.json(response.body());
  }
}
