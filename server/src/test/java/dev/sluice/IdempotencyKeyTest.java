package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Admin;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.TestServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * Issue 18: {@code Idempotency-Key} on mutations, over HTTP against a real server and store. A
 * retry of an applied create or commit gets the original answer (not a 409), a response lost on the
 * wire is recovered by the retry without a second commit, and misuse is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdempotencyKeyTest {
  static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  protected TestServer server;
  protected String catalog;

  protected TestServer startSluice(String extraYaml) throws Exception {
    return TestServer.start(null, extraYaml);
  }

  @BeforeAll
  void start() throws Exception {
    server = startSluice("server:\n  idempotencyKeyLifetime: PT5M\n");
    catalog = server.createCatalog("idem");
    assertThat(server.send("POST", api() + "/namespaces", "{\"namespace\": [\"ns\"]}").statusCode())
        .isEqualTo(200);
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  protected String api() {
    return "/api/catalog/v1/" + catalog;
  }

  /** A fresh key in the form Iceberg 1.11's client sends (UUIDv7). */
  static String newKey() {
    long ms = System.currentTimeMillis();
    UUID random = UUID.randomUUID();
    long high = (ms << 16) | 0x7000L | (random.getMostSignificantBits() & 0x0FFFL);
    return new UUID(high, random.getLeastSignificantBits()).toString();
  }

  protected HttpResponse<String> send(
      TestServer to, String token, String key, String method, String path, String body)
      throws Exception {
    return to.sendAs(
        token, method, path, body, key == null ? Map.of() : Map.of("Idempotency-Key", key));
  }

  protected HttpResponse<String> send(String key, String method, String path, String body)
      throws Exception {
    return send(server, server.rootToken(), key, method, path, body);
  }

  static String createBody(String name) {
    return "{\"name\": \"" + name + "\", \"schema\": " + SCHEMA + "}";
  }

  /** A commit adding snapshot {@code id} as main, only if main has no snapshot yet. */
  static String appendBody(String tableLocation, long id) {
    return "{\"requirements\": [{\"type\": \"assert-ref-snapshot-id\", \"ref\": \"main\","
        + " \"snapshot-id\": null}], \"updates\": [{\"action\": \"add-snapshot\", \"snapshot\":"
        + " {\"snapshot-id\": "
        + id
        + ", \"timestamp-ms\": "
        + System.currentTimeMillis()
        + ", \"sequence-number\": 1, \"manifest-list\": \""
        + tableLocation
        + "/metadata/snap-"
        + id
        + ".avro\", \"summary\": {\"operation\": \"append\"}, \"schema-id\": 0}},"
        + " {\"action\": \"set-snapshot-ref\", \"ref-name\": \"main\", \"type\": \"branch\","
        + " \"snapshot-id\": "
        + id
        + "}]}";
  }

  protected JsonNode load(String table) throws Exception {
    HttpResponse<String> loaded = send(null, "GET", api() + "/namespaces/ns/tables/" + table, null);
    assertThat(loaded.statusCode()).isEqualTo(200);
    return TestServer.json(loaded.body());
  }

  @Test
  void configAdvertisesTheConfiguredLifetime() throws Exception {
    HttpResponse<String> config =
        send(null, "GET", "/api/catalog/v1/config?warehouse=" + catalog, null);
    assertThat(config.statusCode()).isEqualTo(200);
    assertThat(TestServer.json(config.body()).path("idempotency-key-lifetime").asText())
        .isEqualTo("PT5M");
  }

  @Test
  void aReplayedCreateReturnsTheOriginalAnswerNotAConflict() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces/ns/tables";
    HttpResponse<String> first = send(key, "POST", path, createBody("created_once"));
    assertThat(first.statusCode()).isEqualTo(200);
    HttpResponse<String> again = send(key, "POST", path, createBody("created_once"));
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(TestServer.json(again.body()).path("metadata-location").asText())
        .isEqualTo(TestServer.json(first.body()).path("metadata-location").asText());
    assertThat(TestServer.json(again.body()).path("metadata"))
        .isEqualTo(TestServer.json(first.body()).path("metadata"));
    // Control: without the key the same request is a second create, refused.
    assertThat(send(null, "POST", path, createBody("created_once")).statusCode()).isEqualTo(409);
  }

  @Test
  void aCommitWhoseResponseIsLostIsAppliedOnceAndItsRetryGetsTheOriginal() throws Exception {
    String path = api() + "/namespaces/ns/tables/lost_response";
    assertThat(
            send(null, "POST", api() + "/namespaces/ns/tables", createBody("lost_response"))
                .statusCode())
        .isEqualTo(200);
    String location = load("lost_response").path("metadata").path("location").asText();
    String key = newKey();
    String commit = appendBody(location, 7001);

    sendAndDropResponse(key, path, commit);
    // The first attempt was applied although its client never read the answer.
    long deadline = System.currentTimeMillis() + 10_000;
    while (load("lost_response").path("metadata").path("snapshots").size() == 0
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }

    HttpResponse<String> retry = send(key, "POST", path, commit);
    assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    JsonNode table = load("lost_response");
    assertThat(table.path("metadata").path("snapshots").size()).isEqualTo(1);
    assertThat(TestServer.json(retry.body()).path("metadata-location").asText())
        .isEqualTo(table.path("metadata-location").asText());
    // Control: the same commit without the key is refused (its requirement no longer holds).
    assertThat(send(null, "POST", path, commit).statusCode()).isEqualTo(409);
  }

  /**
   * Attempts racing with one key (a client that retried before its first attempt answered) apply
   * the change once: each attempt's store change records the key in its own transaction, so every
   * attempt but one is rolled back and answered with the first one's answer. A commit with no
   * requirement would apply once per attempt otherwise (each adds a metadata file).
   */
  @Test
  void racingAttemptsWithOneKeyApplyTheChangeOnce() throws Exception {
    assertThat(
            send(null, "POST", api() + "/namespaces/ns/tables", createBody("raced")).statusCode())
        .isEqualTo(200);
    String path = api() + "/namespaces/ns/tables/raced";
    String commit =
        "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\","
            + " \"updates\": {\"raced\": \"once\"}}]}";
    int attempts = 8;
    String key = newKey();
    ExecutorService pool = Executors.newFixedThreadPool(attempts);
    try {
      CyclicBarrier start = new CyclicBarrier(attempts);
      List<Future<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < attempts; i++) {
        answers.add(
            pool.submit(
                () -> {
                  start.await();
                  return send(key, "POST", path, commit);
                }));
      }
      Set<String> locations = new HashSet<>();
      for (Future<HttpResponse<String>> answer : answers) {
        HttpResponse<String> response = answer.get(60, TimeUnit.SECONDS);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        locations.add(TestServer.json(response.body()).path("metadata-location").asText());
      }
      assertThat(locations).as("every attempt got the one answer").hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(load("raced").path("metadata").path("metadata-log").size())
        .as("one commit applied")
        .isEqualTo(1);
  }

  /** Sends a request on a raw socket and closes it without reading the answer. */
  private void sendAndDropResponse(String key, String path, String body) throws Exception {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + server.rootToken()
            + "\r\nIdempotency-Key: "
            + key
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + bytes.length
            + "\r\n\r\n";
    URI base = URI.create(server.baseUrl());
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes);
      out.flush();
      Thread.sleep(300); // the server has the whole request; the answer is never read
      socket.setSoLinger(true, 0); // reset, as a dropped connection would
    }
  }

  @Test
  void aKeyReusedByAnotherPrincipalIsRefused() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces";
    assertThat(send(key, "POST", path, "{\"namespace\": [\"owned_key\"]}").statusCode())
        .isEqualTo(200);
    String[] other = new Admin(server).principal("idem_other_" + System.nanoTime(), null);
    HttpResponse<String> refused =
        send(
            server,
            server.token(other[0], other[1]),
            key,
            "POST",
            path,
            "{\"namespace\": [\"owned_key\"]}");
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("another principal");
  }

  @Test
  void theSameKeyForAnotherRequestIsRefusedNamingTheMismatch() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces";
    assertThat(send(key, "POST", path, "{\"namespace\": [\"first_body\"]}").statusCode())
        .isEqualTo(200);
    HttpResponse<String> otherBody = send(key, "POST", path, "{\"namespace\": [\"second_body\"]}");
    assertThat(otherBody.statusCode()).isEqualTo(422);
    assertThat(otherBody.body()).contains("another request path, query or body");
    HttpResponse<String> otherOperation =
        send(key, "DELETE", api() + "/namespaces/first_body", null);
    assertThat(otherOperation.statusCode()).isEqualTo(422);
    assertThat(otherOperation.body()).contains("another operation");
    assertThat(send(null, "HEAD", api() + "/namespaces/second_body", null).statusCode())
        .as("the refused request did nothing")
        .isEqualTo(404);
  }

  @Test
  void theAccessLogNamesTheKeyAndTheReplay() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces";
    String body = "{\"namespace\": [\"logged_key\"]}";
    Logger accessLog = (Logger) LoggerFactory.getLogger("sluice.access");
    Level level = accessLog.getLevel();
    accessLog.setLevel(Level.INFO); // WARN in logback-test.xml
    try (LogCapture logs = new LogCapture()) {
      assertThat(send(key, "POST", path, body).statusCode()).isEqualTo(200);
      assertThat(send(key, "POST", path, body).statusCode()).isEqualTo(200);
      assertThat(send("not-a-uuid", "POST", path, body).statusCode()).isEqualTo(400);
      assertThat(send(null, "HEAD", path + "/logged_key", null).statusCode()).isEqualTo(204);
      // Access lines are written after the answer (a previous test's may still arrive): wait
      // for this test's four, and look at them only.
      Map<String, String> head = Map.of("status", "204");
      long until = System.nanoTime() + 5_000_000_000L;
      while (!(keyed(logs, key).size() == 3 && accessFields(logs).contains(head))
          && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      // In any order: each line is written after its answer went out, so the first request's
      // line may come after the second's.
      assertThat(keyed(logs, key))
          .containsExactlyInAnyOrder(
              Map.of("status", "200", "idempotencyKey", key),
              Map.of("status", "200", "idempotencyKey", key, "replayed", "true"),
              Map.of("status", "400", "idempotencyKey", "malformed"));
      assertThat(accessFields(logs)).as("the HEAD, without a key").contains(head);
    } finally {
      accessLog.setLevel(level);
    }
  }

  /** The access lines (as {@link #accessFields}) naming {@code key} or a malformed key. */
  private static List<Map<String, String>> keyed(LogCapture logs, String key) {
    return accessFields(logs).stream()
        .filter(
            f -> key.equals(f.get("idempotencyKey")) || "malformed".equals(f.get("idempotencyKey")))
        .toList();
  }

  /** status, idempotencyKey and replayed of each access line so far. */
  private static List<Map<String, String>> accessFields(LogCapture logs) {
    Set<String> wanted = Set.of("status", "idempotencyKey", "replayed");
    return logs.events().stream()
        .filter(e -> e.getLoggerName().equals("sluice.access"))
        .map(
            e ->
                e.getKeyValuePairs().stream()
                    .filter(kv -> wanted.contains(kv.key))
                    .collect(Collectors.toMap(kv -> kv.key, kv -> String.valueOf(kv.value))))
        .toList();
  }

  @Test
  void aMalformedKeyIsABadRequest() throws Exception {
    HttpResponse<String> bad =
        send("not-a-uuid", "POST", api() + "/namespaces", "{\"namespace\": [\"bad_key\"]}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("Idempotency-Key");
    assertThat(send(null, "HEAD", api() + "/namespaces/bad_key", null).statusCode()).isEqualTo(404);
  }

  @Test
  void aDeterministicFailureIsReplayedToo() throws Exception {
    String key = newKey();
    String path = api() + "/namespaces/ns/tables/never_there";
    HttpResponse<String> first = send(key, "DELETE", path, null);
    assertThat(first.statusCode()).isEqualTo(404);
    HttpResponse<String> again = send(key, "DELETE", path, null);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(again.body()).isEqualTo(first.body());
  }

  @Test
  void aNoContentMutationIsReplayedAsNoContent() throws Exception {
    assertThat(
            send(null, "POST", api() + "/namespaces", "{\"namespace\": [\"to_drop\"]}")
                .statusCode())
        .isEqualTo(200);
    String key = newKey();
    assertThat(send(key, "DELETE", api() + "/namespaces/to_drop", null).statusCode())
        .isEqualTo(204);
    HttpResponse<String> again = send(key, "DELETE", api() + "/namespaces/to_drop", null);
    assertThat(again.statusCode())
        .as("not a 404: the drop was applied by the first attempt")
        .isEqualTo(204);
  }
}
