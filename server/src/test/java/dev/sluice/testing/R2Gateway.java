package dev.sluice.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loopback stand-in for Cloudflare R2 that accepts what R2 documents for temporary credentials,
 * so R2 vending can be tested without R2: path-style S3 requests whose session token is base64 of
 * {@code "jwt/" + JWT}, the JWT HS256-signed with the parent API key's secret, the request SigV4-
 * signed (checked with the AWS SDK's signer) by the parent access key id under the derived secret
 * (hex SHA-256 of the JWT). A request without a session token must be signed with the parent key
 * itself (R2 accepts an API token's S3 keys; the catalog's own I/O uses them) and is not scoped.
 * Allowed requests (see {@link R2TokenScope}) are re-issued to the Ceph RGW bed under the gateway's
 * own keys; everything else gets a 403 S3 error and is counted.
 */
public final class R2Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(R2Gateway.class);

  private final String accountId;
  private final String parentKeyId;
  private final R2TokenCheck tokens;
  private final R2SignatureCheck signatures;
  private final RgwForwarder upstream;
  private final HttpServer server;
  private final ExecutorService executor;
  private final String parentSecret;
  private final AtomicLong allowed = new AtomicLong();
  private final AtomicLong parentRequests = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final List<String> refusalLog = new ArrayList<>();
  private volatile boolean scopeEnforced = true;

  private R2Gateway(
      String accountId, String parentKeyId, String parentSecret, RgwForwarder upstream, Clock clock)
      throws IOException {
    this.accountId = requireNonNull(accountId, "accountId");
    this.parentKeyId = requireNonNull(parentKeyId, "parentKeyId");
    this.parentSecret = requireNonNull(parentSecret, "parentSecret");
    this.tokens = new R2TokenCheck(accountId, parentKeyId, parentSecret, clock);
    this.signatures = new R2SignatureCheck(clock);
    this.upstream = requireNonNull(upstream, "upstream");
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    this.executor = Executors.newFixedThreadPool(16);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * A gateway on 127.0.0.1 (a free port) for R2 account {@code accountId} whose parent API key is
   * {@code parentKeyId}/{@code parentSecret}, forwarding to {@code rgw} with its admin keys.
   */
  public static R2Gateway start(
      String accountId, String parentKeyId, String parentSecret, CephRgw rgw) throws IOException {
    return new R2Gateway(
        accountId,
        parentKeyId,
        parentSecret,
        new RgwForwarder(rgw.endpoint(), rgw.region(), rgw.accessKey(), rgw.secretKey()),
        Clock.systemUTC());
  }

  /** {@code http://127.0.0.1:PORT}: the R2 endpoint clients use (path-style only). */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public String accountId() {
    return accountId;
  }

  public String parentKeyId() {
    return parentKeyId;
  }

  /**
   * While false, the gateway still verifies each token and signature but ignores the token's
   * bucket, prefixPaths and scope claims: a deliberately mis-scoped store (an S3-compatible
   * endpoint that takes R2 tokens without their claims), for the storage self-check's failing case.
   * Real R2 never does this.
   */
  public void setScopeEnforced(boolean enforced) {
    this.scopeEnforced = enforced;
  }

  /** Requests verified, allowed and forwarded upstream so far. */
  public long allowed() {
    return allowed.get();
  }

  /** Of the requests allowed, those signed with the parent key itself (no session token). */
  public long parentRequests() {
    return parentRequests.get();
  }

  /** Requests refused by the gateway so far (token, signature or scope). */
  public long refusals() {
    return refused.get();
  }

  /** One line per refusal: method, path, S3 code and reason (never a secret). */
  public List<String> refusalLog() {
    synchronized (refusalLog) {
      return List.copyOf(refusalLog);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      R2Request request =
          new R2Request(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawPath(),
              exchange.getRequestURI().getRawQuery(),
              exchange.getRequestHeaders(),
              exchange.getRequestBody().readAllBytes());
      RgwForwarder.Response response;
      try {
        response = upstream.forward(request, authorize(request));
      } catch (R2Refusal refusal) {
        refuse(exchange, request, refusal);
        return;
      } catch (IllegalArgumentException e) { // malformed percent-encoding, Host port, ...
        refuse(exchange, request, R2Refusal.badRequest("InvalidRequest", String.valueOf(e)));
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted forwarding upstream", e);
      }
      allowed.incrementAndGet();
      relay(exchange, request, response);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "R2 gateway failed on {} {}", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      throw e;
    }
  }

  /** Verifies token, signature and scope; returns the decoded body to forward. */
  private byte[] authorize(R2Request request) throws R2Refusal {
    String token = request.header("x-amz-security-token").orElse(null);
    if (token == null) {
      // The parent API key itself (R2 accepts it as plain S3 keys): what the catalog's own I/O
      // uses. It may do anything the gateway forwards.
      byte[] body = signatures.verify(request, parentKeyId, parentSecret, false);
      parentRequests.incrementAndGet();
      return body;
    }
    String host = request.header("host").orElse("");
    int colon = host.lastIndexOf(':');
    R2TokenCheck.Claims claims =
        tokens.verify(token, (colon < 0 ? host : host.substring(0, colon)).toLowerCase());
    byte[] body = signatures.verify(request, parentKeyId, claims.derivedSecret(), true);
    if (scopeEnforced) {
      R2TokenScope.authorize(request, claims, body);
    }
    return body;
  }

  private void refuse(HttpExchange exchange, R2Request request, R2Refusal refusal)
      throws IOException {
    refused.incrementAndGet();
    String line =
        request.method()
            + " "
            + request.rawPath()
            + (request.rawQuery().isEmpty() ? "" : "?" + request.rawQuery())
            + " -> "
            + refusal.status()
            + " "
            + refusal.code()
            + ": "
            + refusal.getMessage();
    synchronized (refusalLog) {
      refusalLog.add(line);
    }
    LOG.info("R2 gateway refused {}", line);
    byte[] xml =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + refusal.code()
                + "</Code><Message>"
                + escape(refusal.getMessage())
                + "</Message><Resource>"
                + escape(request.rawPath())
                + "</Resource></Error>")
            .getBytes(UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    if (request.method().equals("HEAD")) {
      exchange.sendResponseHeaders(refusal.status(), -1);
      return;
    }
    exchange.sendResponseHeaders(refusal.status(), xml.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(xml);
    }
  }

  private static void relay(
      HttpExchange exchange, R2Request request, RgwForwarder.Response response) throws IOException {
    response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    int status = response.status();
    byte[] body = response.body();
    if (request.method().equals("HEAD") || status == 204 || status == 304 || body.length == 0) {
      // HEAD keeps the upstream Content-Length header; the others send no body.
      if (!request.method().equals("HEAD")) {
        exchange.getResponseHeaders().remove("content-length");
      }
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.getResponseHeaders().remove("content-length"); // set by sendResponseHeaders
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
