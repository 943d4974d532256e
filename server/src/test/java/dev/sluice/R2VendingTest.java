package dev.sluice;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.testing.CephRgw;
import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.NeedsTestBeds;
import dev.sluice.testing.R2Gateway;
import dev.sluice.testing.R2GatewayBed;
import dev.sluice.testing.S3Store;
import dev.sluice.testing.TestServer;
import dev.sluice.testing.VendingContract;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * R2 credential vending end to end without R2: a real Sluice server with an R2 catalog whose
 * endpoint is the loopback {@link R2Gateway} (R2's documented acceptance of temporary credentials,
 * in front of the Ceph RGW bed; fails, never skips, without the bed), the real Iceberg client with
 * S3FileIO holding no keys of its own, and the gateway deciding what a minted credential may touch.
 * The five scenarios every backend passes are {@link VendingContract}'s; R2's own are below.
 */
@NeedsTestBeds
class R2VendingTest extends VendingContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CATALOG = "r2lake";
  private R2GatewayBed r2;
  private R2Gateway gateway;
  private String bucket;
  private final List<S3Client> clients = new ArrayList<>();

  @Override
  protected TestServer startBackend() throws Exception {
    r2 = R2GatewayBed.start("r2vend");
    gateway = r2.gateway();
    bucket = r2.bucket();
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("r2", r2.parentKeyId(), r2.parentSecret())
                .vendingMinDurationSeconds(1)
                .toYaml());
    createCatalog(CATALOG, "wh", Map.of());
    for (String ns : List.of("sales", "hr")) {
      assertThat(namespace(CATALOG, ns).statusCode()).isEqualTo(200);
    }
    return server;
  }

  @Override
  protected void stopBackend() throws Exception {
    clients.forEach(S3Client::close);
    if (server != null) {
      server.close();
    }
    if (r2 != null) {
      r2.close();
    }
  }

  // ---- the contract's hooks ----

  @Override
  protected String catalog() {
    return CATALOG;
  }

  /** An R2 catalog on the gateway, allowed at and based on {@code s3://bucket/<path>}. */
  @Override
  protected void createCatalog(String name, String path, Map<String, Object> storageExtra)
      throws Exception {
    String location = "s3://" + bucket + "/" + path;
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageType", "R2");
    storage.put("allowedLocations", List.of(location));
    storage.put("endpoint", gateway.endpoint());
    storage.put("accountId", R2GatewayBed.ACCOUNT);
    storage.put("credentialSource", "r2");
    storage.put("durationSeconds", 900);
    storage.putAll(storageExtra);
    HttpResponse<String> created = server.postCatalog(name, location, storage);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(r2.parentSecret());
  }

  /** A plain S3 client (through the gateway) holding only the vended credential. */
  @Override
  protected StoreClient store(JsonNode config) {
    S3Client s3 =
        r2.client(
            config.get("s3.access-key-id").asText(),
            config.get("s3.secret-access-key").asText(),
            config.get("s3.session-token").asText(),
            RequestChecksumCalculation.WHEN_SUPPORTED);
    clients.add(s3);
    return S3Store.of(s3);
  }

  @Override
  protected byte[] adminRead(String location) {
    return S3Store.read(r2.admin(), location);
  }

  /** A 403 {@code AccessDenied} the gateway itself answered. */
  @Override
  protected void assertRefused(ThrowingCallable call) {
    r2.assertRefused(call, "AccessDenied");
  }

  @Override
  protected String ioRefusal() {
    return "Status Code: 403";
  }

  @Override
  protected String refreshEndpointProperty() {
    return "client.refresh-credentials-endpoint";
  }

  @Override
  protected void assertWriterResponse(JsonNode response, Table table) throws Exception {
    JsonNode config = response.get("storage-credentials").get(0).get("config");
    assertThat(config.get("s3.endpoint").asText()).isEqualTo(gateway.endpoint());
    assertThat(config.get("client.region").asText()).isEqualTo("auto");
    assertThat(config.get("s3.access-key-id").asText()).isEqualTo(r2.parentKeyId());
    assertThat(config.get("s3.secret-access-key").asText()).isNotEqualTo(r2.parentSecret());
    JsonNode claims = claims(config);
    assertThat(claims.get("bucket").asText()).isEqualTo(bucket);
    assertThat(claims.get("scope").asText()).isEqualTo(R2GatewayBed.READ_WRITE);
    assertThat(claims.get("paths").get("prefixPaths").get(0).asText())
        .isEqualTo(key(table.location()) + "/");
  }

  /** The catalog's metadata I/O uses the parent key; the engine's data I/O minted credentials. */
  @Override
  protected Runnable watchRoundTrip() {
    long allowedBefore = gateway.allowed();
    long parentBefore = gateway.parentRequests();
    return () -> {
      long parent = gateway.parentRequests() - parentBefore;
      assertThat(parent).as("the catalog's own metadata I/O (parent key)").isPositive();
      assertThat(gateway.allowed() - allowedBefore - parent)
          .as("the engine's data I/O (minted credentials)")
          .isGreaterThanOrEqualTo(3);
    };
  }

  @Override
  protected Runnable watchIoRefusals() {
    long before = gateway.refusals();
    return () ->
        assertThat(gateway.refusals() - before)
            .as("refused by the gateway")
            .isGreaterThanOrEqualTo(2);
  }

  /** The same names in another bucket behind the gateway: outside the token's bucket claim. */
  @Override
  protected List<String> filesElsewhere(String t) {
    String other = r2.rgw().newBucket("r2else");
    String key = key(t) + "/data/x.parquet";
    CephRgw.put(r2.admin(), other, key, new byte[] {7});
    return List.of("s3://" + other + "/" + key);
  }

  @Override
  protected List<String> widerLists(String t) {
    return List.of("s3://" + bucket + "/wh/hr/", "s3://" + bucket + "/");
  }

  @Override
  protected long expiresAtMillis(JsonNode config) {
    return config.get("s3.session-token-expires-at-ms").asLong();
  }

  @Override
  protected void assertExpiredRefused(JsonNode config, String location) {
    StoreClient expired = store(config);
    r2.assertRefused(() -> expired.get(location), "ExpiredToken");
  }

  @Override
  protected Runnable watchRefresh() {
    long allowedBefore = gateway.allowed();
    return () ->
        assertThat(gateway.allowed())
            .as("the read went through the gateway")
            .isGreaterThan(allowedBefore);
  }

  @Override
  protected void assertReadWrite(JsonNode config) {
    assertThat(claims(config).get("scope").asText()).isEqualTo(R2GatewayBed.READ_WRITE);
  }

  @Override
  protected void assertReadOnly(JsonNode config) {
    assertThat(claims(config).get("scope").asText()).isEqualTo(R2GatewayBed.READ_ONLY);
  }

  /** The claims of the minted credential's JWT (its session token, base64 of "v1.0" + JWT). */
  private static JsonNode claims(JsonNode config) {
    String jwt =
        new String(Base64.getDecoder().decode(config.get("s3.session-token").asText()), UTF_8);
    try {
      return JSON.readTree(Base64.getUrlDecoder().decode(jwt.substring(4).split("\\.")[1]));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private String key(String location) {
    return location.replace("s3://" + bucket + "/", "");
  }

  // ---- R2's own ----

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
}
