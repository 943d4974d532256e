package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A CREATE TABLE AS SELECT from Spark (Iceberg's {@code SparkCatalog}, whose CTAS is atomic:
 * stage-create, write, commit the create) into an S3 catalog on Ceph RGW whose credentials live
 * {@value #TTL_SECONDS} seconds, while the query writes its files for more than twice that. It
 * succeeds because the stage-create's answer names a refresh endpoint, {@code
 * …/credentials/{grant}}, which the engine's S3FileIO calls: the access log shows those calls,
 * answered 200. Without it the engine would have only the stage-create's credential, which RGW
 * refuses once it has expired: shown with such a credential, taken before the CTAS and tried after.
 * Runs in a test class's Spark session and server (whose {@code storage.vendingMinDurationSeconds}
 * must allow {@value #TTL_SECONDS}), on a catalog of its own at {@code s3://bucket/ctas}.
 */
final class SparkStagedCtas {
  static final int TTL_SECONDS = 3;
  private static final int SLEEP_PER_ROW_MS = 3_000;
  private static final String CATALOG = "lake_ctas";
  private static final String NS = "staged";
  private static final String STAGED_ROUTE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}/credentials/{grant}";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SparkSession spark;
  private final SluiceServerProcess server;
  private final Map<String, String> rgw;
  private final RgwTestBucket bucket;

  SparkStagedCtas(
      SparkSession spark,
      SluiceServerProcess server,
      Map<String, String> rgw,
      RgwTestBucket bucket) {
    this.spark = spark;
    this.server = server;
    this.rgw = rgw;
    this.bucket = bucket;
  }

  /** The whole scenario: catalog, a stage-create's own credential, the CTAS, the proofs. */
  void run() throws Exception {
    createCatalog();
    SparkSql.addCatalog(spark, CATALOG, server, CATALOG, server.credential());
    spark.sql("CREATE NAMESPACE " + CATALOG + "." + NS);
    // Each row waits before it is written: the files are written seconds after the stage-create.
    spark
        .udf()
        .register(
            "slow_id",
            (UDF1<Long, Long>)
                id -> {
                  Thread.sleep(SLEEP_PER_ROW_MS);
                  return id;
                },
            DataTypes.LongType);

    JsonNode stagedCredential = stageCreateCredential("expiring");
    String key = bucket.keyOf(stagedCredential.get("location").asText()) + "/data/x.parquet";
    JsonNode config = stagedCredential.get("config");
    try (S3Client vended = RgwTestBucket.vendedClient(rgw, config)) {
      put(vended, key);

      String table = CATALOG + "." + NS + ".slow";
      long started = System.nanoTime();
      // Four one-row partitions on two cores: two waves, files written about 3 s and 6 s in.
      spark.sql(
          "CREATE TABLE "
              + table
              + " USING iceberg AS SELECT slow_id(id) AS id FROM range(0, 4, 1, 4)");
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      assertThat(tookMs)
          .as("the CTAS outlived its credential twice")
          .isGreaterThan(2_000L * TTL_SECONDS);
      assertThat(SparkSql.column(SparkSql.rows(spark, "SELECT id FROM " + table), 0))
          .containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
      List<List<Object>> files = SparkSql.rows(spark, "SELECT file_path FROM " + table + ".files");
      assertThat(files).as("data files the CTAS wrote").hasSizeGreaterThanOrEqualTo(2);

      // The engine refreshed through the staged table's endpoint, and was never refused there.
      List<JsonNode> staged =
          AccessLogLines.records(server.logTail(Integer.MAX_VALUE).lines()).stream()
              .filter(r -> STAGED_ROUTE.equals(r.path("route").asText()))
              .toList();
      assertThat(staged).as("calls to the staged refresh endpoint").isNotEmpty();
      assertThat(staged).allSatisfy(r -> assertThat(r.path("status").asInt()).isEqualTo(200));

      // What the CTAS would have had without it: the stage-create's credential, refused by now.
      long expiresAt = Long.parseLong(config.get("s3.session-token-expires-at-ms").asText());
      assertThat(expiresAt).isLessThan(System.currentTimeMillis());
      assertThatThrownBy(() -> put(vended, key + ".late"))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isIn(400, 403));
    }
  }

  /** The S3 catalog {@value #CATALOG}, based and allowed at {@code s3://bucket/ctas}. */
  private void createCatalog() throws Exception {
    ObjectNode body = CatalogAdmin.rgwS3Catalog(rgw, bucket.name(), CATALOG);
    String location = "s3://" + bucket.name() + "/ctas";
    ObjectNode catalog = (ObjectNode) body.get("catalog");
    ((ObjectNode) catalog.get("properties")).put("default-base-location", location);
    ObjectNode storage = (ObjectNode) catalog.get("storageConfigInfo");
    storage.put("durationSeconds", TTL_SECONDS);
    storage.putArray("allowedLocations").add(location);
    CatalogAdmin.ok(server, "POST", "/api/management/v1/catalogs", JSON.writeValueAsString(body));
  }

  /** A stage-create's vended credential (its config, and its table's location). */
  private JsonNode stageCreateCredential(String name) throws Exception {
    HttpResponse<String> response =
        server.send(
            "POST",
            "/api/catalog/v1/" + CATALOG + "/namespaces/" + NS + "/tables",
            server.fetchToken(),
            "{\"name\": \""
                + name
                + "\", \"stage-create\": true, \"schema\": {\"type\": \"struct\", \"fields\":"
                + " [{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}",
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode answer = JSON.readTree(response.body());
    JsonNode config = answer.get("storage-credentials").get(0).get("config");
    assertThat(config.path("client.refresh-credentials-endpoint").asText())
        .startsWith("v1/" + CATALOG + "/namespaces/" + NS + "/tables/" + name + "/credentials/");
    ObjectNode out = JSON.createObjectNode();
    out.set("config", config);
    out.put("location", answer.at("/metadata/location").asText());
    return out;
  }

  private void put(S3Client client, String key) {
    client.putObject(b -> b.bucket(bucket.name()).key(key), RequestBody.fromBytes(new byte[] {1}));
  }
}
