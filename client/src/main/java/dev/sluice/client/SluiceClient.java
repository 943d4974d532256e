package dev.sluice.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The few Sluice calls an engine-side credential provider needs, over the JDK's HTTP client: an
 * OAuth2 client-credentials token (cached until shortly before it expires), the catalog's URL
 * prefix ({@code GET /v1/config}), a table's vended credentials ({@code GET …/credentials},
 * Iceberg's loadCredentials) and the caller's readable table locations in a bucket ({@code GET
 * /v1/<prefix>/readable-table-locations}). Thread-safe. Transient failures (no connection, 429,
 * 502–504) are retried twice; a 401 renews the token once. Error messages never carry secrets.
 */
public final class SluiceClient {
  static final String READABLE_LOCATIONS = "readable-table-locations";
  private static final int ATTEMPTS = 3;
  private static final long[] BACKOFF_MILLIS = {100, 400};
  private static final int MAX_PAGES = 10_000;
  private static final int PAGE_SIZE = 1000;
  private static final int MAX_REASON_CHARS = 400;

  private final SluiceClientConfig config;
  private final HttpClient http;
  private final LongSupplier clock;
  private final Object tokenLock = new Object();
  private String token;
  private long tokenRefreshAt;
  private volatile String prefix;
  private volatile boolean prefixKnown;

  public SluiceClient(SluiceClientConfig config) {
    this(
        config,
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build(),
        System::currentTimeMillis);
  }

  SluiceClient(SluiceClientConfig config, HttpClient http, LongSupplier clock) {
    this.config = requireNonNull(config, "config");
    this.http = requireNonNull(http, "http");
    this.clock = requireNonNull(clock, "clock");
  }

  public SluiceClientConfig config() {
    return config;
  }

  /**
   * The credentials Sluice vends the caller for {@code table} now; at least one. Refusals (no
   * grant, unknown table) and a table without vended credentials throw.
   */
  public List<VendedCredential> loadCredentials(TableRef table) throws SluiceException {
    requireNonNull(table, "table");
    String path =
        "namespaces/"
            + encodeNamespace(table.namespace())
            + "/tables/"
            + encode(table.name())
            + "/credentials";
    Map<String, Object> body = get(catalogPath(path), "loadCredentials for " + table);
    List<VendedCredential> credentials = CredentialsParser.parse(body, table);
    if (credentials.isEmpty()) {
      throw new SluiceException(
          200,
          "Sluice vends no storage credential for table "
              + table
              + " (its catalog does not vend credentials)");
    }
    return credentials;
  }

  /**
   * The tables the caller may read that have a location in {@code bucket}, with those locations,
   * from every page of Sluice's {@code readable-table-locations} endpoint.
   */
  public List<ReadableTable> readableTableLocations(String bucket) throws SluiceException {
    requireNonNull(bucket, "bucket");
    List<ReadableTable> all = new ArrayList<>();
    Set<String> seenTokens = new HashSet<>();
    String pageToken = null;
    for (int page = 0; page < MAX_PAGES; page++) {
      String query = "?bucket=" + encode(bucket) + "&pageSize=" + PAGE_SIZE;
      if (pageToken != null) {
        query += "&pageToken=" + encode(pageToken);
      }
      Map<String, Object> body =
          get(catalogPath(READABLE_LOCATIONS + query), "readable table locations in " + bucket);
      all.addAll(CredentialsParser.readableTables(body));
      Object next = body.get("next-page-token");
      if (!(next instanceof String) || ((String) next).isEmpty()) {
        return all;
      }
      pageToken = (String) next;
      if (!seenTokens.add(pageToken)) {
        throw new SluiceException(
            200, "Sluice repeated a page token listing readable locations in bucket " + bucket);
      }
    }
    throw new SluiceException(
        200, "Sluice answered more than " + MAX_PAGES + " pages of locations in bucket " + bucket);
  }

  /** The catalog's URL prefix from {@code GET /v1/config?warehouse=}; null when there is none. */
  String prefix() throws SluiceException {
    if (!prefixKnown) {
      String query = config.warehouse() == null ? "" : "?warehouse=" + encode(config.warehouse());
      Map<String, Object> body =
          get(URI.create(config.uri() + "/v1/config" + query), "GET /v1/config");
      String found = stringAt(body, "overrides", "prefix");
      if (found == null) {
        found = stringAt(body, "defaults", "prefix");
      }
      prefix = found;
      prefixKnown = true;
    }
    return prefix;
  }

  private URI catalogPath(String rest) throws SluiceException {
    String p = prefix();
    return URI.create(config.uri() + "/v1/" + (p == null ? "" : encode(p) + "/") + rest);
  }

  private static String stringAt(Map<String, Object> body, String object, String key) {
    Object section = body.get(object);
    if (section instanceof Map<?, ?> m && m.get(key) instanceof String s && !s.isEmpty()) {
      return s;
    }
    return null;
  }

  /** GET with a bearer token; 2xx JSON object or a {@link SluiceException} naming {@code what}. */
  private Map<String, Object> get(URI uri, String what) throws SluiceException {
    boolean renewed = false;
    for (int attempt = 1; ; attempt++) {
      String bearer = accessToken();
      HttpRequest request =
          HttpRequest.newBuilder(uri)
              .timeout(config.requestTimeout())
              .header("Authorization", "Bearer " + bearer)
              .header("Accept", "application/json")
              .GET()
              .build();
      HttpResponse<String> response;
      try {
        response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        if (attempt < ATTEMPTS) {
          pause(attempt);
          continue;
        }
        throw unreachable(what, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SluiceException(0, what + ": interrupted", e);
      }
      int status = response.statusCode();
      if (status == 401 && !renewed && config.clientSecret() != null) {
        renewed = true;
        forgetToken(bearer);
        continue;
      }
      if (transientStatus(status) && attempt < ATTEMPTS) {
        pause(attempt);
        continue;
      }
      if (status / 100 != 2) {
        throw new SluiceException(
            status, what + ": Sluice answered HTTP " + status + reason(response.body()));
      }
      try {
        return Json.parseObject(response.body());
      } catch (IllegalArgumentException e) {
        throw new SluiceException(
            status, what + ": Sluice's answer is not usable: " + e.getMessage());
      }
    }
  }

  /** The current bearer token: the configured one, or a cached client-credentials token. */
  String accessToken() throws SluiceException {
    if (config.clientSecret() == null) {
      return config.token();
    }
    synchronized (tokenLock) {
      if (token == null || clock.getAsLong() >= tokenRefreshAt) {
        fetchToken();
      }
      return token;
    }
  }

  private void forgetToken(String used) {
    synchronized (tokenLock) {
      if (used.equals(token)) {
        token = null;
      }
    }
  }

  private void fetchToken() throws SluiceException {
    String form =
        Map.of(
                "grant_type", "client_credentials",
                "client_id", config.clientId(),
                "client_secret", config.clientSecret(),
                "scope", config.scope())
            .entrySet()
            .stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
    HttpRequest request =
        HttpRequest.newBuilder(config.tokenEndpoint())
            .timeout(config.requestTimeout())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8))
            .build();
    String what = "OAuth2 token for client " + config.clientId();
    for (int attempt = 1; ; attempt++) {
      long sentAt = clock.getAsLong();
      HttpResponse<String> response;
      try {
        response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        if (attempt < ATTEMPTS) {
          pause(attempt);
          continue;
        }
        throw unreachable(what, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SluiceException(0, what + ": interrupted", e);
      }
      int status = response.statusCode();
      if (transientStatus(status) && attempt < ATTEMPTS) {
        pause(attempt);
        continue;
      }
      if (status != 200) {
        throw new SluiceException(
            status, what + ": Sluice answered HTTP " + status + reason(response.body()));
      }
      Map<String, Object> body;
      try {
        body = Json.parseObject(response.body());
      } catch (IllegalArgumentException e) {
        throw new SluiceException(status, what + ": the answer is not usable: " + e.getMessage());
      }
      if (!(body.get("access_token") instanceof String access) || access.isEmpty()) {
        throw new SluiceException(status, what + ": the answer has no access_token");
      }
      long lifetimeSeconds =
          body.get("expires_in") instanceof Number n && n.longValue() > 0 ? n.longValue() : 300;
      // Renew a minute early, or a fifth of the lifetime early for short-lived tokens.
      long marginSeconds = Math.min(60, lifetimeSeconds / 5);
      token = access;
      tokenRefreshAt = sentAt + (lifetimeSeconds - marginSeconds) * 1000;
      return;
    }
  }

  private static boolean transientStatus(int status) {
    return status == 429 || status == 502 || status == 503 || status == 504;
  }

  private static SluiceException unreachable(String what, IOException e) {
    return new SluiceException(
        0, what + ": Sluice is unreachable (" + e.getClass().getSimpleName() + ")", e);
  }

  private static void pause(int attempt) throws SluiceException {
    try {
      Thread.sleep(BACKOFF_MILLIS[Math.min(attempt, BACKOFF_MILLIS.length) - 1]);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SluiceException(0, "interrupted while retrying a Sluice request", e);
    }
  }

  /**
   * ": <message>" from an Iceberg error body ({@code {"error":{"message","type"}}}) or an OAuth2
   * one ({@code {"error","error_description"}}); empty when there is none. Shortened.
   */
  static String reason(String body) {
    Map<String, Object> parsed;
    try {
      parsed = Json.parseObject(body);
    } catch (IllegalArgumentException e) {
      return "";
    }
    Object error = parsed.get("error");
    String text = null;
    if (error instanceof Map<?, ?> m) {
      Object type = m.get("type");
      Object message = m.get("message");
      text =
          (type instanceof String t ? t + ": " : "")
              + (message instanceof String s ? s : "(no message)");
    } else if (error instanceof String code) {
      Object description = parsed.get("error_description");
      text = code + (description instanceof String d ? ": " + d : "");
    }
    if (text == null) {
      return "";
    }
    return ": " + (text.length() > MAX_REASON_CHARS ? text.substring(0, MAX_REASON_CHARS) : text);
  }

  /** Iceberg's encoding of a path segment (form encoding, as RESTUtil.encodeString). */
  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Iceberg's namespace encoding: encoded levels joined by the unit separator, %1F. */
  static String encodeNamespace(List<String> levels) {
    return levels.stream().map(SluiceClient::encode).collect(Collectors.joining("%1F"));
  }
}
