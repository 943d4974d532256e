package dev.sluice.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.tracing.Tracing;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A Sluice server whose S3 catalogs live in one fresh bucket of the Ceph RGW bed, with the calls
 * the vending tests share: catalogs as an operator creates them, the real Iceberg client holding no
 * storage keys, loads with or without {@code X-Iceberg-Access-Delegation}, and S3 clients built
 * from a vended credential so that RGW, not Sluice, decides what it may touch.
 */
public final class RgwVendingBed implements AutoCloseable {
  public static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  public static final String DELEGATION = "X-Iceberg-Access-Delegation";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CephRgw rgw;
  private final TestServer server;
  private final Admin admin;
  private final String bucket;
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<S3Client> clients = new ArrayList<>();
  private S3Client storeAdmin;

  private RgwVendingBed(CephRgw rgw, TestServer server, String bucket) {
    this.rgw = rgw;
    this.server = server;
    this.admin = new Admin(server);
    this.bucket = bucket;
  }

  /**
   * A server (H2) with the bed's keys as credential source "rgw", and a fresh bucket named {@code
   * bucketPrefix-…}.
   */
  public static RgwVendingBed start(String bucketPrefix) throws Exception {
    return start(bucketPrefix, "", null);
  }

  /**
   * As {@link #start(String)}, with more YAML for the server ({@code server.tls}, …) and, for a
   * server on https, the TLS context its test client trusts it with.
   */
  public static RgwVendingBed start(String bucketPrefix, String extraYaml, SSLContext clientTls)
      throws Exception {
    return start(bucketPrefix, extraYaml, clientTls, Tracing.off());
  }

  /** As above, the server's spans made by {@code tracing}. */
  public static RgwVendingBed start(
      String bucketPrefix, String extraYaml, SSLContext clientTls, Tracing tracing)
      throws Exception {
    CephRgw rgw = CephRgw.bed();
    String bucket = rgw.newBucket(bucketPrefix);
    TestServer server =
        TestServer.start(
            null,
            CredentialSourcesYaml.s3Static(
                        "rgw", "${SLUICE_TEST_RGW_ACCESS_KEY}", "${SLUICE_TEST_RGW_SECRET_KEY}")
                    // The bed's STS allows 1-second sessions, so expiry and refresh are testable.
                    .vendingMinDurationSeconds(1)
                    .toYaml()
                + extraYaml,
            clientTls,
            tracing);
    return new RgwVendingBed(rgw, server, bucket);
  }

  public CephRgw rgw() {
    return rgw;
  }

  public TestServer server() {
    return server;
  }

  public Admin admin() {
    return admin;
  }

  public String bucket() {
    return bucket;
  }

  /** {@code s3://bucket/path} ({@code path} without a leading slash; "" for the bucket root). */
  public String s3(String path) {
    return "s3://" + bucket + "/" + path;
  }

  /**
   * A catalog's JSON as an operator writes it: base location and the only allowed location {@code
   * s3://bucket/wh}, the bed's role, STS at {@code stsEndpoint}, 900-second credentials.
   */
  public String catalogJson(String name, String stsEndpoint) {
    return "{\"catalog\": {\"name\": \""
        + name
        + "\", \"type\": \"INTERNAL\","
        + " \"properties\": {\"default-base-location\": \"s3://"
        + bucket
        + "/wh\"},"
        + " \"storageConfigInfo\": {\"storageType\": \"S3\", \"allowedLocations\": [\"s3://"
        + bucket
        + "/wh\"],"
        + " \"roleArn\": \""
        + rgw.roleArn()
        + "\", \"region\": \""
        + rgw.region()
        + "\","
        + " \"endpoint\": \""
        + rgw.endpoint()
        + "\", \"stsEndpoint\": \""
        + stsEndpoint
        + "\","
        + " \"pathStyleAccess\": true, \"credentialSource\": \"rgw\", \"durationSeconds\": 900}}}";
  }

  /**
   * Creates a catalog on this bucket (asserting 201) with base location {@code s3://bucket/base},
   * allowed locations {@code s3://bucket/allowed} and more catalog {@code properties}.
   */
  public void createCatalog(
      String name, String base, String allowed, Map<String, String> properties) throws Exception {
    createCatalog(name, base, allowed, properties, Map.of());
  }

  /**
   * As above, with more {@code storageConfigInfo} keys (templates, ...) that override the bed's.
   */
  public void createCatalog(
      String name,
      String base,
      String allowed,
      Map<String, String> properties,
      Map<String, Object> storageExtra)
      throws Exception {
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.put("default-base-location", s3(base));
    Map<String, Object> storage = new LinkedHashMap<>();
    storage.put("storageType", "S3");
    storage.put("allowedLocations", List.of(s3(allowed)));
    storage.put("roleArn", rgw.roleArn());
    storage.put("region", rgw.region());
    storage.put("endpoint", rgw.endpoint());
    storage.put("pathStyleAccess", true);
    storage.put("credentialSource", "rgw");
    storage.put("durationSeconds", 900);
    storage.putAll(storageExtra);
    HttpResponse<String> created = server.postCatalog(name, all, storage);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.body()).doesNotContain(rgw.secretKey());
  }

  /** Creates table {@code name} (one long column) as root, asserting 200. */
  public void createTable(String catalog, String namespace, String name) throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/" + namespace + "/tables",
            "{\"name\": \""
                + name
                + "\", \"schema\": {\"type\": \"struct\", \"fields\":"
                + " [{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
  }

  /** The key of a table in this bed's bucket, ending in '/', from its metadata location. */
  public String tableKey(String catalog, String namespace, String name) throws Exception {
    String path = "/api/catalog/v1/" + catalog + "/namespaces/" + namespace + "/tables/" + name;
    HttpResponse<String> load = server.send("GET", path, null);
    assertThat(load.statusCode()).as(load.body()).isEqualTo(200);
    return key(TestServer.json(load.body()).at("/metadata/location").asText(), "/");
  }

  /** Creates a namespace as root, asserting 200. */
  public void createNamespace(String catalog, String namespace) throws Exception {
    HttpResponse<String> created =
        server.send(
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces",
            "{\"namespace\": [\"" + namespace + "\"]}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
  }

  /**
   * The real client, configured with no storage keys at all; {credentials} = {clientId, secret}.
   */
  public RESTCatalog client(String catalog, String[] credentials) {
    return client(catalog, credentials, Map.of());
  }

  /** As above, with more client properties (a TLS configurer for a server on https). */
  public RESTCatalog client(String catalog, String[] credentials, Map<String, String> more) {
    Map<String, String> properties = new LinkedHashMap<>(more);
    properties.put("uri", server.catalogUri());
    properties.put("warehouse", catalog);
    properties.put("credential", credentials[0] + ":" + credentials[1]);
    RESTCatalog client = new RESTCatalog();
    client.initialize("sluice", properties);
    return client;
  }

  /** Any request; with {@code delegate}, asks for vended credentials as the header says. */
  public HttpResponse<String> send(
      String token, String method, String path, String body, boolean delegate) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + token);
    if (delegate) {
      request.header(DELEGATION, "vended-credentials");
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Loads a table, asserting 200. */
  public JsonNode load(
      String token, String catalog, String ns, String table, boolean askForCredentials)
      throws Exception {
    HttpResponse<String> response =
        send(
            token,
            "GET",
            "/api/catalog/v1/" + catalog + "/namespaces/" + ns + "/tables/" + table,
            null,
            askForCredentials);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body());
  }

  /** An S3 client holding the first vended credential of a table response (and nothing else). */
  public S3Client vendedClient(JsonNode response) {
    JsonNode config = response.get("storage-credentials").get(0).get("config");
    return rgw.clientWith(
        config.get("s3.access-key-id").asText(),
        config.get("s3.secret-access-key").asText(),
        config.get("s3.session-token").asText());
  }

  /**
   * A {@link VendingContract.StoreClient} holding only the credential whose client properties are
   * {@code config} (closed with the bed).
   */
  public synchronized VendingContract.StoreClient store(JsonNode config) {
    S3Client s3 =
        rgw.clientWith(
            config.get("s3.access-key-id").asText(),
            config.get("s3.secret-access-key").asText(),
            config.get("s3.session-token").asText());
    clients.add(s3);
    return S3Store.of(s3);
  }

  /** The object at an s3:// location as the bed's own keys read it, or null when absent. */
  public synchronized byte[] adminRead(String location) {
    if (storeAdmin == null) {
      storeAdmin = rgw.adminClient();
      clients.add(storeAdmin);
    }
    return S3Store.read(storeAdmin, location);
  }

  /** The object key of {@code location} (an s3:// location in this bucket) plus {@code suffix}. */
  public String key(String location, String suffix) {
    return location.replace("s3://" + bucket + "/", "") + suffix;
  }

  /** Writes a small file under the table's data folder through the table's (vended) FileIO. */
  public static DataFile writeDataFile(Table table, String name, String content) throws Exception {
    OutputFile out = table.io().newOutputFile(table.location() + "/data/" + name);
    try (OutputStream stream = out.create()) {
      stream.write(content.getBytes(StandardCharsets.UTF_8));
    }
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(out.location())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(content.length())
        .withRecordCount(1)
        .build();
  }

  /**
   * Asserts that the S3 call fails with {@code status} from the store (e.g. RGW's 403
   * AccessDenied).
   */
  public static void assertS3Status(int status, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOf(S3Exception.class)
        .satisfies(
            e -> assertThat(((S3Exception) e).statusCode()).as(e.getMessage()).isEqualTo(status));
  }

  @Override
  public void close() throws Exception {
    clients.forEach(S3Client::close);
    server.close();
  }
}
