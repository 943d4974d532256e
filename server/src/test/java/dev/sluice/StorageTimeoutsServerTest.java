package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.CredentialSourcesYaml;
import dev.sluice.testing.SilentServer;
import dev.sluice.testing.TestServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code storage.catalogIoTimeouts} and {@code storage.providerTimeouts} set in the server's YAML
 * reach the running server. Two S3 catalogs whose store (and STS) take connections and never answer
 * ({@link SilentServer}): one that does not vend answers a table create with 503 after about the
 * configured catalog I/O bound (1 s per call), not the default's 10 s; one that vends answers it
 * with 503 naming STS after about the configured provider bound (1 s per call), not the default's 6
 * s. Measured with wide margins: the machine may be loaded.
 */
class StorageTimeoutsServerTest {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static SilentServer store;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    store = SilentServer.start();
    server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static("static1", "AKIDEXAMPLE", "not-a-real-secret").toYaml()
                + "  catalogIoTimeouts: { attempt: PT0.5S, call: PT1S, maxAttempts: 2 }\n"
                + "  providerTimeouts: { attempt: PT0.5S, call: PT1S }\n");
    // No STS: the catalog vends nothing, so a create only writes its metadata file.
    catalog("quiet", Map.of("stsUnavailable", true));
    catalog("vending", Map.of("roleArn", "arn:aws:iam::123456789012:role/TableAccess"));
  }

  /** An S3 catalog on the silent store (its STS too), with namespace ns. */
  private static void catalog(String name, Map<String, Object> more) throws Exception {
    Map<String, Object> storage = new HashMap<>(more);
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of("s3://bkt/" + name));
    storage.put("region", "us-east-1");
    storage.put("endpoint", store.endpoint());
    storage.put("pathStyleAccess", true);
    storage.put("credentialSource", "static1");
    HttpResponse<String> created = server.postCatalog(name, "s3://bkt/" + name, storage);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    HttpResponse<String> namespace =
        server.send("POST", "/api/catalog/v1/" + name + "/namespaces", "{\"namespace\": [\"ns\"]}");
    assertThat(namespace.statusCode()).as(namespace.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
  }

  /** Creates table t in {@code catalog}.ns asking for vended credentials; its answer and time. */
  private static HttpResponse<String> createTable(String catalog, List<Duration> took)
      throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> create =
        server.sendAs(
            server.rootToken(),
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/ns/tables",
            "{\"name\": \"t\", \"schema\": " + SCHEMA + "}",
            Map.of("X-Iceberg-Access-Delegation", "vended-credentials"));
    took.add(Duration.ofNanos(System.nanoTime() - start));
    System.out.printf(
        "table create in %s on a silent store answered %d after %d ms: %s%n",
        catalog, create.statusCode(), took.get(0).toMillis(), create.body());
    return create;
  }

  @Test
  void aSilentStoreFailsATableCreateWithinTheConfiguredCatalogIoBound() throws Exception {
    int before = store.accepted();
    List<Duration> took = new ArrayList<>();
    HttpResponse<String> create = createTable("quiet", took);
    assertThat(create.statusCode()).as(create.body()).isEqualTo(503);
    assertThat(create.body()).doesNotContain("STS");
    assertThat(store.accepted() - before).as("connections the store took").isPositive();
    assertThat(took.get(0))
        .as("the catalog's S3 call bounded at 1 s (the default is 10 s)")
        .isBetween(Duration.ofMillis(450), Duration.ofSeconds(6));
  }

  @Test
  void aSilentStsFailsAVendingTableCreateWithinTheConfiguredProviderBound() throws Exception {
    List<Duration> took = new ArrayList<>();
    HttpResponse<String> create = createTable("vending", took);
    assertThat(create.statusCode()).as(create.body()).isEqualTo(503);
    assertThat(create.body()).contains("catalog vending").contains("STS is unreachable");
    assertThat(took.get(0))
        .as("the STS call bounded at 1 s (the default is 6 s)")
        .isBetween(Duration.ofMillis(450), Duration.ofSeconds(4));
  }
}
