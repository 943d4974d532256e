package dev.sluice.client.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback STS answering {@code AssumeRoleWithWebIdentity} with the documented XML, throttling on
 * demand ({@code Sender}/{@code Throttling}, HTTP 400), counting calls and recording each request's
 * form parameters and whether it carried an Authorization header.
 */
final class FakeSts implements AutoCloseable {
  /** A recorded call. */
  record Call(Map<String, String> form, boolean signed) {}

  private final HttpServer server;
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger throttlesLeft = new AtomicInteger();
  private final List<Call> recorded = new ArrayList<>();
  private volatile Duration delay = Duration.ZERO;
  private volatile Duration lifetime = Duration.ofHours(1);

  FakeSts() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  int calls() {
    return calls.get();
  }

  synchronized List<Call> recorded() {
    return List.copyOf(recorded);
  }

  /** The next {@code n} calls are throttled (Integer.MAX_VALUE: all of them). */
  FakeSts throttleNext(int n) {
    throttlesLeft.set(n);
    return this;
  }

  /** Each successful answer waits this long (so concurrent callers pile up). */
  FakeSts delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /** Credentials handed out expire this long after the call (real time). */
  FakeSts lifetime(Duration lifetime) {
    this.lifetime = lifetime;
    return this;
  }

  private void handle(HttpExchange exchange) throws IOException {
    int n = calls.incrementAndGet();
    Map<String, String> form =
        parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    synchronized (this) {
      recorded.add(new Call(form, exchange.getRequestHeaders().containsKey("Authorization")));
    }
    if (throttlesLeft.getAndUpdate(t -> t == Integer.MAX_VALUE ? t : Math.max(0, t - 1)) > 0) {
      respond(
          exchange,
          400,
          "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
              + "<Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message>"
              + "</Error><RequestId>req-"
              + n
              + "</RequestId></ErrorResponse>");
      return;
    }
    try {
      Thread.sleep(delay.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Instant expiration = Instant.now().plus(lifetime);
    respond(
        exchange,
        200,
        "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
            + "<AssumeRoleWithWebIdentityResult>"
            + "<SubjectFromWebIdentityToken>system:serviceaccount:ns:sa</SubjectFromWebIdentityToken>"
            + "<Audience>sts.amazonaws.com</Audience>"
            + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/r/s</Arn>"
            + "<AssumedRoleId>AROAEXAMPLE:s</AssumedRoleId></AssumedRoleUser>"
            + "<Credentials><SessionToken>session-"
            + n
            + "</SessionToken><SecretAccessKey>secret-"
            + n
            + "</SecretAccessKey><Expiration>"
            + expiration
            + "</Expiration><AccessKeyId>ASIAFAKE"
            + n
            + "</AccessKeyId></Credentials>"
            + "<Provider>arn:aws:iam::123456789012:oidc-provider/example</Provider>"
            + "</AssumeRoleWithWebIdentityResult>"
            + "<ResponseMetadata><RequestId>req-"
            + n
            + "</RequestId></ResponseMetadata>"
            + "</AssumeRoleWithWebIdentityResponse>");
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> parse(String body) {
    Map<String, String> form = new HashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
