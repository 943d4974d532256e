package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A scan plan's storage access on the real Ceph RGW: a reader plans {@code region = 'emea'} of a
 * table partitioned by region; the plan's vended credential reads the plan's files, and RGW refuses
 * it on the other partition's file and on the table's metadata; the plan's signing endpoint signs
 * reads of the plan's files only, and only for the plan's owner.
 */
@NeedsTestBeds
class ScanPlanVendingRgwTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "secret", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();
  private static final String ORDERS = "/api/catalog/v1/lake/namespaces/sales/tables/orders";

  private static RgwVendingBed bed;
  private static TestServer server;
  private static String emea1;
  private static String emea2;
  private static String apac;
  private static String metadataFile;
  private static String readerToken;
  private static String otherToken;
  private static String[] analyst;
  private static String analystToken;

  @BeforeAll
  static void start() throws Exception {
    bed = RgwVendingBed.start("plans");
    server = bed.server();
    bed.createCatalog(
        "lake",
        "wh",
        "wh",
        Map.of(),
        Map.of("delegation", List.of("vended-credentials", "remote-signing")));
    bed.createNamespace("lake", "sales");
    try (RESTCatalog root =
        bed.client("lake", new String[] {TestServer.CLIENT_ID, TestServer.SECRET})) {
      Table orders =
          root.createTable(TableIdentifier.of(Namespace.of("sales"), "orders"), SCHEMA, SPEC);
      AppendFiles append = orders.newAppend();
      DataFile a = write(orders, "emea", "a.parquet");
      DataFile b = write(orders, "emea", "b.parquet");
      DataFile c = write(orders, "apac", "c.parquet");
      append.appendFile(a).appendFile(b).appendFile(c).commit();
      emea1 = a.location();
      emea2 = b.location();
      apac = c.location();
      metadataFile =
          ((HasTableOperations) root.loadTable(TableIdentifier.of("sales", "orders")))
              .operations()
              .current()
              .metadataFileLocation();
    }
    Admin admin = bed.admin();
    String[] reader = admin.principal("reader", "readers");
    admin.catalogRole("lake", "sales_read", "readers");
    admin.grant(
        "lake",
        "sales_read",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
    readerToken = server.token(reader[0], reader[1]);
    String[] other = admin.principal("other", "readers");
    otherToken = server.token(other[0], other[1]);
    // An analyst who may read sales, but only EMEA's rows and never the secret column.
    analyst = admin.principal("analyst", "emea_only");
    admin.catalogRole("lake", "sales_emea", "emea_only");
    admin.grant(
        "lake",
        "sales_emea",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_WRITE_DATA"));
    HttpResponse<String> restricted =
        server.send(
            "PUT",
            "/api/management/v1/catalogs/lake/namespaces/sales/tables/orders/read-restrictions/emea_only",
            "{\"rowFilter\": {\"type\": \"eq\", \"term\": \"region\", \"value\": \"emea\"},"
                + " \"hiddenColumns\": [\"secret\"], \"maskedColumns\": {}}");
    assertThat(restricted.statusCode()).as(restricted.body()).isBetween(200, 204);
    analystToken = server.token(analyst[0], analyst[1]);
  }

  @AfterAll
  static void stop() throws Exception {
    bed.close();
  }

  private static DataFile write(Table table, String region, String name) throws Exception {
    OutputFile out =
        table.io().newOutputFile(table.location() + "/data/region=" + region + "/" + name);
    try (OutputStream stream = out.create()) {
      stream.write(("rows of " + region).getBytes(StandardCharsets.UTF_8));
    }
    return DataFiles.builder(SPEC)
        .withPath(out.location())
        .withPartitionPath("region=" + region)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(12)
        .withRecordCount(1)
        .build();
  }

  private static HttpResponse<String> send(
      String token, String method, String path, String body, String delegation) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json");
    if (delegation != null) {
      request.header("X-Iceberg-Access-Delegation", delegation);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode planEmea(String delegation) throws Exception {
    HttpResponse<String> plan =
        send(
            readerToken,
            "POST",
            ORDERS + "/plan",
            "{\"filter\": {\"type\": \"eq\", \"term\": \"region\", \"value\": \"emea\"}}",
            delegation);
    assertThat(plan.statusCode()).as(plan.body()).isEqualTo(200);
    JsonNode json = TestServer.json(plan.body());
    assertThat(json.get("status").asText()).isEqualTo("completed");
    assertThat(json.get("file-scan-tasks")).hasSize(2);
    return json;
  }

  @Test
  void aPlansVendedCredentialReadsItsFilesAndRgwRefusesTheRest() throws Exception {
    JsonNode plan = planEmea("vended-credentials");
    JsonNode credentials = plan.get("storage-credentials");
    assertThat(credentials).isNotEmpty();
    VendingContract.StoreClient store = bed.store(credentials.get(0).get("config"));
    assertThat(new String(store.get(emea1), StandardCharsets.UTF_8)).isEqualTo("rows of emea");
    assertThat(new String(store.get(emea2), StandardCharsets.UTF_8)).isEqualTo("rows of emea");
    // Refused by RGW: the other partition's file, and the table's metadata (manifests hold every
    // partition's statistics).
    RgwVendingBed.assertS3Status(403, () -> store.get(apac));
    RgwVendingBed.assertS3Status(403, () -> store.get(metadataFile));
    RgwVendingBed.assertS3Status(403, () -> store.put(emea1 + ".new", new byte[] {1}));

    // Refreshed through the plan, also after its client cancelled it: the same reach.
    String planId = plan.get("plan-id").asText();
    assertThat(send(readerToken, "DELETE", ORDERS + "/plan/" + planId, null, null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> refresh =
        send(readerToken, "GET", ORDERS + "/credentials?planId=" + planId, null, null);
    assertThat(refresh.statusCode()).as(refresh.body()).isEqualTo(200);
    VendingContract.StoreClient again =
        bed.store(TestServer.json(refresh.body()).get("storage-credentials").get(0).get("config"));
    assertThat(again.get(emea1)).isNotNull();
    RgwVendingBed.assertS3Status(403, () -> again.get(apac));
  }

  @Test
  void signingServesOnlyReadsOfThePlansFiles() throws Exception {
    JsonNode plan = planEmea("remote-signing");
    JsonNode config = plan.get("storage-credentials").get(0).get("config");
    String endpoint = config.get("s3.signer.endpoint").asText();
    String planId = plan.get("plan-id").asText();
    assertThat(endpoint).endsWith("/tables/orders/plan/" + planId + "/sign");
    assertThat(config.has("s3.access-key-id")).isFalse();
    String path = "/api/catalog/" + endpoint;

    assertThat(sign(readerToken, path, "GET", emea1).statusCode()).isEqualTo(200);
    assertThat(sign(readerToken, path, "HEAD", emea2).statusCode()).isEqualTo(200);
    // Not in the plan, or not a read: refused by Sluice.
    HttpResponse<String> other = sign(readerToken, path, "GET", apac);
    assertThat(other.statusCode()).as(other.body()).isEqualTo(403);
    assertThat(other.body()).contains("scan plan");
    assertThat(sign(readerToken, path, "PUT", emea1).statusCode()).isEqualTo(403);
    assertThat(sign(readerToken, path, "DELETE", emea1).statusCode()).isEqualTo(403);
    // Another reader of the table: the plan is not theirs.
    assertThat(sign(otherToken, path, "GET", emea1).statusCode()).isEqualTo(404);
    // Cancelled once planned (Iceberg's client does so before its readers start): its tasks are
    // gone, its signer still serves its files, and only them, until the plan expires.
    assertThat(send(readerToken, "DELETE", ORDERS + "/plan/" + planId, null, null).statusCode())
        .isEqualTo(204);
    assertThat(send(readerToken, "GET", ORDERS + "/plan/" + planId, null, null).statusCode())
        .isEqualTo(404);
    assertThat(sign(readerToken, path, "GET", emea1).statusCode()).isEqualTo(200);
    assertThat(sign(readerToken, path, "GET", apac).statusCode()).isEqualTo(403);
    assertThat(sign(otherToken, path, "GET", emea1).statusCode()).isEqualTo(404);
  }

  @Test
  void aRestrictedReaderReadsOnlyItsRowsFilesThroughItsPlan() throws Exception {
    // Its load: no storage access, server planning, the restriction, no secret column.
    HttpResponse<String> load = send(analystToken, "GET", ORDERS, null, "vended-credentials");
    assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
    JsonNode loaded = TestServer.json(load.body());
    assertThat(loaded.has("storage-credentials")).isFalse();
    assertThat(loaded.get("config").get("scan-planning-mode").asText()).isEqualTo("server");
    assertThat(loaded.get("config").has("s3.access-key-id")).isFalse();
    assertThat(loaded.at("/read-restrictions/required-row-filter").toString()).contains("emea");
    assertThat(loaded.at("/metadata/schemas/0/fields").toString()).doesNotContain("secret");

    // Its plan of the whole table: EMEA's files only, with a credential RGW confines to them.
    HttpResponse<String> planned =
        send(analystToken, "POST", ORDERS + "/plan", "{}", "vended-credentials");
    assertThat(planned.statusCode()).as(planned.body()).isEqualTo(200);
    JsonNode plan = TestServer.json(planned.body());
    assertThat(plan.get("file-scan-tasks")).hasSize(2);
    assertThat(plan.get("file-scan-tasks").toString()).doesNotContain("region=apac");
    VendingContract.StoreClient store =
        bed.store(plan.get("storage-credentials").get(0).get("config"));
    assertThat(store.get(emea1)).isNotNull();
    RgwVendingBed.assertS3Status(403, () -> store.get(apac));
    RgwVendingBed.assertS3Status(403, () -> store.get(metadataFile));

    // Nothing table-wide, no hidden column, no write, even with TABLE_WRITE_DATA.
    assertThat(send(analystToken, "GET", ORDERS + "/credentials", null, null).statusCode())
        .isEqualTo(403);
    HttpResponse<String> hidden =
        send(analystToken, "POST", ORDERS + "/plan", "{\"select\": [\"secret\"]}", null);
    assertThat(hidden.statusCode()).as(hidden.body()).isEqualTo(403);
    assertThat(
            sign(
                    analystToken,
                    "/api/catalog/v1/lake/namespaces/sales/tables/orders/sign",
                    "GET",
                    emea1)
                .statusCode())
        .isEqualTo(403);
    HttpResponse<String> commit =
        send(
            analystToken,
            "POST",
            ORDERS,
            "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}",
            null);
    assertThat(commit.statusCode()).as(commit.body()).isEqualTo(403);

    // Through remote signing, a file of another partition is refused by Sluice.
    JsonNode signed =
        TestServer.json(
            send(analystToken, "POST", ORDERS + "/plan", "{}", "remote-signing").body());
    String endpoint =
        "/api/catalog/"
            + signed
                .get("storage-credentials")
                .get(0)
                .get("config")
                .get("s3.signer.endpoint")
                .asText();
    assertThat(sign(analystToken, endpoint, "GET", emea2).statusCode()).isEqualTo(200);
    assertThat(sign(analystToken, endpoint, "GET", apac).statusCode()).isEqualTo(403);

    // The audit trail says who enforced the row filter: the store.
    List<String> details = awaitPlanEvents("analyst", 2);
    assertThat(details).hasSizeGreaterThanOrEqualTo(2);
    assertThat(details)
        .allSatisfy(d -> assertThat(d).contains("\"rowFilter\":\"enforced by storage\""));
    assertThat(details).anySatisfy(d -> assertThat(d).contains("vended: the plan's 2 files"));
  }

  @Test
  void icebergsJavaClientPlansOnTheServerForARestrictedReader() throws Exception {
    try (RESTCatalog client =
        bed.client(
            "lake", analyst, Map.of("header.X-Iceberg-Access-Delegation", "vended-credentials"))) {
      Table orders = client.loadTable(TableIdentifier.of("sales", "orders"));
      assertThat(orders.schema().findField("secret")).isNull();
      List<String> files = new java.util.ArrayList<>();
      try (var tasks = orders.newScan().planFiles()) {
        tasks.forEach(t -> files.add(t.file().location()));
      }
      assertThat(files).containsExactlyInAnyOrder(emea1, emea2);
    }
  }

  /** The details of {@code principal}'s finished plans, once at least {@code count} are stored. */
  private static List<String> awaitPlanEvents(String principal, int count) throws Exception {
    List<String> details = new java.util.ArrayList<>();
    for (int i = 0; i < 50 && details.size() < count; i++) {
      Thread.sleep(100);
      HttpResponse<String> listed =
          server.send(
              "GET", "/api/management/v1/events?principal=" + principal + "&decision=ALLOW", null);
      assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
      details.clear();
      for (JsonNode event : TestServer.json(listed.body()).get("events")) {
        if (event.get("action").asText().equals("planTableScan") && event.hasNonNull("detail")) {
          details.add(event.get("detail").asText());
        }
      }
    }
    return details;
  }

  private static HttpResponse<String> sign(String token, String path, String method, String file)
      throws Exception {
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("region", bed.rgw().region());
    request.put("method", method);
    request.put("uri", bed.rgw().endpoint() + "/" + bed.bucket() + "/" + bed.key(file, ""));
    request.put("headers", Map.of("amz-sdk-invocation-id", List.of("1")));
    return send(token, "POST", path, JSON.writeValueAsString(request), null);
  }
}
