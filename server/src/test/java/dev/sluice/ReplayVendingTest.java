package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * A replay vends only while its name still holds the table it answers (issue 32, finding 4), on the
 * real Ceph RGW. A replayed create used to vend for the first attempt's location whatever stood
 * there now: after a drop, another table created at that location in another namespace (the catalog
 * allows unstructured locations) was readable with the replay's credential by a principal who may
 * not load it.
 */
@NeedsTestBeds
class ReplayVendingTest {
  private static final String CATALOG = "replay_vend";
  private static final String API = "/api/catalog/v1/" + CATALOG;
  private static RgwVendingBed bed;
  private static String maker;
  private static String location;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("replayvend");
    bed.createCatalog(CATALOG, "wh", "wh", Map.of("allowUnstructuredLocations", "true"));
    bed.createNamespace(CATALOG, "mine");
    bed.createNamespace(CATALOG, "theirs");
    Admin admin = bed.admin();
    String[] credentials = admin.principal("rv_maker", "rv_makers");
    admin.catalogRole(CATALOG, "makers", "rv_makers");
    for (String privilege : List.of("TABLE_CREATE", "TABLE_WRITE_DATA", "TABLE_READ_DATA")) {
      admin.grant(
          CATALOG, "makers", Admin.grantJson("namespace", List.of("mine"), null, privilege));
    }
    maker = bed.server().token(credentials[0], credentials[1]);
    location = bed.s3("wh/shared/t");
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  private static HttpResponse<String> send(
      String token, String method, String path, String body, String key) throws Exception {
    Map<String, String> headers = new java.util.HashMap<>();
    headers.put(RgwVendingBed.DELEGATION, "vended-credentials");
    if (key != null) {
      headers.put("Idempotency-Key", key);
    }
    return bed.server().sendAs(token, method, path, body, headers);
  }

  private static String table(String name) {
    return "{\"name\": \""
        + name
        + "\", \"location\": \""
        + location
        + "\", \"schema\": {\"type\": \"struct\", \"fields\":"
        + " [{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}";
  }

  @Test
  void aReplayVendsForItsOwnTableOnlyNeverForWhatTookItsLocation() throws Exception {
    String key = IdempotencyKeyTest.newKey();
    String body = table("t");
    HttpResponse<String> first = send(maker, "POST", API + "/namespaces/mine/tables", body, key);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(TestServer.json(first.body()).get("storage-credentials")).isNotEmpty();

    // While the table is there, a replay vends as the first attempt did (the caller's grants now).
    HttpResponse<String> again = send(maker, "POST", API + "/namespaces/mine/tables", body, key);
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(TestServer.json(again.body()).get("storage-credentials")).isNotEmpty();

    // The table goes; another, in a namespace the maker has no grant in, takes its location.
    String root = bed.server().rootToken();
    assertThat(
            send(root, "DELETE", API + "/namespaces/mine/tables/t?purgeRequested=true", null, null)
                .statusCode())
        .isEqualTo(204);
    HttpResponse<String> theirs =
        send(root, "POST", API + "/namespaces/theirs/tables", table("v"), null);
    assertThat(theirs.statusCode()).as(theirs.body()).isEqualTo(200);
    String secretKey = bed.key(location, "/data/secret.txt");
    S3Client owner = bed.vendedClient(TestServer.json(theirs.body()));
    owner.putObject(
        PutObjectRequest.builder().bucket(bed.bucket()).key(secretKey).build(),
        RequestBody.fromString("theirs"));
    assertThat(send(maker, "GET", API + "/namespaces/theirs/tables/v", null, null).statusCode())
        .as("the maker may not load it")
        .isEqualTo(403);

    HttpResponse<String> replay = send(maker, "POST", API + "/namespaces/mine/tables", body, key);
    assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
    JsonNode replayed = TestServer.json(replay.body());
    assertThat(replayed.path("storage-credentials"))
        .as("no credential for a location another table holds now")
        .isEmpty();
    assertThat(replayed.path("config").toString()).doesNotContain("s3.secret-access-key");
  }
}
