package dev.sluice.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server survives, on its default limits and a small heap, what one client without a token can
 * send: the attack of issue 32 (40 connections declaring 8 MB bodies and sending almost nothing
 * killed a 256 MB server with {@code ExitOnOutOfMemoryError} within a second), then bodies really
 * sent, slow headers and more connections than it accepts. A legitimate client loads a table
 * throughout, on its own connection; every load must succeed, and its latency is reported in {@code
 * e2e/target/availability.md}.
 */
class AvailabilityTest {
  private static final int DECLARED = 8_388_000;
  private static SluiceServerProcess server;
  private static String table;

  @BeforeAll
  static void start() {
    server =
        SluiceServerProcess.start(
            "availability",
            null,
            Map.of(),
            null,
            List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"));
    String token = server.fetchToken();
    String prefix = "/api/catalog/v1/quickstart";
    assertThat(
            server
                .send("POST", prefix + "/namespaces", token, "{\"namespace\":[\"a\"]}")
                .statusCode())
        .isEqualTo(200);
    assertThat(
            server
                .send(
                    "POST",
                    prefix + "/namespaces/a/tables",
                    token,
                    "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"fields\":"
                        + "[{\"id\":1,\"name\":\"id\",\"required\":false,\"type\":\"long\"}]}}")
                .statusCode())
        .isEqualTo(200);
    table = prefix + "/namespaces/a/tables/t";
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theServerStaysUpAndServesWhileOneClientAttacksIt() throws Exception {
    String token = server.fetchToken();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest load =
        HttpRequest.newBuilder(URI.create(server.rootUrl() + table))
            .header("Authorization", "Bearer " + token)
            .build();
    assertThat(client.send(load, HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(200);

    AtomicBoolean attacking = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Long> micros = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    ExecutorService legit = Executors.newSingleThreadExecutor();
    Future<?> loads =
        legit.submit(
            () -> {
              while (attacking.get()) {
                long t0 = System.nanoTime();
                try {
                  int status =
                      client.send(load, HttpResponse.BodyHandlers.discarding()).statusCode();
                  if (status != 200) {
                    failures.add("status " + status);
                  }
                } catch (Exception e) {
                  failures.add(e.toString());
                }
                micros.add((System.nanoTime() - t0) / 1_000);
              }
              return null;
            });
    List<String> phases = new ArrayList<>();
    long peakRss = 0;
    List<Socket> open = new ArrayList<>();
    phaseStart = System.nanoTime();
    try {
      // 1. Declared bodies that never come: the allocation attack of issue 32, seven times over.
      for (int i = 0; i < 300; i++) {
        open.add(head(DECLARED, "grant_type="));
      }
      Thread.sleep(3_000);
      peakRss = Math.max(peakRss, check("300 declared 8 MB bodies, unsent", phases));

      // 2. Bodies really sent, 40 × 8 MB at once: to the token endpoint, without a token (it
      // takes 64 KiB: each is dropped as it arrives, then 413), and as a principal, valid JSON a
      // handler parses (the in-flight budget, a sixteenth of the heap, admits two at a time).
      ExecutorService senders = Executors.newFixedThreadPool(40);
      List<Future<String>> answers = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        answers.add(senders.submit(() -> sendWholeBody(null)));
      }
      List<String> anonymous = statuses(answers);
      assertThat(anonymous).as("40 token requests of 8 MB").containsOnly("413");
      peakRss =
          Math.max(peakRss, check("40 token requests of 8 MB: " + summary(anonymous), phases));
      answers.clear();
      for (int i = 0; i < 40; i++) {
        answers.add(senders.submit(() -> sendWholeBody(token)));
      }
      List<String> statuses = statuses(answers);
      senders.shutdownNow();
      assertThat(statuses).as("answers to 40 full JSON bodies").contains("503");
      peakRss =
          Math.max(peakRss, check("40 JSON bodies of 8 MB at once: " + summary(statuses), phases));

      // 3. Headers that never end, and 4. more connections than the server accepts (1000 by
      // default: the last ones wait in the kernel's accept queue).
      for (Socket socket : open) {
        socket.close();
      }
      open.clear();
      for (int i = 0; i < 300; i++) {
        open.add(raw("POST /api/catalog/v1/oauth/tokens HTTP/1.1\r\nHost: x\r\nX-Slow: "));
      }
      for (int i = 0; i < 720; i++) {
        open.add(
            new Socket(InetAddress.getLoopbackAddress(), URI.create(server.rootUrl()).getPort()));
      }
      Thread.sleep(3_000);
      peakRss =
          Math.max(
              peakRss, check("300 unfinished headers + 720 idle connections (1,020 open)", phases));
    } finally {
      attacking.set(false);
      loads.get(60, TimeUnit.SECONDS);
      legit.shutdownNow();
      for (Socket socket : open) {
        socket.close();
      }
    }
    List<Long> sorted = new ArrayList<>(micros);
    Collections.sort(sorted);
    long p50 = sorted.get(sorted.size() / 2);
    long p99 = sorted.get((int) (sorted.size() * 0.99));
    String report =
        "# Availability under attack (AvailabilityTest)\n\nServer: -Xmx256m, ExitOnOutOfMemoryError,"
            + " default server.limits. A legitimate client loaded a table "
            + sorted.size()
            + " times during the attack: p50 "
            + p50 / 1000.0
            + " ms, p99 "
            + p99 / 1000.0
            + " ms, max "
            + sorted.get(sorted.size() - 1) / 1000.0
            + " ms, "
            + failures.size()
            + " failed. Peak server RSS "
            + peakRss / 1024
            + " MiB.\n\n"
            + String.join("\n", phases)
            + "\n";
    Files.writeString(SluiceServerProcess.repoRoot().resolve("e2e/target/availability.md"), report);
    System.out.println(report);
    assertThat(failures).as("the legitimate client's failed loads").isEmpty();
    assertThat(server.alive()).isTrue();
    // A new connection is served once the attack has gone.
    assertThat(server.getPublic("/healthz").statusCode()).isEqualTo(200);
    assertThat(peakRss).as("RSS in KiB").isLessThan(640 * 1024);
  }

  private static long phaseStart = System.nanoTime();

  /** Asserts the server still answers; its RSS (KiB), with the phase and its length recorded. */
  private static long check(String phase, List<String> phases) {
    assertThat(server.alive()).as("server alive after: %s", phase).isTrue();
    long rss = server.rssKib();
    long ms = (System.nanoTime() - phaseStart) / 1_000_000;
    phaseStart = System.nanoTime();
    phases.add("- " + phase + ": alive, RSS " + rss / 1024 + " MiB (" + ms + " ms)");
    return rss;
  }

  private static String summary(List<String> statuses) {
    Map<String, Long> counts = new java.util.TreeMap<>();
    statuses.forEach(s -> counts.merge(s, 1L, Long::sum));
    return counts.toString();
  }

  /** A token request head declaring {@code length} bytes, then {@code start} of its body. */
  private static Socket head(int length, String start) throws Exception {
    return raw(
        "POST /api/catalog/v1/oauth/tokens HTTP/1.1\r\nHost: x\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
            + length
            + "\r\n\r\n"
            + start);
  }

  private static Socket raw(String text) throws Exception {
    Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), URI.create(server.rootUrl()).getPort());
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** Sends a whole 8 MB token request body; the answer's status, or how the server cut it. */
  private static List<String> statuses(List<Future<String>> answers) throws Exception {
    List<String> statuses = new ArrayList<>();
    for (Future<String> answer : answers) {
      statuses.add(answer.get(60, TimeUnit.SECONDS));
    }
    return statuses;
  }

  /**
   * Sends a whole 8 MB body: a token request's form without {@code token}, else a namespace create
   * whose JSON names one 8 MB namespace. The answer's status, or how the server cut it.
   */
  private static String sendWholeBody(String token) {
    String head =
        token == null
            ? "POST /api/catalog/v1/oauth/tokens HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
            : "POST /api/catalog/v1/quickstart/namespaces HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer "
                + token
                + "\r\nContent-Type: application/json\r\n";
    String open = token == null ? "" : "{\"namespace\":[\"";
    String close = token == null ? "" : "\"]}";
    try (Socket socket = raw(head + "Content-Length: " + DECLARED + "\r\n\r\n" + open)) {
      OutputStream out = socket.getOutputStream();
      byte[] chunk = new byte[64 * 1024];
      java.util.Arrays.fill(chunk, (byte) 'a');
      int body = DECLARED - open.length() - close.length();
      try {
        for (int sent = 0; sent < body; sent += chunk.length) {
          out.write(chunk, 0, Math.min(chunk.length, body - sent));
        }
        out.write(close.getBytes(StandardCharsets.US_ASCII));
      } catch (java.io.IOException e) {
        // The server may answer (503) and close before the body is through.
      }
      socket.setSoTimeout(30_000);
      byte[] line = new byte[12];
      int n = socket.getInputStream().readNBytes(line, 0, line.length);
      return n == 12 ? new String(line, 9, 3, StandardCharsets.US_ASCII) : "closed";
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }
}
