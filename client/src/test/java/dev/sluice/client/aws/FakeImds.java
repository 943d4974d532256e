package dev.sluice.client.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback instance metadata service (IMDSv2 shape) that would hand out the node's credentials,
 * counting every request. The SDK finds it through the {@code aws.ec2MetadataServiceEndpoint}
 * system property, so any fallback to the instance role shows up in {@link #calls()}.
 */
final class FakeImds implements AutoCloseable {
  static final String NODE_KEY = "ASIANODEROLE";
  private static final String ROLE = "node-role";
  private static final String CREDENTIALS = "/latest/meta-data/iam/security-credentials";
  private static final String EXTENDED = "/latest/meta-data/iam/security-credentials-extended";

  private final HttpServer server;
  private final AtomicInteger calls = new AtomicInteger();

  FakeImds() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  int calls() {
    return calls.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    calls.incrementAndGet();
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    if (method.equals("PUT") && path.equals("/latest/api/token")) {
      respond(exchange, 200, "imds-session-token");
    } else if (path.equals(CREDENTIALS + "/") || path.equals(EXTENDED + "/")) {
      respond(exchange, 200, ROLE);
    } else if (path.equals(CREDENTIALS + "/" + ROLE) || path.equals(EXTENDED + "/" + ROLE)) {
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      respond(
          exchange,
          200,
          "{\"Code\":\"Success\",\"LastUpdated\":\""
              + now
              + "\",\"Type\":\"AWS-HMAC\",\"AccessKeyId\":\""
              + NODE_KEY
              + "\",\"SecretAccessKey\":\"node-secret\",\"Token\":\"node-token\",\"Expiration\":\""
              + now.plusSeconds(3600)
              + "\"}");
    } else {
      respond(exchange, 404, "");
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
