package dev.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A loopback stand-in for a Sluice server: records every request and answers canned JSON, so the
 * CLI's wire behaviour is checked without depending on the real management API.
 */
final class FakeServer implements AutoCloseable {
  static final String TOKEN = "tok-1";
  static final String TOKEN_PATH = "/api/catalog/v1/oauth/tokens";
  static final String MANAGEMENT = "/api/management/v1";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** One request; {@code query} is the raw query string, or null. */
  record Request(
      String method,
      String path,
      String authorization,
      String contentType,
      String body,
      String query) {
    JsonNode json() {
      return FakeServer.json(body);
    }

    /** The form fields of a token request, decoded. */
    Map<String, String> form() {
      Map<String, String> fields = new LinkedHashMap<>();
      for (String pair : body.split("&")) {
        int eq = pair.indexOf('=');
        fields.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
      return fields;
    }

    private static String decode(String value) {
      return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
  }

  private record Answer(int status, String body) {}

  private final HttpServer server;
  private final List<Request> requests = new ArrayList<>();
  private final Map<String, Answer> answers = new HashMap<>();
  private Answer tokenAnswer =
      new Answer(
          200,
          "{\"access_token\":\"" + TOKEN + "\",\"token_type\":\"bearer\",\"expires_in\":3600}");

  private FakeServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeServer start() throws IOException {
    return new FakeServer();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * Answers {@code method MANAGEMENT+path} (raw, percent-encoded path) with a status and body; a
   * path with {@code ?query} answers only that query, before the answer for the bare path.
   */
  FakeServer answer(String method, String path, int status, String body) {
    synchronized (this) {
      answers.put(method + " " + MANAGEMENT + path, new Answer(status, body));
    }
    return this;
  }

  FakeServer answerToken(int status, String body) {
    synchronized (this) {
      tokenAnswer = new Answer(status, body);
    }
    return this;
  }

  synchronized List<Request> tokenRequests() {
    return requests.stream().filter(r -> r.path().equals(TOKEN_PATH)).toList();
  }

  /** Management calls, in order, with the management prefix stripped from their paths. */
  synchronized List<Request> calls() {
    return requests.stream()
        .filter(r -> r.path().startsWith(MANAGEMENT))
        .map(
            r ->
                new Request(
                    r.method(),
                    r.path().substring(MANAGEMENT.length()),
                    r.authorization(),
                    r.contentType(),
                    r.body(),
                    r.query()))
        .toList();
  }

  /** The one management call made. */
  Request onlyCall() {
    List<Request> calls = calls();
    if (calls.size() != 1) {
      throw new AssertionError("expected one management call, got " + calls);
    }
    return calls.get(0);
  }

  static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + text, e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = exchange.getRequestURI().getRawPath();
    String method = exchange.getRequestMethod();
    String query = exchange.getRequestURI().getRawQuery();
    Answer answer;
    synchronized (this) {
      requests.add(
          new Request(
              method,
              path,
              exchange.getRequestHeaders().getFirst("Authorization"),
              exchange.getRequestHeaders().getFirst("Content-Type"),
              body,
              query));
      Answer forQuery = query == null ? null : answers.get(method + " " + path + "?" + query);
      answer =
          path.equals(TOKEN_PATH)
              ? tokenAnswer
              : forQuery != null
                  ? forQuery
                  : answers.getOrDefault(
                      method + " " + path,
                      new Answer(
                          404,
                          "{\"error\":{\"message\":\"no canned answer for "
                              + method
                              + " "
                              + path
                              + "\",\"type\":\"NotFoundException\",\"code\":404}}"));
    }
    byte[] bytes =
        answer.body() == null ? new byte[0] : answer.body().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 0) {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
    }
    exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
