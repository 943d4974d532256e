package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.api.Event;
import dev.sluice.audit.AuditRetention;
import dev.sluice.audit.AuditStream;
import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.PageRequest;
import dev.sluice.testing.Admin;
import dev.sluice.testing.RawHttp;
import dev.sluice.testing.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit trail records what happened, not only what was decided: each event carries its
 * request's outcome (status, error type), client address (a forwarded one only from a trusted
 * proxy), user agent and request id; the same events go out as CloudEvents JSON lines ({@code
 * audit.stream: file}); and retention deletes old events only. H2 here; PostgreSQL in the subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditOutcomeTest {
  private static final String M = "/api/management/v1";
  private static final String PROXY = "127.0.0.2";
  private static final String STRANGER = "127.0.0.3";
  @TempDir static Path dir;
  private Path streamFile;
  private TestServer server;
  private Admin admin;

  @BeforeAll
  void start() throws Exception {
    streamFile = dir.resolve("audit/events.jsonl");
    server =
        startSluice(
            "server:\n  trustedProxies: [\""
                + PROXY
                + "/32\"]\naudit:\n  stream: file\n  file: "
                + streamFile
                + "\n");
    admin = new Admin(server);
  }

  /** The server under test, on H2; the PostgreSQL subclass overrides this. */
  protected TestServer startSluice(String yaml) throws Exception {
    return TestServer.start(null, yaml);
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private AccessStore access() {
    return server.server().store().access();
  }

  /** The events of {@code requestId}, newest first, as the management API answers them. */
  private List<Event> eventsOf(String requestId) throws Exception {
    List<Event> out = new ArrayList<>();
    for (Event e : admin.events("pageSize=1000").events()) {
      if (requestId.equals(e.requestId())) {
        out.add(e);
      }
    }
    return out;
  }

  private static String newRequestId() {
    return "audit-" + UUID.randomUUID();
  }

  @Test
  void anAllowedDeleteThatFailedIsRecordedWithItsStatusAndErrorType() throws Exception {
    String id = newRequestId();
    HttpResponse<String> r =
        server.sendAs(
            server.rootToken(),
            "DELETE",
            M + "/principals/root",
            null,
            Map.of("X-Request-ID", id, "User-Agent", "audit-test/1.0"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    List<Event> events = eventsOf(id);
    assertThat(events).hasSize(1);
    Event e = events.get(0);
    assertThat(e.action()).isEqualTo("deletePrincipal");
    assertThat(e.decision()).isEqualTo("ALLOW");
    assertThat(e.status()).isEqualTo(400);
    assertThat(e.errorType()).isEqualTo("BadRequestException");
    assertThat(e.clientAddress()).isEqualTo("127.0.0.1");
    assertThat(e.userAgent()).isEqualTo("audit-test/1.0");
  }

  @Test
  void aSuccessHasItsStatusAndNoErrorTypeAndADenialItsForbidden() throws Exception {
    String catalog = server.createCatalog("outcome");
    String ok = newRequestId();
    HttpResponse<String> created =
        server.sendAs(
            server.rootToken(),
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces",
            "{\"namespace\": [\"ns\"]}",
            Map.of("X-Request-ID", ok));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    Event allowed = eventsOf(ok).get(0);
    assertThat(allowed.decision()).isEqualTo("ALLOW");
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.errorType()).isNull();
    // Absent from the answer, not sent as null.
    for (JsonNode e :
        TestServer.json(server.send("GET", M + "/events?pageSize=1000", null).body())
            .get("events")) {
      if (ok.equals(e.path("requestId").asText())) {
        assertThat(e.has("errorType")).as(e.toString()).isFalse();
      }
    }

    String[] reader = admin.principal("outcome-reader-" + UUID.randomUUID(), "outcome_readers");
    String denied = newRequestId();
    HttpResponse<String> refused =
        server.sendAs(
            server.token(reader[0], reader[1]),
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces",
            "{\"namespace\": [\"other\"]}",
            Map.of("X-Request-ID", denied));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    List<Event> events = eventsOf(denied);
    assertThat(events).isNotEmpty();
    for (Event e : events) {
      assertThat(e.status()).as(e.toString()).isEqualTo(403);
      assertThat(e.errorType()).as(e.toString()).isEqualTo("ForbiddenException");
    }
    assertThat(events).anySatisfy(e -> assertThat(e.decision()).isEqualTo("DENY"));
  }

  @Test
  void aRefusedTokenRequestIsRecordedWithItsOAuthErrorAndAddress() throws Exception {
    String id = newRequestId();
    RawHttp.Response r = tokenRequest(STRANGER, id, List.of(), "wrong");
    assertThat(r.status()).as(r.bodyText()).isEqualTo(401);
    Event e = eventsOf(id).get(0);
    assertThat(e.decision()).isEqualTo("DENY");
    assertThat(e.status()).isEqualTo(401);
    assertThat(e.errorType()).isEqualTo("invalid_client");
    assertThat(e.clientAddress()).isEqualTo(STRANGER);
  }

  @Test
  void aForwardedAddressIsRecordedOnlyFromATrustedProxy() throws Exception {
    String viaProxy = newRequestId();
    tokenRequest(
        PROXY, viaProxy, List.<String[]>of(new String[] {"X-Forwarded-For", "198.51.100.7"}), "x");
    assertThat(eventsOf(viaProxy).get(0).clientAddress()).isEqualTo("198.51.100.7");

    String spoofed = newRequestId();
    tokenRequest(
        STRANGER,
        spoofed,
        List.<String[]>of(new String[] {"X-Forwarded-For", "198.51.100.8"}),
        "x");
    assertThat(eventsOf(spoofed).get(0).clientAddress()).isEqualTo(STRANGER);
  }

  /** A token request with a wrong secret, from {@code localAddress}, with {@code headers}. */
  private RawHttp.Response tokenRequest(
      String localAddress, String requestId, List<String[]> headers, String secret)
      throws Exception {
    String form =
        "grant_type=client_credentials&client_id=nobody-"
            + UUID.randomUUID()
            + "&client_secret="
            + URLEncoder.encode(secret, StandardCharsets.UTF_8)
            + "&scope=PRINCIPAL_ROLE%3AALL";
    List<String[]> all = new ArrayList<>(headers);
    all.add(new String[] {"X-Request-ID", requestId});
    all.add(new String[] {"Content-Type", "application/x-www-form-urlencoded"});
    return new RawHttp("127.0.0.1", server.server().port())
        .from(localAddress)
        .send(
            "POST",
            "/api/catalog/v1/oauth/tokens".getBytes(StandardCharsets.US_ASCII),
            all,
            form.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theStreamFileHoldsEachStoredEventAsACloudEvent() throws Exception {
    String id = newRequestId();
    server.sendAs(
        server.rootToken(), "DELETE", M + "/principals/root", null, Map.of("X-Request-ID", id));
    eventsOf(id); // flushes the writer: the stream is written with the database
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(streamFile)))
        .isEqualTo("rw-------");
    List<JsonNode> mine = new ArrayList<>();
    for (String line : Files.readAllLines(streamFile)) {
      JsonNode event = TestServer.json(line);
      assertThat(event.get("specversion").asText()).isEqualTo("1.0");
      assertThat(event.get("type").asText()).isEqualTo(AuditStream.EVENT_TYPE);
      assertThat(event.get("source").asText()).startsWith("sluice://");
      assertThat(Instant.parse(event.get("time").asText())).isBefore(Instant.now().plusSeconds(1));
      if (id.equals(event.path("data").path("requestId").asText())) {
        mine.add(event);
      }
    }
    assertThat(mine).hasSize(1);
    JsonNode data = mine.get(0).get("data");
    assertThat(mine.get(0).get("subject").asText()).isEqualTo("deletePrincipal");
    assertThat(data.get("decision").asText()).isEqualTo("ALLOW");
    assertThat(data.get("status").asInt()).isEqualTo(400);
    assertThat(data.get("errorType").asText()).isEqualTo("BadRequestException");
    assertThat(data.get("principal").asText()).isEqualTo("root");
  }

  @Test
  void retentionDeletesOnlyEventsOlderThanItKeeps() {
    long now = System.currentTimeMillis();
    String marker = "retention-" + UUID.randomUUID();
    List<AuditEvent> rows = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      rows.add(event(now - Duration.ofDays(3).toMillis() - i, marker + "-old"));
    }
    rows.add(event(now - Duration.ofHours(1).toMillis(), marker + "-new"));
    access().appendEvents(rows);
    Clock clock = Clock.fixed(Instant.ofEpochMilli(now), ZoneOffset.UTC);
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    long deleted = new AuditRetention(access(), Duration.ofDays(2), clock, metrics).pruneOnce();
    assertThat(deleted).isGreaterThanOrEqualTo(3);
    assertThat(metrics.counter("sluice.audit.pruned").count()).isEqualTo(deleted);
    assertThat(securables(marker + "-old")).isEmpty();
    assertThat(securables(marker + "-new")).hasSize(1);
  }

  private static AuditEvent event(long time, String securable) {
    return new AuditEvent(
        0, time, "retention", List.of(), "loadTable", null, securable, true, "retention");
  }

  private List<AuditEvent> securables(String securable) {
    return access()
        .events(
            new AuditFilter(null, null, securable, null, null, null, null),
            PageRequest.of(null, 100))
        .items();
  }
}
