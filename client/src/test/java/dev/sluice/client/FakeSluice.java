package dev.sluice.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * A loopback Sluice for client tests (JDK HttpServer): the OAuth2 token endpoint, {@code
 * /v1/config}, {@code readable-table-locations} (one table per page, to exercise paging) and a
 * table's {@code /credentials}. Tables are registered with their locations and whether the
 * principal may read them; every call is counted; failures and delays are injected on demand.
 */
public final class FakeSluice implements AutoCloseable {
  public static final String CLIENT_ID = "engine";
  public static final String CLIENT_SECRET = "client-secret-4f9a";
  public static final String PREFIX = "lake";
  public static final String WAREHOUSE = "lake-warehouse";

  /** A table: its locations, whether the principal may read it, its credential's lifetime. */
  private static final class Table {
    final List<String> locations;
    volatile boolean readable;
    volatile boolean vends = true;
    volatile long lifetimeMillis = 3_600_000;
    final AtomicInteger version = new AtomicInteger();

    Table(List<String> locations, boolean readable) {
      this.locations = List.copyOf(locations);
      this.readable = readable;
    }
  }

  private final HttpServer server;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final AtomicInteger tokenCalls = new AtomicInteger();
  private final AtomicInteger configCalls = new AtomicInteger();
  private final AtomicInteger locationCalls = new AtomicInteger();
  private final AtomicInteger credentialCalls = new AtomicInteger();
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger tokensIssued = new AtomicInteger();
  private final List<String> requestLines = new ArrayList<>();
  private volatile int failureStatus = 503;
  private volatile long delayMillis;
  private volatile long tokenLifetimeSeconds = 3600;
  private volatile String validToken;
  private volatile LongSupplier clock = System::currentTimeMillis;

  public FakeSluice() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(16));
    server.start();
  }

  /** The catalog URI as clients are configured with it. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/catalog");
  }

  public Map<String, String> hadoopProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("fs.s3a.sluice.uri", uri().toString());
    p.put("fs.s3a.sluice.warehouse", WAREHOUSE);
    p.put("fs.s3a.sluice.credential", CLIENT_ID + ":" + CLIENT_SECRET);
    return p;
  }

  /** Registers {@code ns.table} (dotted) with its locations. */
  public FakeSluice table(String dotted, boolean readable, String... locations) {
    tables.put(dotted, new Table(Arrays.asList(locations), readable));
    return this;
  }

  public FakeSluice grant(String dotted, boolean readable) {
    tables.get(dotted).readable = readable;
    return this;
  }

  /** The table's catalog vends no credentials: {@code storage-credentials} is empty. */
  public FakeSluice vendsNothing(String dotted) {
    tables.get(dotted).vends = false;
    return this;
  }

  public FakeSluice credentialLifetime(String dotted, long millis) {
    tables.get(dotted).lifetimeMillis = millis;
    return this;
  }

  /** The next {@code n} API calls (not token calls) answer {@code status}. */
  public FakeSluice failNext(int n, int status) {
    failureStatus = status;
    failuresLeft.set(n);
    return this;
  }

  /** The clock vended credentials' expiries are counted from (the test's fake clock). */
  public FakeSluice clock(LongSupplier clock) {
    this.clock = clock;
    return this;
  }

  public FakeSluice delay(long millis) {
    delayMillis = millis;
    return this;
  }

  public FakeSluice tokenLifetimeSeconds(long seconds) {
    tokenLifetimeSeconds = seconds;
    return this;
  }

  /** Makes the current token invalid, as if the server had been restarted with a new key. */
  public void revokeTokens() {
    validToken = null;
  }

  public int tokenCalls() {
    return tokenCalls.get();
  }

  public int configCalls() {
    return configCalls.get();
  }

  public int locationCalls() {
    return locationCalls.get();
  }

  public int credentialCalls() {
    return credentialCalls.get();
  }

  public int totalCalls() {
    return tokenCalls() + configCalls() + locationCalls() + credentialCalls();
  }

  public synchronized List<String> requestLines() {
    return List.copyOf(requestLines);
  }

  /** The access key the current (last) credential of {@code dotted} carries. */
  public static String accessKeyOf(String dotted, int version) {
    return "AK-" + dotted + "-" + version;
  }

  public static String secretOf(String dotted, int version) {
    return "SK-secret-" + dotted + "-" + version;
  }

  public static String sessionTokenOf(String dotted, int version) {
    return "ST-token-" + dotted + "-" + version;
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getRawPath();
      String query = x.getRequestURI().getRawQuery();
      synchronized (this) {
        requestLines.add(x.getRequestMethod() + " " + path + (query == null ? "" : "?" + query));
      }
      if (delayMillis > 0) {
        Thread.sleep(delayMillis);
      }
      String base = "/api/catalog/v1/";
      if (!path.startsWith(base)) {
        send(x, 404, error("NotFound", "no route", 404));
        return;
      }
      String rest = path.substring(base.length());
      if (rest.equals("oauth/tokens")) {
        token(x);
        return;
      }
      String auth = x.getRequestHeaders().getFirst("Authorization");
      if (validToken == null || !("Bearer " + validToken).equals(auth)) {
        send(x, 401, error("NotAuthorizedException", "invalid bearer token", 401));
        return;
      }
      if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        send(x, failureStatus, error("ServiceFailureException", "injected failure", failureStatus));
        return;
      }
      if (rest.equals("config")) {
        configCalls.incrementAndGet();
        send(x, 200, "{\"defaults\":{},\"overrides\":{\"prefix\":\"" + PREFIX + "\"}}");
      } else if (rest.equals(PREFIX + "/readable-table-locations")) {
        locations(x, query);
      } else if (rest.startsWith(PREFIX + "/namespaces/") && rest.endsWith("/credentials")) {
        credentials(x, rest.substring((PREFIX + "/namespaces/").length()));
      } else {
        send(x, 404, error("NotFound", "no route " + rest, 404));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void token(HttpExchange x) throws IOException {
    tokenCalls.incrementAndGet();
    Map<String, String> form =
        parseQuery(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    if (!CLIENT_ID.equals(form.get("client_id"))
        || !CLIENT_SECRET.equals(form.get("client_secret"))) {
      send(
          x,
          401,
          "{\"error\":\"invalid_client\",\"error_description\":\"unknown client or wrong secret\"}");
      return;
    }
    String token = "tok-" + tokensIssued.incrementAndGet();
    validToken = token;
    send(
        x,
        200,
        "{\"access_token\":\""
            + token
            + "\",\"token_type\":\"bearer\",\"expires_in\":"
            + tokenLifetimeSeconds
            + "}");
  }

  private void locations(HttpExchange x, String query) throws IOException {
    locationCalls.incrementAndGet();
    Map<String, String> q = parseQuery(query);
    String bucket = q.get("bucket");
    if (bucket == null) {
      send(x, 400, error("BadRequestException", "Missing query parameter: bucket", 400));
      return;
    }
    List<String> names =
        tables.entrySet().stream()
            .filter(
                e ->
                    e.getValue().locations.stream()
                        .anyMatch(l -> l.startsWith("s3://" + bucket + "/")))
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    int from = q.containsKey("pageToken") ? Integer.parseInt(q.get("pageToken")) : 0;
    StringBuilder body = new StringBuilder("{\"locations\":[");
    if (from < names.size()) {
      String name = names.get(from);
      Table t = tables.get(name);
      if (t.readable) { // a page may hold fewer tables than its size, even none
        TableRef ref = TableRef.parse(name);
        body.append("{\"namespace\":[")
            .append(
                ref.namespace().stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(",")))
            .append("],\"table\":\"")
            .append(ref.name())
            .append("\",\"locations\":[")
            .append(t.locations.stream().map(l -> "\"" + l + "\"").collect(Collectors.joining(",")))
            .append("]}");
      }
    }
    body.append("]");
    if (from + 1 < names.size()) {
      body.append(",\"next-page-token\":\"").append(from + 1).append("\"");
    }
    send(x, 200, body.append("}").toString());
  }

  private void credentials(HttpExchange x, String nsAndTable) throws IOException {
    credentialCalls.incrementAndGet();
    // <ns levels joined by %1F>/tables/<name>/credentials
    String[] parts = nsAndTable.split("/");
    String ns = URLDecoder.decode(parts[0], StandardCharsets.UTF_8).replace('\u001f', '.');
    String name = URLDecoder.decode(parts[2], StandardCharsets.UTF_8);
    String dotted = ns + "." + name;
    Table t = tables.get(dotted);
    if (t == null) {
      send(x, 404, error("NoSuchTableException", "Table does not exist: " + dotted, 404));
      return;
    }
    if (!t.readable) {
      send(
          x,
          403,
          error(
              "ForbiddenException",
              "Principal '" + CLIENT_ID + "' is not authorized for TABLE_READ_DATA on " + dotted,
              403));
      return;
    }
    if (!t.vends) {
      send(x, 200, "{\"storage-credentials\":[]}");
      return;
    }
    int v = t.version.incrementAndGet();
    long expiresAt = clock.getAsLong() + t.lifetimeMillis;
    String body =
        "{\"storage-credentials\":[{\"prefix\":\""
            + t.locations.get(0)
            + "\",\"config\":{\"s3.access-key-id\":\""
            + accessKeyOf(dotted, v)
            + "\",\"s3.secret-access-key\":\""
            + secretOf(dotted, v)
            + "\",\"s3.session-token\":\""
            + sessionTokenOf(dotted, v)
            + "\",\"s3.session-token-expires-at-ms\":\""
            + expiresAt
            + "\",\"client.region\":\"us-east-1\"}}]}";
    send(x, 200, body);
  }

  private static String error(String type, String message, int code) {
    return "{\"error\":{\"message\":\""
        + message
        + "\",\"type\":\""
        + type
        + "\",\"code\":"
        + code
        + "}}";
  }

  private static Map<String, String> parseQuery(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  private static void send(HttpExchange x, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
