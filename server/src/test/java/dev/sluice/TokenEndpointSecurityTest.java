package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.testing.Admin;
import dev.sluice.testing.TestServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The token endpoint as an attacker with ordinary credentials sees it: exchanges that try to widen
 * a token, guessing loops, timing, forged key ids. Through HTTP against a real server.
 */
class TokenEndpointSecurityTest {
  static final String EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
  static final String ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
  private static final String M = "/api/management/v1";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final long LIFETIME_SECONDS = 120;

  /** Shared by the tests that do not count failures: the throttle is off, the lifetime short. */
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServer.start(
            null,
            "auth:\n  tokenLifetimeSeconds: "
                + LIFETIME_SECONDS
                + "\n  tokenThrottle:\n    enabled: false\n");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static HttpResponse<String> post(TestServer s, String form) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(s.catalogUri() + "/v1/oauth/tokens"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static String credentialsForm(String clientId, String secret, String scope) {
    return "grant_type=client_credentials&client_id="
        + enc(clientId)
        + "&client_secret="
        + enc(secret)
        + (scope == null ? "" : "&scope=" + enc(scope));
  }

  /** What Iceberg's client sends to refresh: the current token as subject, its configured scope. */
  static String exchangeForm(String subject, String scope) {
    return "grant_type="
        + enc(EXCHANGE)
        + "&subject_token="
        + enc(subject)
        + "&subject_token_type="
        + enc(ACCESS_TOKEN)
        + (scope == null ? "" : "&scope=" + enc(scope));
  }

  static String token(TestServer s, String[] credentials, String scope) throws Exception {
    HttpResponse<String> response = post(s, credentialsForm(credentials[0], credentials[1], scope));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body()).get("access_token").asText();
  }

  static String exchanged(TestServer s, String subject, String scope) throws Exception {
    HttpResponse<String> response = post(s, exchangeForm(subject, scope));
    assertThat(response.statusCode())
        .as("exchange with scope " + scope + ": " + response.body())
        .isEqualTo(200);
    return TestServer.json(response.body()).get("access_token").asText();
  }

  static void assertOAuthError(HttpResponse<String> response, int status, String error)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(TestServer.json(response.body()).get("error").asText())
        .as(response.body())
        .isEqualTo(error);
    assertThat(TestServer.json(response.body()).get("error_description").asText()).isNotBlank();
  }

  static JsonNode events(TestServer s, String query) throws Exception {
    HttpResponse<String> response = s.send("GET", M + "/events?" + query, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestServer.json(response.body()).get("events");
  }

  static List<String> securables(JsonNode events, String action) {
    List<String> out = new ArrayList<>();
    events.forEach(
        e -> {
          if (e.get("action").asText().equals(action)) {
            out.add(e.get("securable").asText());
          }
        });
    return out;
  }

  /**
   * nora holds {@code <p>_lister} (may list namespaces in a catalog) and {@code <p>_plain}
   * (nothing); otto holds {@code <p>_other}. No exchange gets nora more than her token had. Shared
   * with the PostgreSQL variant.
   */
  static void exchangeNeverWidens(TestServer s, String p) throws Exception {
    Admin admin = new Admin(s);
    String catalog = s.createCatalog(p);
    String[] nora = admin.principal(p + "_nora", p + "_lister");
    assertThat(
            s.send("POST", M + "/principal-roles", Admin.principalRoleJson(p + "_plain"))
                .statusCode())
        .isEqualTo(201);
    assertThat(
            s.send(
                    "PUT",
                    M + "/principals/" + p + "_nora/principal-roles",
                    Admin.grantPrincipalRoleJson(p + "_plain"))
                .statusCode())
        .isBetween(200, 204);
    admin.principal(p + "_otto", p + "_other");
    admin.catalogRole(catalog, p + "_cr", p + "_lister");
    admin.grant(catalog, p + "_cr", Admin.grantJson("catalog", null, null, "NAMESPACE_LIST"));
    String list = "/api/catalog/v1/" + catalog + "/namespaces";
    String plain = "PRINCIPAL_ROLE:" + p + "_plain";
    String lister = "PRINCIPAL_ROLE:" + p + "_lister";

    String all = token(s, nora, "PRINCIPAL_ROLE:ALL");
    String narrowed = token(s, nora, plain);
    assertThat(s.sendAs(all, "GET", list, null).statusCode()).isEqualTo(200);
    assertThat(s.sendAs(narrowed, "GET", list, null).statusCode()).isEqualTo(403);

    // Widening a narrowed token: refused whatever the form.
    assertOAuthError(post(s, exchangeForm(narrowed, "PRINCIPAL_ROLE:ALL")), 400, "invalid_scope");
    assertOAuthError(post(s, exchangeForm(narrowed, lister)), 400, "invalid_scope");
    assertOAuthError(post(s, exchangeForm(narrowed, plain + " " + lister)), 400, "invalid_scope");
    assertOAuthError(
        post(s, exchangeForm(narrowed, "PRINCIPAL_ROLE:" + p + "_other")), 400, "invalid_scope");
    assertOAuthError(
        post(s, exchangeForm(all, "PRINCIPAL_ROLE:" + p + "_other")), 400, "invalid_scope");

    // Iceberg's default scope ("catalog"), or none, keeps the subject token's roles: still
    // narrowed.
    for (String scope : new String[] {"catalog", null}) {
      String refreshed = exchanged(s, narrowed, scope);
      assertThat(s.server().tokens().verify(refreshed).name()).isEqualTo(p + "_nora");
      assertThat(s.server().tokens().verify(refreshed).scopes()).containsExactly(plain);
      assertThat(s.sendAs(refreshed, "GET", list, null).statusCode())
          .as("refreshed with " + scope)
          .isEqualTo(403);
    }

    // Narrowing an all-roles token works, and the result really lacks the dropped role.
    String dropped = exchanged(s, all, plain);
    assertThat(s.sendAs(dropped, "GET", list, null).statusCode()).isEqualTo(403);
    assertThat(s.sendAs(exchanged(s, dropped, "catalog"), "GET", list, null).statusCode())
        .isEqualTo(403);
    assertOAuthError(post(s, exchangeForm(dropped, "PRINCIPAL_ROLE:ALL")), 400, "invalid_scope");
    assertThat(s.sendAs(exchanged(s, all, lister), "GET", list, null).statusCode()).isEqualTo(200);
    // ... and refreshing an all-roles token keeps all roles (normal Iceberg refresh).
    assertThat(s.sendAs(exchanged(s, all, "catalog"), "GET", list, null).statusCode())
        .isEqualTo(200);

    JsonNode denied = events(s, "principal=" + p + "_nora&decision=DENY");
    assertThat(securables(denied, "getToken"))
        .contains(
            "oauth " + EXCHANGE + ": scope wider than the subject token",
            "oauth " + EXCHANGE + ": principal role not held");
    assertThat(events(s, "decision=DENY").toString())
        .doesNotContain(narrowed)
        .doesNotContain(all)
        .doesNotContain(nora[1]);
  }

  @Test
  void tokenExchangeNeverWidens() throws Exception {
    exchangeNeverWidens(server, "tes");
  }

  @Test
  void tokenExchangeRefusesWhatItDoesNotSupport() throws Exception {
    String root = server.rootToken();
    assertOAuthError(
        post(server, exchangeForm(root, null) + "&actor_token=" + enc(root)),
        400,
        "invalid_request");
    assertOAuthError(
        post(server, exchangeForm(root, null) + "&actor_token_type=" + enc(ACCESS_TOKEN)),
        400,
        "invalid_request");
    assertOAuthError(
        post(
            server,
            exchangeForm(root, null)
                + "&requested_token_type="
                + enc("urn:ietf:params:oauth:token-type:refresh_token")),
        400,
        "invalid_request");
    assertOAuthError(
        post(
            server,
            "grant_type="
                + enc(EXCHANGE)
                + "&subject_token="
                + enc(root)
                + "&subject_token_type="
                + enc("urn:ietf:params:oauth:token-type:id_token")),
        400,
        "invalid_request");
    assertOAuthError(
        post(server, exchangeForm(root, null) + "&client_id=someone-else"), 400, "invalid_request");
    assertOAuthError(post(server, "grant_type=" + enc(EXCHANGE)), 400, "invalid_request");
    assertOAuthError(post(server, exchangeForm("garbage", null)), 401, "invalid_client");
    assertOAuthError(
        post(server, exchangeForm(root, null) + "&scope=a&scope=b"), 400, "invalid_request");
    // The accepted forms, for contrast.
    assertThat(
            post(
                    server,
                    exchangeForm(root, "catalog") + "&requested_token_type=" + enc(ACCESS_TOKEN))
                .statusCode())
        .isEqualTo(200);
    assertThat(
            post(server, exchangeForm(root, null) + "&client_id=" + TestServer.CLIENT_ID)
                .statusCode())
        .isEqualTo(200);

    assertThat(
            securables(
                events(server, "principal=" + enc("<unknown>") + "&decision=DENY"), "getToken"))
        .contains(
            "oauth " + EXCHANGE + ": invalid subject token",
            "oauth " + EXCHANGE + ": incomplete actor",
            "oauth: body is not form-encoded");
  }

  @Test
  void noTokenOutlivesTheConfiguredLifetime() throws Exception {
    HttpResponse<String> issued =
        post(server, credentialsForm(TestServer.CLIENT_ID, TestServer.SECRET, null));
    assertThat(TestServer.json(issued.body()).get("expires_in").asLong())
        .isEqualTo(LIFETIME_SECONDS);
    String token = TestServer.json(issued.body()).get("access_token").asText();
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> refreshed = post(server, exchangeForm(token, "catalog"));
      assertThat(TestServer.json(refreshed.body()).get("expires_in").asLong())
          .isEqualTo(LIFETIME_SECONDS);
      token = TestServer.json(refreshed.body()).get("access_token").asText();
      JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
      long lifetimeMs = claims.getExpirationTime().getTime() - claims.getIssueTime().getTime();
      assertThat(lifetimeMs).isEqualTo(LIFETIME_SECONDS * 1000);
      assertThat(claims.getExpirationTime().getTime())
          .isLessThanOrEqualTo(System.currentTimeMillis() + LIFETIME_SECONDS * 1000);
    }
  }

  @Test
  void forgedKeyIdsCostAtMostOneKeyReadPerInterval() throws Exception {
    double before = metric(server, "sluice_auth_signing_key_reads_total");
    byte[] material = new byte[32];
    new SecureRandom().nextBytes(material);
    for (int i = 0; i < 100; i++) {
      JWTClaimsSet claims =
          new JWTClaimsSet.Builder()
              .issuer("sluice")
              .subject("root")
              .claim("cv", 0L)
              .expirationTime(new Date(System.currentTimeMillis() + 60_000))
              .build();
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.HS256)
                  .keyID("k-forged-" + UUID.randomUUID())
                  .build(),
              claims);
      jwt.sign(new MACSigner(material));
      String forged = jwt.serialize();
      assertThat(server.sendAs(forged, "GET", M + "/catalogs", null).statusCode()).isEqualTo(401);
      assertThat(post(server, exchangeForm(forged, null)).statusCode()).isEqualTo(401);
    }
    double reads = metric(server, "sluice_auth_signing_key_reads_total") - before;
    assertThat(reads).as("200 forged tokens, 5 s between reads at most").isBetween(0.0, 1.0);
  }

  @Test
  void anUnknownClientIdCostsWhatAWrongSecretCosts() throws Exception {
    int samples = 40;
    long[] known = new long[samples];
    long[] unknown = new long[samples];
    String knownBody = null;
    String unknownBody = null;
    for (int i = -5;
        i < samples;
        i++) { // 5 rounds of warm-up, then interleaved so load hits both alike
      long t0 = System.nanoTime();
      HttpResponse<String> k =
          post(server, credentialsForm(TestServer.CLIENT_ID, "wrong-" + i, null));
      long t1 = System.nanoTime();
      HttpResponse<String> u =
          post(server, credentialsForm("no-such-client-" + i, "wrong-" + i, null));
      long t2 = System.nanoTime();
      assertThat(k.statusCode()).isEqualTo(401);
      assertThat(u.statusCode()).isEqualTo(401);
      knownBody = k.body();
      unknownBody = u.body();
      if (i >= 0) {
        known[i] = t1 - t0;
        unknown[i] = t2 - t1;
      }
    }
    assertThat(unknownBody).as("same answer").isEqualTo(knownBody);
    Arrays.sort(known);
    Arrays.sort(unknown);
    double ratio = (double) known[samples / 2] / unknown[samples / 2];
    System.out.printf(
        "token endpoint timing: median known id + wrong secret %.1f ms, unknown id %.1f ms, ratio %.2f%n",
        known[samples / 2] / 1e6, unknown[samples / 2] / 1e6, ratio);
    assertThat(ratio).isBetween(0.5, 2.0);
  }

  @Test
  void aGuessingLoopIsThrottledAndABusyClientIsNot() throws Exception {
    try (TestServer s =
        TestServer.startH2()) { // default limits: 10 failures per client id, 50 per address
      s.rootToken();
      String[] victim = new Admin(s).principal("victim", "victim_role");
      String[] root = {TestServer.CLIENT_ID, TestServer.SECRET};

      for (int i = 0;
          i < 60;
          i++) { // more successes than any burst: a busy client is never throttled
        assertThat(post(s, credentialsForm(root[0], root[1], null)).statusCode()).isEqualTo(200);
      }

      List<Integer> statuses = new ArrayList<>();
      HttpResponse<String> throttled = null;
      for (int i = 0; i < 15; i++) {
        HttpResponse<String> r = post(s, credentialsForm(victim[0], "guess-" + i, null));
        statuses.add(r.statusCode());
        if (r.statusCode() == 429) {
          throttled = r;
        }
      }
      // 10 misses, then throttled (a miss comes back every 6 s, so a slow machine may get one
      // more).
      assertThat(statuses.subList(0, 10)).containsOnly(401);
      assertThat(statuses.subList(12, 15)).containsOnly(429);
      int misses = (int) statuses.stream().filter(x -> x == 401).count();
      int seenThrottled = 15 - misses;
      assertOAuthError(throttled, 429, "slow_down");
      long retryAfter = Long.parseLong(throttled.headers().firstValue("Retry-After").orElseThrow());
      assertThat(retryAfter).isBetween(1L, 60L);
      // Per client id: the victim's id is locked for now (even with its secret), others are not.
      assertThat(post(s, credentialsForm(victim[0], victim[1], null)).statusCode()).isEqualTo(429);
      assertThat(post(s, credentialsForm(root[0], root[1], null)).statusCode()).isEqualTo(200);

      // Per address: new client ids do not help once the address has had its 50 failures.
      int tried = 0;
      HttpResponse<String> last;
      do {
        last = post(s, credentialsForm("made-up-" + tried, "guess", null));
        tried++;
      } while (last.statusCode() == 401 && tried < 100);
      assertThat(last.statusCode()).isEqualTo(429);
      // 50 - 10 spent on the victim, plus what refilled meanwhile (50 a minute).
      assertThat(tried).isBetween(51 - misses, 51 - misses + 10);
      assertThat(post(s, credentialsForm(root[0], root[1], null)).statusCode()).isEqualTo(429);
      assertThat(postFrom("127.0.0.2", s, credentialsForm(root[0], root[1], null)))
          .as("another address is not affected")
          .startsWith("HTTP/1.1 200");

      // the victim's, its right secret's, the made-up id's and root's
      assertThat(metric(s, "sluice_auth_token_throttled_total")).isEqualTo(seenThrottled + 3.0);
      List<String> onVictim =
          securables(events(s, "principal=" + victim[0] + "&decision=DENY"), "getToken");
      assertThat(onVictim)
          .filteredOn(x -> x.equals("oauth client_credentials: wrong secret"))
          .hasSize(misses);
      assertThat(onVictim)
          .filteredOn(x -> x.equals("oauth client_credentials: throttled"))
          .hasSize(seenThrottled + 1);
      assertThat(securables(events(s, "principal=made-up-0&decision=DENY"), "getToken"))
          .containsExactly("oauth client_credentials: unknown client");
      assertThat(events(s, "decision=DENY&pageSize=1000").toString())
          .doesNotContain("guess-")
          .doesNotContain(victim[1]);
    }
  }

  @Test
  void aClaimedClientIdIsTruncatedInTheAuditTrail() throws Exception {
    String huge = "x".repeat(10_000);
    assertOAuthError(post(server, credentialsForm(huge, "s", null)), 401, "invalid_client");
    JsonNode denied = events(server, "principal=" + "x".repeat(256) + "&decision=DENY");
    assertThat(securables(denied, "getToken"))
        .containsExactly("oauth client_credentials: unknown client");
  }

  /**
   * POSTs from a given local address (the server sees it as the peer); returns the raw response.
   */
  private static String postFrom(String localAddress, TestServer s, String form) throws Exception {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(localAddress, 0));
      socket.connect(new InetSocketAddress("127.0.0.1", s.server().port()));
      byte[] body = form.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /api/catalog/v1/oauth/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                  + body.length
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static double metric(TestServer s, String name) throws Exception {
    String scrape = s.sendAs(null, "GET", "/metrics", null).body();
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*})? ([0-9.eE+-]+)$")
            .matcher(scrape);
    assertThat(m.find()).as(name + " in /metrics").isTrue();
    return Double.parseDouble(m.group(1));
  }
}
