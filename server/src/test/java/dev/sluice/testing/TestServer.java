package dev.sluice.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.SluiceServer;
import dev.sluice.StandardBackends;
import dev.sluice.api.Catalog;
import dev.sluice.api.CreateCatalogRequest;
import dev.sluice.config.ServerConfig;
import dev.sluice.tracing.Tracing;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;

/**
 * A real Sluice server in this JVM, on a free loopback port, over a real store (an H2 file in a
 * temp dir, or PostgreSQL when a JDBC URL is given), with known root credentials.
 */
public final class TestServer implements AutoCloseable {
  public static final String CLIENT_ID = "test-root";
  public static final String SECRET = "test-root-secret";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger CATALOGS = new AtomicInteger();

  private final SluiceServer server;
  private final Path dataDir;
  private final HttpClient http;
  private final String scheme;
  private volatile String rootToken;

  private TestServer(SluiceServer server, Path dataDir, SSLContext tls) {
    this.server = server;
    this.dataDir = dataDir;
    this.scheme = tls == null ? "http" : "https";
    this.http =
        tls == null ? HttpClient.newHttpClient() : HttpClient.newBuilder().sslContext(tls).build();
  }

  public static TestServer startH2() throws Exception {
    return start(null);
  }

  /** Starts on {@code jdbcUrl} (PostgreSQL) or, when null, an H2 file in a fresh temp dir. */
  public static TestServer start(String jdbcUrl) throws Exception {
    return start(jdbcUrl, "");
  }

  /** As {@link #start(String)}, with more YAML config appended (top-level sections). */
  public static TestServer start(String jdbcUrl, String extraYaml) throws Exception {
    return start(jdbcUrl, extraYaml, null);
  }

  /**
   * As {@link #start(String, String)} for a server with {@code server.tls} in {@code extraYaml}:
   * {@link #baseUrl()} is https and requests go through a client with {@code clientTls}.
   */
  public static TestServer start(String jdbcUrl, String extraYaml, SSLContext clientTls)
      throws Exception {
    return start(jdbcUrl, extraYaml, clientTls, Tracing.off());
  }

  /** On H2, with spans made by {@code tracing} (an in-memory exporter's, say). */
  public static TestServer startTraced(Tracing tracing) throws Exception {
    return start(null, "", null, tracing);
  }

  /** As above, with spans made by {@code tracing}. */
  public static TestServer start(
      String jdbcUrl, String extraYaml, SSLContext clientTls, Tracing tracing) throws Exception {
    Path dataDir = Files.createTempDirectory("sluice-test");
    Path config = dataDir.resolve("sluice.yaml");
    String yaml = "bootstrap:\n  quickstartCatalog: false\n";
    if (jdbcUrl != null) {
      yaml += "database:\n  url: \"" + jdbcUrl + "\"\n";
    }
    Files.writeString(config, yaml + extraYaml);
    ServerConfig cfg =
        ServerConfig.load(
            config,
            new ServerConfig.Overrides("127.0.0.1", 0, dataDir.toString()),
            System::getenv,
            StandardBackends.create());
    SluiceServer server =
        SluiceServer.start(
            cfg,
            StandardBackends.create(),
            CLIENT_ID + ":" + SECRET,
            new PrintStream(new ByteArrayOutputStream()),
            UnaryOperator.identity(),
            tracing);
    return new TestServer(server, dataDir, clientTls);
  }

  public String baseUrl() {
    return scheme + "://127.0.0.1:" + server.port();
  }

  public String catalogUri() {
    return baseUrl() + "/api/catalog";
  }

  public SluiceServer server() {
    return server;
  }

  public Path dataDir() {
    return dataDir;
  }

  /**
   * Posts catalog {@code name} (INTERNAL, base location {@code base}, {@code storage} as its
   * storageConfigInfo) to the management API as root; its answer, whatever the status.
   */
  public HttpResponse<String> postCatalog(String name, String base, Map<String, Object> storage)
      throws Exception {
    return postCatalog(name, Map.of("default-base-location", base), storage);
  }

  /** As above, with the catalog's whole {@code properties}. */
  public HttpResponse<String> postCatalog(
      String name, Map<String, String> properties, Map<String, Object> storage) throws Exception {
    CreateCatalogRequest body =
        new CreateCatalogRequest(Catalog.of(name, properties, JSON.valueToTree(storage)), null);
    return send("POST", "/api/management/v1/catalogs", Admin.json(body));
  }

  /** Creates a FILE catalog with a fresh warehouse folder; returns its name. */
  public String createCatalog(String prefix, List<String> allowedLocations, Path warehouse)
      throws Exception {
    return createCatalog(prefix, allowedLocations, warehouse, Map.of());
  }

  public String createCatalog(
      String prefix, List<String> allowedLocations, Path warehouse, Map<String, String> properties)
      throws Exception {
    String name = prefix + "_" + CATALOGS.incrementAndGet();
    Files.createDirectories(warehouse);
    HttpResponse<String> response =
        postCatalog(
            name,
            withBase(properties, warehouse),
            Map.of("storageType", "FILE", "allowedLocations", allowedLocations));
    if (response.statusCode() != 201) {
      throw new IllegalStateException(
          "Cannot create catalog: " + response.statusCode() + " " + response.body());
    }
    return name;
  }

  private static Map<String, String> withBase(Map<String, String> properties, Path warehouse) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put("default-base-location", warehouse.toUri().toString());
    return all;
  }

  public String createCatalog(String prefix) throws Exception {
    Path warehouse = dataDir.resolve("wh-" + CATALOGS.get() + "-" + System.nanoTime());
    return createCatalog(prefix, List.of(warehouse.toUri().toString()), warehouse);
  }

  public Map<String, String> clientProperties(String catalog) {
    return Map.of(
        "uri",
        catalogUri(),
        "warehouse",
        catalog,
        "credential",
        CLIENT_ID + ":" + SECRET,
        "scope",
        "PRINCIPAL_ROLE:ALL");
  }

  public String rootToken() throws Exception {
    if (rootToken == null) {
      rootToken = token(CLIENT_ID, SECRET);
    }
    return rootToken;
  }

  public String token(String clientId, String secret) throws Exception {
    String form =
        "grant_type=client_credentials&client_id="
            + URLEncoder.encode(clientId, StandardCharsets.UTF_8)
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8)
            + "&scope=PRINCIPAL_ROLE%3AALL";
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(catalogUri() + "/v1/oauth/tokens"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "Token request failed: " + response.statusCode() + " " + response.body());
    }
    return JSON.readTree(response.body()).get("access_token").asText();
  }

  /** Sends a request as root; {@code body} is JSON text or null. */
  public HttpResponse<String> send(String method, String path, String body) throws Exception {
    return sendAs(rootToken(), method, path, body);
  }

  public HttpResponse<String> sendAs(String token, String method, String path, String body)
      throws Exception {
    return sendAs(token, method, path, body, Map.of());
  }

  /** As above, with {@code headers} added to the request. */
  public HttpResponse<String> sendAs(
      String token, String method, String path, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::header);
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

  public static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
