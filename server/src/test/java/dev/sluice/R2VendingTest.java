package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.Admin;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.R2Gateway;
import dev.sluice.testing.R2GatewayBed;
import dev.sluice.testing.RgwVendingBed;
import dev.sluice.testing.TestServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * R2 credential vending end to end without R2: a real Sluice server with an R2 catalog whose
 * endpoint is the loopback {@link R2Gateway} (R2's documented acceptance of temporary credentials,
 * in front of the Ceph RGW bed; fails, never skips, without the bed), the real Iceberg client with
 * S3FileIO holding no keys of its own, and the gateway deciding what a minted credential may touch.
 */
@NeedsTestBeds
class R2VendingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG = "r2lake";
  private static R2GatewayBed r2;
  private static R2Gateway gateway;
  private static TestServer server;
  private static String bucket;
  private static String[] writer;
  private static String[] reader;

  @BeforeAll
  static void start() throws Exception {
    r2 = R2GatewayBed.start("r2vend");
    gateway = r2.gateway();
    bucket = r2.bucket();
    server =
        TestServer.start(
            null,
            "storage:\n  credentialSources:\n    r2:\n      type: static\n"
                + "      accessKeyId: \""
                + r2.parentKeyId()
                + "\"\n      secretAccessKey: \""
                + r2.parentSecret()
                + "\"\n  vendingMinDurationSeconds: 1\n");
    createCatalog(CATALOG, "wh", 900);
    Admin admin = new Admin(server);
    for (String ns : List.of("sales", "hr")) {
      assertThat(namespace(CATALOG, ns).statusCode()).isEqualTo(200);
    }
    writer = admin.principal("writer", "writers");
    reader = admin.principal("reader", "readers");
    admin.catalogRole(CATALOG, "write_all", "writers");
    admin.catalogRole(CATALOG, "read_sales", "readers");
    for (String ns : List.of("sales", "hr")) {
      for (String privilege : List.of("TABLE_WRITE_DATA", "TABLE_CREATE", "TABLE_FULL_METADATA")) {
        admin.grant(
            CATALOG, "write_all", Admin.grantJson("namespace", List.of(ns), null, privilege));
      }
    }
    admin.grant(
        CATALOG,
        "read_sales",
        Admin.grantJson("namespace", List.of("sales"), null, "TABLE_READ_DATA"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (r2 != null) {
      r2.close();
    }
  }

  /** An R2 catalog on the gateway, allowed at and based on {@code s3://bucket/<path>}. */
  private static void createCatalog(String name, String path, int durationSeconds)
      throws Exception {
    String location = "s3://" + bucket + "/" + path;
    Map<String, Object> storage =
        Map.of(
            "storageType",
            "R2",
            "allowedLocations",
            List.of(location),
            "endpoint",
            gateway.endpoint(),
            "accountId",
            R2GatewayBed.ACCOUNT,
            "credentialSource",
            "r2",
            "durationSeconds",
            durationSeconds);
    String json =
        JSON.writeValueAsString(
            Map.of(
                "catalog",
                Map.of(
                    "name",
                    name,
                    "type",
                    "INTERNAL",
                    "properties",
                    Map.of("default-base-location", location),
                    "storageConfigInfo",
                    storage)));
    HttpResponse<String> created = server.send("POST", "/api/management/v1/catalogs", json);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(r2.parentSecret());
  }

  private static HttpResponse<String> namespace(String catalog, String ns) throws Exception {
    return server.send(
        "POST", "/api/catalog/v1/" + catalog + "/namespaces", "{\"namespace\": [\"" + ns + "\"]}");
  }

  /** The real client, configured with no storage keys at all; {credentials} = {id, secret}. */
  private static RESTCatalog client(String catalog, String[] credentials) {
    RESTCatalog client = new RESTCatalog();
    client.initialize(
        "sluice",
        Map.of(
            "uri",
            server.catalogUri(),
            "warehouse",
            catalog,
            "credential",
            credentials[0] + ":" + credentials[1]));
    return client;
  }

  /** loadTable asking for vended credentials; returns the first credential's config. */
  private static JsonNode vended(String[] who, String catalog, String ns, String table)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    server.baseUrl()
                        + "/api/catalog/v1/"
                        + catalog
                        + "/namespaces/"
                        + ns
                        + "/tables/"
                        + table))
            .header("Authorization", "Bearer " + server.token(who[0], who[1]))
            .header(RgwVendingBed.DELEGATION, "vended-credentials")
            .build();
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body()).get("storage-credentials").get(0).get("config");
  }

  /** A plain S3 client (through the gateway) holding only the vended credential. */
  private static S3Client s3(JsonNode config) {
    return r2.client(
        config.get("s3.access-key-id").asText(),
        config.get("s3.secret-access-key").asText(),
        config.get("s3.session-token").asText(),
        RequestChecksumCalculation.WHEN_SUPPORTED);
  }

  private static String key(String location) {
    return location.replace("s3://" + bucket + "/", "");
  }

  private static String read(Table table, String location) throws Exception {
    try (InputStream in = table.io().newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  /**
   * A table an R2 credential could not be scoped to (a bucket root, two buckets) is refused at
   * create and at commit with a 400 naming the property, and nothing is created or changed.
   */
  @Test
  void tablesThatCannotBeScopedAreRefusedNamingTheProperty() throws Exception {
    String other = r2.rgw().newBucket("r2other");
    Map<String, Object> storage =
        Map.of(
            "storageType",
            "R2",
            "allowedLocations",
            List.of("s3://" + bucket, "s3://" + other + "/x"),
            "endpoint",
            gateway.endpoint(),
            "accountId",
            R2GatewayBed.ACCOUNT,
            "credentialSource",
            "r2");
    String json =
        JSON.writeValueAsString(
            Map.of(
                "catalog",
                Map.of(
                    "name",
                    "r2roots",
                    "properties",
                    Map.of(
                        "default-base-location",
                        "s3://" + bucket + "/roots",
                        "allowUnstructuredLocations",
                        "true"),
                    "storageConfigInfo",
                    storage)));
    assertThat(server.send("POST", "/api/management/v1/catalogs", json).statusCode())
        .isEqualTo(201);
    assertThat(namespace("r2roots", "ns").statusCode()).isEqualTo(200);
    String tables = "/api/catalog/v1/r2roots/namespaces/ns/tables";
    String schema =
        "\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
            + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

    HttpResponse<String> root =
        server.send(
            "POST",
            tables,
            "{\"name\":\"root\",\"location\":\"s3://" + bucket + "\"," + schema + "}");
    assertThat(root.statusCode()).as(root.body()).isEqualTo(400);
    assertThat(root.body()).contains("location is the root of bucket");

    HttpResponse<String> split =
        server.send(
            "POST",
            tables,
            "{\"name\":\"split\","
                + schema
                + ",\"properties\":{\"write.data.path\":\"s3://"
                + other
                + "/x/data\"}}");
    assertThat(split.statusCode()).as(split.body()).isEqualTo(400);
    assertThat(split.body()).contains("write.data.path is in bucket " + other);
    for (String name : List.of("root", "split")) {
      assertThat(server.send("HEAD", tables + "/" + name, null).statusCode()).isEqualTo(404);
    }

    HttpResponse<String> ok = server.send("POST", tables, "{\"name\":\"ok\"," + schema + "}");
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    String before = JSON.readTree(ok.body()).get("metadata-location").asText();
    HttpResponse<String> commit =
        server.send(
            "POST",
            tables + "/ok",
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                + "\"updates\":{\"write.metadata.path\":\"s3://"
                + other
                + "/x/meta\"}}]}");
    assertThat(commit.statusCode()).as(commit.body()).isEqualTo(400);
    assertThat(commit.body()).contains("write.metadata.path is in bucket " + other);
    HttpResponse<String> after = server.send("GET", tables + "/ok", null);
    assertThat(JSON.readTree(after.body()).get("metadata-location").asText()).isEqualTo(before);
  }

  @Test
  void writerCreatesAppendsReadsBackAndDeletesWithMintedCredentialsOnly() throws Exception {
    long allowedBefore = gateway.allowed();
    long parentBefore = gateway.parentRequests();
    TableIdentifier id = TableIdentifier.of("sales", "orders");
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(id, RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "a.parquet", "order-1");
      table.newAppend().appendFile(file).commit();
      Table reloaded = client.loadTable(id);
      assertThat(reloaded.currentSnapshot().addedDataFiles(reloaded.io())).hasSize(1);
      assertThat(read(reloaded, file.location())).isEqualTo("order-1");
      assertThat(r2.adminGet(key(file.location()))).isEqualTo("order-1".getBytes(UTF_8));

      JsonNode config = vended(writer, CATALOG, "sales", "orders");
      assertThat(config.get("s3.endpoint").asText()).isEqualTo(gateway.endpoint());
      assertThat(config.get("client.region").asText()).isEqualTo("auto");
      assertThat(config.get("s3.access-key-id").asText()).isEqualTo(r2.parentKeyId());
      assertThat(config.get("s3.secret-access-key").asText()).isNotEqualTo(r2.parentSecret());
      String jwt =
          new String(Base64.getDecoder().decode(config.get("s3.session-token").asText()), UTF_8);
      JsonNode claims =
          JSON.readTree(Base64.getUrlDecoder().decode(jwt.substring(4).split("\\.")[1]));
      assertThat(claims.get("bucket").asText()).isEqualTo(bucket);
      assertThat(claims.get("scope").asText()).isEqualTo(R2GatewayBed.READ_WRITE);
      assertThat(claims.get("paths").get("prefixPaths").get(0).asText())
          .isEqualTo(key(table.location()) + "/");

      reloaded.io().deleteFile(file.location());
      assertThat(r2.adminGet(key(file.location()))).as("deleted through the gateway").isNull();
      assertThat(client.dropTable(id, true)).isTrue();
    }
    long parent = gateway.parentRequests() - parentBefore;
    assertThat(parent).as("the catalog's own metadata I/O (parent key)").isPositive();
    assertThat(gateway.allowed() - allowedBefore - parent)
        .as("the engine's data I/O (minted credentials)")
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void aReadOnlyPrincipalsPutAndDeleteAreRefusedByTheGateway() throws Exception {
    DataFile file;
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table table = client.createTable(TableIdentifier.of("sales", "ro"), RgwVendingBed.SCHEMA);
      file = RgwVendingBed.writeDataFile(table, "x.parquet", "read-me");
      table.newAppend().appendFile(file).commit();
    }
    String evil = file.location().replace("x.parquet", "evil.parquet");
    try (RESTCatalog client = client(CATALOG, reader)) {
      Table table = client.loadTable(TableIdentifier.of("sales", "ro"));
      assertThat(read(table, file.location())).isEqualTo("read-me");
      long before = gateway.refusals();
      assertThatThrownBy(
              () -> {
                try (OutputStream out = table.io().newOutputFile(evil).create()) {
                  out.write(1);
                }
              })
          .hasStackTraceContaining("Status Code: 403");
      assertThatThrownBy(() -> table.io().deleteFile(file.location()))
          .hasStackTraceContaining("Status Code: 403");
      assertThat(gateway.refusals() - before)
          .as("refused by the gateway")
          .isGreaterThanOrEqualTo(2);
    }
    JsonNode config = vended(reader, CATALOG, "sales", "ro");
    try (S3Client s3 = s3(config)) {
      assertThat(CephRgw.getBytes(s3, bucket, key(file.location())))
          .isEqualTo("read-me".getBytes(UTF_8));
      r2.assertRefused(() -> CephRgw.put(s3, bucket, key(evil), new byte[] {1}), "AccessDenied");
      r2.assertRefused(() -> CephRgw.delete(s3, bucket, key(file.location())), "AccessDenied");
    }
    assertThat(r2.adminGet(key(evil))).as("after refused PUTs").isNull();
    assertThat(r2.adminGet(key(file.location()))).as("after refused DELETEs").isNotNull();
  }

  @Test
  void aCredentialForOneTableIsRefusedOnAnotherAndOnASiblingPrefix() throws Exception {
    String t;
    String sibling;
    String other;
    try (RESTCatalog client = client(CATALOG, writer)) {
      Table a = client.createTable(TableIdentifier.of("hr", "t"), RgwVendingBed.SCHEMA);
      t = a.location();
      // A table whose location starts like t's: t's prefix "…/t/" must not cover it.
      Table s =
          client.createTable(
              TableIdentifier.of("hr", "t_sibling"),
              RgwVendingBed.SCHEMA,
              PartitionSpec.unpartitioned(),
              t + "2",
              Map.of());
      sibling = s.location();
      s.newAppend().appendFile(RgwVendingBed.writeDataFile(s, "s.parquet", "sibling")).commit();
      Table b = client.createTable(TableIdentifier.of("hr", "b"), RgwVendingBed.SCHEMA);
      other = b.location();
      b.newAppend().appendFile(RgwVendingBed.writeDataFile(b, "b.parquet", "other")).commit();
    }
    assertThat(sibling).isEqualTo(t + "2");
    try (S3Client s3 = s3(vended(writer, CATALOG, "hr", "t"))) {
      assertThat(CephRgw.put(s3, bucket, key(t) + "/data/ok.parquet", new byte[] {1}))
          .isEqualTo(200);
      for (String file : List.of(sibling + "/data/s.parquet", other + "/data/b.parquet")) {
        String k = key(file.substring(0, file.indexOf("/data/")));
        assertThat(r2.adminGet(key(file))).as("%s exists", file).isNotNull();
        r2.assertRefused(() -> CephRgw.get(s3, bucket, key(file)), "AccessDenied");
        r2.assertRefused(() -> CephRgw.list(s3, bucket, k + "/"), "AccessDenied");
        r2.assertRefused(
            () -> CephRgw.put(s3, bucket, k + "/data/evil.parquet", new byte[] {1}),
            "AccessDenied");
        assertThat(r2.adminGet(k + "/data/evil.parquet")).isNull();
      }
      r2.assertRefused(() -> CephRgw.list(s3, bucket, "wh/hr/"), "AccessDenied");
      r2.assertRefused(() -> CephRgw.list(s3, bucket, null), "AccessDenied");
    }
  }

  /** A 3-second credential dies at the gateway; the client that held it refreshes and reads on. */
  @Test
  void anExpiredCredentialIsRefusedAndTheClientRefreshesThroughTheCatalog() throws Exception {
    createCatalog("r2short", "short", 3);
    assertThat(namespace("r2short", "n").statusCode()).isEqualTo(200);
    String[] root = {TestServer.CLIENT_ID, TestServer.SECRET};
    try (RESTCatalog client = client("r2short", root)) {
      Table table = client.createTable(TableIdentifier.of("n", "long_read"), RgwVendingBed.SCHEMA);
      DataFile file = RgwVendingBed.writeDataFile(table, "r.parquet", "still-readable");
      table.newAppend().appendFile(file).commit();
      JsonNode first = vended(root, "r2short", "n", "long_read");
      long expiresAt = first.get("s3.session-token-expires-at-ms").asLong();
      assertThat(expiresAt).isLessThanOrEqualTo(System.currentTimeMillis() + 3000);
      Table reader = client.loadTable(TableIdentifier.of("n", "long_read"));
      Thread.sleep(Math.max(0, expiresAt - System.currentTimeMillis()) + 1500);
      try (S3Client expired = s3(first)) {
        r2.assertRefused(() -> CephRgw.get(expired, bucket, key(file.location())), "ExpiredToken");
      }
      long allowedBefore = gateway.allowed();
      assertThat(read(reader, file.location())).isEqualTo("still-readable");
      assertThat(gateway.allowed())
          .as("the read went through the gateway")
          .isGreaterThan(allowedBefore);
    }
  }
}
