package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.WriterAndReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The loadTable ETag against real vended credentials (Ceph RGW with STS): the tag follows the
 * caller's access mode, the delegation kind and the credential itself, and a 304 never confirms a
 * credential that is replaced or about to expire.
 */
@NeedsTestBeds
class ConditionalLoadVendingTest {
  private static RgwVendingBed bed;
  private static TestServer server;
  private static Admin admin;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  // Offers both kinds, vends only when asked; 900-second credentials.
  private static final String LAKE = "lake";
  // 4-second credentials: the vending cache keeps one for 2 seconds.
  private static final String BRIEF = "brief";
  private static String[] writer;
  private static String[] reader;
  private static String[] mover;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("etag");
    server = bed.server();
    admin = bed.admin();
    String endpoint = bed.rgw().endpoint();
    createCatalog(
        bed.catalogJson(LAKE, endpoint)
            .replace(
                "\"durationSeconds\": 900}",
                "\"durationSeconds\": 900, \"vendCredentials\": \"on-request\","
                    + " \"delegation\": [\"vended-credentials\", \"remote-signing\"]}"));
    createCatalog(
        bed.catalogJson(BRIEF, endpoint)
            .replace("\"durationSeconds\": 900}", "\"durationSeconds\": 4}")
            .replace("/wh", "/brief"));
    WriterAndReader people = WriterAndReader.create(admin);
    writer = people.writer();
    reader = people.reader();
    mover = admin.principal("mover", "movers");
    for (String catalog : List.of(LAKE, BRIEF)) {
      bed.createNamespace(catalog, "ns");
      people
          .writes(catalog, "write_ns", List.of("ns"), List.of("TABLE_WRITE_DATA", "TABLE_CREATE"))
          .reads(catalog, "read_ns", List.of("ns"));
      admin.catalogRole(catalog, "move_t", "movers");
      try (RESTCatalog client = bed.client(catalog, writer)) {
        client.createTable(TableIdentifier.of("ns", "t"), RgwVendingBed.SCHEMA);
      }
    }
    admin.grant(LAKE, "move_t", Admin.grantJson("table", List.of("ns"), "t", "TABLE_READ_DATA"));
    admin.grant(LAKE, "move_t", Admin.grantJson("table", List.of("ns"), "t", "TABLE_WRITE_DATA"));
  }

  private static void createCatalog(String json) throws Exception {
    HttpResponse<String> created = server.send("POST", "/api/management/v1/catalogs", json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  private static HttpResponse<String> load(
      String[] who, String catalog, String delegation, String ifNoneMatch) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(
                    server.baseUrl() + "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/t"))
            .header("Authorization", "Bearer " + server.token(who[0], who[1]))
            .GET();
    if (delegation != null) {
      request.header(RgwVendingBed.DELEGATION, delegation);
    }
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String etagOf(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.headers().firstValue("ETag").orElseThrow();
  }

  private static String accessKey(HttpResponse<String> response) throws Exception {
    JsonNode body = TestServer.json(response.body());
    return body.get("storage-credentials").get(0).get("config").get("s3.access-key-id").asText();
  }

  private static void assertNotModified(HttpResponse<String> response, String etag) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(304);
    assertThat(response.body()).isEmpty();
    assertThat(response.headers().firstValue("ETag")).contains(etag);
  }

  @Test
  void readOnlyAndReadWriteCallersHoldDifferentTags() throws Exception {
    String vended = "vended-credentials";
    HttpResponse<String> asWriter = load(writer, LAKE, vended, null);
    HttpResponse<String> asReader = load(reader, LAKE, vended, null);
    String writerTag = etagOf(asWriter);
    String readerTag = etagOf(asReader);
    assertThat(accessKey(asWriter)).isNotEqualTo(accessKey(asReader));
    assertThat(readerTag).isNotEqualTo(writerTag);
    // each tag confirms only its own caller's response
    assertNotModified(load(writer, LAKE, vended, writerTag), writerTag);
    assertNotModified(load(reader, LAKE, vended, readerTag), readerTag);
    assertThat(etagOf(load(reader, LAKE, vended, writerTag))).isEqualTo(readerTag);
  }

  @Test
  void eachDelegationKindHasItsOwnTag() throws Exception {
    String none = etagOf(load(writer, LAKE, null, null));
    String vended = etagOf(load(writer, LAKE, "vended-credentials", null));
    String signing = etagOf(load(writer, LAKE, "remote-signing", null));
    assertThat(List.of(none, vended, signing)).doesNotHaveDuplicates();
    assertNotModified(load(writer, LAKE, "remote-signing", signing), signing);
    assertNotModified(load(writer, LAKE, null, none), none);
    // a client that drops the header is not told its credential-bearing response is current
    assertThat(etagOf(load(writer, LAKE, null, vended))).isEqualTo(none);
  }

  @Test
  void losingWriteAccessChangesTheTag() throws Exception {
    String vended = "vended-credentials";
    String readWrite = etagOf(load(mover, LAKE, vended, null));
    assertNotModified(load(mover, LAKE, vended, readWrite), readWrite);
    admin.revoke(LAKE, "move_t", Admin.grantJson("table", List.of("ns"), "t", "TABLE_WRITE_DATA"));
    HttpResponse<String> readOnly = load(mover, LAKE, vended, readWrite);
    assertThat(etagOf(readOnly)).isNotEqualTo(readWrite);
    assertThat(readOnly.body()).contains("storage-credentials");
  }

  @Test
  void aReplacedCredentialChangesTheTagAndAnAlmostExpiredOneIsNeverConfirmed() throws Exception {
    String vended = "vended-credentials";
    // Whatever the create left in the vending cache is gone after 2 seconds: the next load vends.
    Thread.sleep(2_500);
    HttpResponse<String> first = load(writer, BRIEF, vended, null);
    String tag = etagOf(first);
    // Within the cache's 2 seconds the same credential comes back, so the same tag; it has less
    // than a minute left, so no 304 confirms it.
    HttpResponse<String> again = load(writer, BRIEF, vended, tag);
    assertThat(etagOf(again)).isEqualTo(tag);
    assertThat(accessKey(again)).isEqualTo(accessKey(first));
    Thread.sleep(2_500);
    // The cache let it go; a new credential is vended, and the tag moves with it.
    HttpResponse<String> renewed = load(writer, BRIEF, vended, tag);
    assertThat(etagOf(renewed)).isNotEqualTo(tag);
    assertThat(accessKey(renewed)).isNotEqualTo(accessKey(first));
  }
}
