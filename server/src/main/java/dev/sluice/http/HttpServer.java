package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.auth.Authenticator;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Jetty 12 with one handler: match a route, authenticate if the route needs it, run it, map any
 * exception to an Iceberg {@code ErrorResponse}, and log one structured line per request.
 */
public final class HttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("sluice.access");

  private final Server server;
  private final ServerConnector connector;
  private final List<Route> routes;
  private final Authenticator authenticator;
  private final int maxBodyBytes;
  private final Transport transport;

  private static final byte[] NO_BODY = new byte[0];

  public HttpServer(
      String host, int port, List<Route> routes, Authenticator authenticator, int maxBodyBytes) {
    this(host, port, routes, authenticator, maxBodyBytes, Transport.PLAINTEXT);
  }

  public HttpServer(
      String host,
      int port,
      List<Route> routes,
      Authenticator authenticator,
      int maxBodyBytes,
      Transport transport) {
    this.transport = requireNonNull(transport, "transport");
    this.routes = List.copyOf(requireNonNull(routes, "routes"));
    this.authenticator = requireNonNull(authenticator, "authenticator");
    this.maxBodyBytes = maxBodyBytes;
    QueuedThreadPool pool = new QueuedThreadPool(200, 8);
    pool.setName("sluice-http");
    this.server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    // Iceberg percent-encodes names; an encoded '/' inside a table name is legal there.
    http.setUriCompliance(UriCompliance.UNSAFE);
    // Jetty caches repeated header lines per connection and matches each new line against that
    // cache byte by byte; a bearer token is ~400 bytes, and the match was 10 % of the CPU of a
    // table load (JFR). Parsing the headers afresh is cheaper.
    http.setHeaderCacheSize(0);
    if (transport.tls() == null) {
      this.connector = new ServerConnector(server, new HttpConnectionFactory(http));
    } else {
      // TLS in the server: the request carries its session (scheme https, client certificate).
      http.addCustomizer(new SecureRequestCustomizer());
      this.connector =
          new ServerConnector(
              server,
              new SslConnectionFactory(transport.tls().contextFactory(), "http/1.1"),
              new HttpConnectionFactory(http));
    }
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    // On stop, stop accepting and let in-flight requests finish (up to the stop timeout).
    server.setHandler(new GracefulHandler(new Dispatch()));
    // Requests Jetty refuses before routing (bad percent-escapes, oversize headers) get an
    // ErrorResponse too.
    server.setErrorHandler(new JettyErrors());
    server.setStopTimeout(10_000);
  }

  public void start() throws Exception {
    server.start();
  }

  public int port() {
    return connector.getLocalPort();
  }

  /**
   * The route table in dispatch order, as method, template and whether a bearer token is required:
   * what tests derive their coverage of every route from.
   */
  public List<RouteInfo> routes() {
    return routes.stream()
        .map(r -> new RouteInfo(r.method(), r.template(), r.authenticated()))
        .toList();
  }

  /** One route of {@link #routes()}. */
  public record RouteInfo(String method, String template, boolean authenticated) {}

  @Override
  public void close() throws Exception {
    server.stop();
  }

  public void join() throws InterruptedException {
    server.join();
  }

  private final class Dispatch extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      long start = System.nanoTime();
      String requestId = request.getHeaders().get("X-Request-ID");
      if (requestId == null || requestId.length() > 128) {
        requestId = newRequestId();
      }
      MDC.put("requestId", requestId);
      String method = request.getMethod();
      String rawPath = request.getHttpURI().getPath();
      Route matched = null;
      Exchange exchange = null;
      Reply reply;
      try {
        List<String> segments = Exchange.splitPath(rawPath == null ? "/" : rawPath);
        transport.requireClientCertificate(segments, request);
        Map<String, String> params = null;
        boolean pathKnown = false;
        for (Route route : routes) {
          if (route.matches(segments)) {
            pathKnown = true;
            if (route.method().equals(method)) {
              matched = route;
              params = route.bind(segments);
              break;
            }
          }
        }
        if (matched == null) {
          reply =
              error(
                  pathKnown ? 405 : 404,
                  pathKnown ? "MethodNotAllowed" : "NotFound",
                  pathKnown
                      ? "Method " + method + " is not allowed on " + rawPath
                      : "No route for " + rawPath);
        } else {
          exchange =
              new Exchange(
                  method,
                  params,
                  request.getHttpURI().getQuery(),
                  request.getHeaders()::get,
                  readBody(request),
                  requestId);
          InetAddress peer =
              request.getConnectionMetaData().getRemoteSocketAddress()
                      instanceof InetSocketAddress address
                  ? address.getAddress()
                  : null;
          exchange.connectedFrom(
              peer,
              RequestOrigin.resolve(
                  request.isSecure(),
                  request.getHeaders().get(HttpHeader.HOST),
                  peer,
                  request.getHeaders()::get,
                  transport.trustedProxies()));
          if (matched.authenticated()) {
            exchange.authenticatedAs(
                authenticator.authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION)));
            MDC.put("principal", exchange.principal().name());
          }
          reply = matched.handler().handle(exchange);
        }
      } catch (PayloadTooLarge e) {
        reply = error(413, "RequestEntityTooLarge", e.getMessage());
      } catch (Throwable t) {
        ErrorResponse error = ErrorMapper.toResponse(t);
        if (error.code() == 503) {
          // The cause's own message (e.g. the database's), which the client is not shown.
          LOG.warn(
              "Request failed: {} {}: {}",
              method,
              matched == null ? rawPath : matched.template(),
              t.getMessage());
        } else if (error.code() >= 500) {
          LOG.error(
              "Request failed: {} {}", method, matched == null ? rawPath : matched.template(), t);
        }
        reply = new Reply(error.code(), error, true);
      }
      int status = reply.status();
      try {
        write(request, response, callback, reply, requestId);
      } finally {
        ACCESS
            .atInfo()
            .addKeyValue("method", method)
            .addKeyValue("route", matched == null ? "-" : matched.template())
            .addKeyValue("status", status)
            .addKeyValue("durationMs", (System.nanoTime() - start) / 1_000_000)
            .log("request");
        MDC.clear();
      }
      return true;
    }

    private byte[] readBody(Request request) throws IOException {
      long length = request.getLength();
      if (length == 0) {
        return NO_BODY;
      }
      try (InputStream in = Content.Source.asInputStream(request)) {
        if (length > maxBodyBytes) {
          drain(in);
          throw new PayloadTooLarge(
              "Request body of " + length + " bytes exceeds the limit of " + maxBodyBytes);
        }
        if (length > 0) {
          // The length is known: read into an array of that size. readNBytes(int) would allocate
          // 8 KiB chunks and copy them, which was a fifth of all allocation under load (JFR).
          byte[] body = new byte[(int) length];
          int read = in.readNBytes(body, 0, body.length);
          return read == body.length ? body : Arrays.copyOf(body, read);
        }
        return readUnknownLength(in);
      }
    }

    /** A body without Content-Length (chunked, or none at all): grown as it arrives. */
    private byte[] readUnknownLength(InputStream in) throws IOException {
      byte[] buffer = new byte[256];
      int size = 0;
      int n;
      while ((n = in.read(buffer, size, buffer.length - size)) >= 0) {
        size += n;
        if (size > maxBodyBytes) {
          drain(in);
          throw new PayloadTooLarge("Request body exceeds the limit of " + maxBodyBytes + " bytes");
        }
        if (size == buffer.length) {
          buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, maxBodyBytes + 1));
        }
      }
      return size == 0 ? NO_BODY : Arrays.copyOf(buffer, size);
    }

    /**
     * Discards the rest of an oversized body (bounded), so the client reads the 413 instead of a
     * reset.
     */
    private void drain(InputStream in) throws IOException {
      long budget = 8L * maxBodyBytes;
      byte[] sink = new byte[64 * 1024];
      int n;
      while (budget > 0 && (n = in.read(sink)) > 0) {
        budget -= n;
      }
    }

    private void write(
        Request request, Response response, Callback callback, Reply reply, String requestId) {
      byte[] bytes = null;
      if (reply.body() != null) {
        try {
          bytes =
              reply.body() instanceof byte[] json
                  ? json
                  : reply.body() instanceof String text
                      ? text.getBytes(StandardCharsets.UTF_8)
                      : reply.body() instanceof ErrorResponse e
                          ? ErrorResponseParser.toJson(e).getBytes(StandardCharsets.UTF_8)
                          : (reply.iceberg() ? Json.iceberg() : Json.plain())
                              .writeValueAsBytes(reply.body());
        } catch (Exception e) {
          LOG.error("Cannot serialize response", e);
          ErrorResponse error = ErrorMapper.toResponse(e);
          bytes = ErrorResponseParser.toJson(error).getBytes(StandardCharsets.UTF_8);
          reply = new Reply(500, error, true);
        }
      }
      response.setStatus(reply.status());
      response.getHeaders().put("X-Request-ID", requestId);
      reply.headers().forEach(response.getHeaders()::put);
      if (reply.status() == 401) {
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
      }
      if (bytes == null || "HEAD".equals(request.getMethod())) {
        if (reply.status() != 304) {
          // A 304's Content-Length would have to be the full response's (RFC 9110 8.6): none.
          response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0L);
        }
        response.write(true, null, callback);
        return;
      }
      if (!reply.headers().containsKey("Content-Type")) {
        response
            .getHeaders()
            .put(
                HttpHeader.CONTENT_TYPE,
                reply.body() instanceof String
                    ? "text/plain; version=0.0.4; charset=utf-8"
                    : "application/json");
      }
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
      response.write(true, ByteBuffer.wrap(bytes), callback);
    }
  }

  /**
   * A random (version 4) UUID from a per-thread generator: a request id correlates log lines and
   * audit rows and guards nothing, so it need not come from {@code SecureRandom}, whose shared lock
   * every request would otherwise take.
   */
  static String newRequestId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  static Reply error(int status, String type, String message) {
    return new Reply(
        status,
        ErrorResponse.builder().responseCode(status).withType(type).withMessage(message).build(),
        true);
  }

  static final class PayloadTooLarge extends RuntimeException {
    PayloadTooLarge(String message) {
      super(message);
    }
  }

  /** Builds the route table in declaration order; the first match wins. */
  public static final class Routes {
    private final List<Route> routes = new ArrayList<>();

    public Routes add(String method, String template, RouteHandler handler) {
      routes.add(Route.of(method, template, true, handler));
      return this;
    }

    public Routes addPublic(String method, String template, RouteHandler handler) {
      routes.add(Route.of(method, template, false, handler));
      return this;
    }

    public List<Route> build() {
      return List.copyOf(routes);
    }
  }
}
