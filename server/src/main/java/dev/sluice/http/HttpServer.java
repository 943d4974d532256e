package dev.sluice.http;

import static java.util.Objects.requireNonNull;

import dev.sluice.audit.AuditLog;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.auth.Authenticator;
import dev.sluice.config.ServerLimits;
import dev.sluice.tracing.Tracing;
import dev.sluice.vending.StorageBackends;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Jetty 12 with one handler: match a route, authenticate if the route needs it, run it, map any
 * exception to an Iceberg {@code ErrorResponse}, and log one structured line per request.
 */
public final class HttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpServer.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("sluice.access");

  private final Server server;
  private final ServerConnector connector;
  private final ServerConnector metricsConnector; // null: /metrics on the main connector
  private final List<Route> routes;
  private final Authenticator authenticator;
  private final int maxBodyBytes;
  private final Transport transport;
  private final ErrorMapper errors;
  private final BodyReader.Budget bodies;
  private final RequestLimiter limiter;

  /** The longest {@link #close} waits for requests in flight. */
  private static final long DRAIN_MS = 10_000;

  private volatile boolean stopping;
  private final AtomicInteger inFlight = new AtomicInteger(); // requests not answered yet
  private final RequestMetrics requestMetrics;
  private final AuditLog audit;
  private final Tracing tracing;

  // OpenTelemetry's semantic conventions for HTTP server spans.
  private static final AttributeKey<String> HTTP_METHOD =
      AttributeKey.stringKey("http.request.method");
  private static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
  private static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
  private static final AttributeKey<Long> HTTP_STATUS =
      AttributeKey.longKey("http.response.status_code");
  private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  public HttpServer(
      String host,
      int port,
      List<Route> routes,
      Authenticator authenticator,
      int maxBodyBytes,
      Transport transport,
      ServerLimits limits,
      StorageBackends backends,
      AuditLog audit,
      Tracing tracing,
      MeterRegistry metrics) {
    this.errors = new ErrorMapper(backends);
    this.audit = requireNonNull(audit, "audit");
    this.tracing = requireNonNull(tracing, "tracing");
    this.requestMetrics = new RequestMetrics(metrics);
    this.transport = requireNonNull(transport, "transport");
    this.routes = List.copyOf(requireNonNull(routes, "routes"));
    this.authenticator = requireNonNull(authenticator, "authenticator");
    this.maxBodyBytes = maxBodyBytes;
    requireNonNull(limits, "limits");
    this.bodies = new BodyReader.Budget(limits.inFlightBodyBytes());
    this.limiter =
        new RequestLimiter(
            limits.maxConcurrentRequests(),
            limits.maxConcurrentRequestsPerPrincipal(),
            limits.principalRequestsPerSecond(),
            limits.effectivePrincipalBurst());
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
    // A client that trickles a body slower than this is cut off (408) rather than held open.
    http.setMinRequestDataRate(limits.minRequestDataRate());
    http.setIdleTimeout(limits.idleTimeout().toMillis());
    HttpConfiguration plain = new HttpConfiguration(http); // before TLS customizes http
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
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    server.addConnector(connector);
    if (transport.metricsPort() == null) {
      this.metricsConnector = null;
    } else {
      this.metricsConnector = new ServerConnector(server, new HttpConnectionFactory(plain));
      metricsConnector.setHost(host);
      metricsConnector.setPort(transport.metricsPort());
      metricsConnector.setIdleTimeout(limits.idleTimeout().toMillis());
      server.addConnector(metricsConnector);
    }
    // Past this many open connections the server stops accepting (they wait in the backlog).
    server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
    // Stopping is close() below: no GracefulHandler, whose 503s to requests arriving while it
    // drained (typed InternalServerError) were the only answers a stopping server gave wrongly.
    server.setHandler(new Dispatch());
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

  /** The port that alone serves {@code /metrics}, or -1 when the main port serves it. */
  public int metricsPort() {
    return metricsConnector == null ? -1 : metricsConnector.getLocalPort();
  }

  /**
   * Which routes the connection {@code request} came in on answers: with a metrics port, that port
   * answers {@code /metrics} only and the main port everything else; without one, every route.
   * Decided once per request, not per route tried.
   */
  private Predicate<Route> servedOn(Request request) {
    if (metricsConnector == null) {
      return route -> true;
    }
    boolean onMetricsPort = request.getConnectionMetaData().getConnector() == metricsConnector;
    return route -> route.template().equals(HealthRoutes.METRICS) == onMetricsPort;
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

  /**
   * Stops serving, as an orchestrator's SIGTERM expects: readiness goes false and stays false; the
   * port closes at once, so new connections are refused (a client or load balancer moves on) rather
   * than answered 503; idle keep-alive connections close; requests in flight, and any that still
   * arrive on a connection already open, are handled and answered with {@code Connection: close};
   * after the last one (or {@value #DRAIN_MS} ms), Jetty stops.
   */
  @Override
  public void close() throws Exception {
    stopping = true;
    connector.shutdown(); // closes the accept channel and idle connections; not waited for
    if (metricsConnector != null) {
      metricsConnector.shutdown();
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
    while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    server.stop();
  }

  public void join() throws InterruptedException {
    server.join();
  }

  /**
   * One request on its way through {@link Dispatch}: what every answer to it needs (where to write
   * it, its id for the access line and the logs, when it began, the route it matched).
   */
  private record Call(
      Request request,
      Response response,
      Callback callback,
      String id,
      long start,
      Route route,
      Span span) {
    String method() {
      return request.getMethod();
    }

    String rawPath() {
      return request.getHttpURI().getPath();
    }

    Call on(Route matched) {
      span.updateName(request.getMethod() + " " + matched.template());
      span.setAttribute(HTTP_ROUTE, matched.template());
      return new Call(request, response, callback, id, start, matched, span);
    }

    /** The request's id and trace id in the log lines its thread writes now. */
    void logContext() {
      MDC.put("requestId", id);
      SpanContext context = span.getSpanContext();
      if (context.isValid()) {
        MDC.put("trace.id", context.getTraceId());
      }
    }
  }

  private final class Dispatch extends Handler.Abstract {
    /**
     * Matches the route and authenticates from the headers alone; then reads the body as it arrives
     * (no thread held, {@link BodyReader}) and handles the request once it is whole.
     */
    @Override
    public boolean handle(Request request, Response response, Callback original) {
      inFlight.incrementAndGet();
      Callback callback = Callback.from(original, inFlight::decrementAndGet);
      if (stopping) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
      }
      String requestId = request.getHeaders().get("X-Request-ID");
      if (requestId == null || requestId.length() > 128) {
        requestId = newRequestId();
      }
      Call call =
          new Call(
              request, response, callback, requestId, System.nanoTime(), null, startSpan(request));
      call.logContext();
      String rawPath = call.rawPath();
      AuthenticatedPrincipal principal = null;
      Map<String, String> params = null;
      try (Scope ignored = current(call.span())) {
        List<String> segments = Exchange.splitPath(rawPath == null ? "/" : rawPath);
        transport.requireClientCertificate(segments, request);
        boolean pathKnown = false;
        Predicate<Route> served = servedOn(request);
        for (Route route : routes) {
          if (served.test(route) && route.matches(segments)) {
            pathKnown = true;
            if (route.method().equals(call.method())) {
              call = call.on(route);
              params = route.bind(segments);
              break;
            }
          }
        }
        if (call.route() == null) {
          finishThenDrain(
              call,
              error(
                  pathKnown ? 405 : 404,
                  pathKnown ? "MethodNotAllowed" : "NotFound",
                  pathKnown
                      ? "Method " + call.method() + " is not allowed on " + rawPath
                      : "No route for " + rawPath));
          return true;
        }
        if (call.route().authenticated()) {
          // Before the body: a request without a valid token costs no body buffer.
          principal =
              authenticator.authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        }
      } catch (Throwable t) {
        finishThenDrain(call, failure(t, call));
        return true;
      } finally {
        MDC.clear();
      }
      Call matched = call;
      Map<String, String> bound = params;
      AuthenticatedPrincipal caller = principal;
      int limit = matched.route().maxBodyBytes();
      BodyReader.read(
          request,
          limit > 0 ? Math.min(limit, maxBodyBytes) : maxBodyBytes,
          bodies,
          new BodyReader.Outcome() {
            @Override
            public void body(byte[] body, long reserved) {
              try {
                process(matched, bound, caller, body);
              } finally {
                bodies.release(reserved);
              }
            }

            @Override
            public void tooLarge(String message) {
              finish(matched, error(413, "RequestEntityTooLarge", message));
            }

            @Override
            public void busy() {
              finishThenDrain(matched, busyReply("receiving too many request bodies at once"));
            }

            @Override
            public void failed(Throwable failure) {
              // The client stopped sending (idle timeout, too slow, gone): answer if it listens.
              int status =
                  failure instanceof org.eclipse.jetty.http.HttpException http
                      ? http.getCode()
                      : 400;
              finish(
                  matched,
                  error(
                      status,
                      "BadRequestException",
                      "The request body did not arrive: " + failure.getClass().getSimpleName()));
            }
          });
      return true;
    }

    /** Handles a request whose body has arrived, within the concurrency limits. */
    private void process(
        Call call, Map<String, String> params, AuthenticatedPrincipal principal, byte[] body) {
      try (Scope ignored = current(call.span())) {
        processInSpan(call, params, principal, body);
      }
    }

    private void processInSpan(
        Call call, Map<String, String> params, AuthenticatedPrincipal principal, byte[] body) {
      call.logContext();
      if (call.route().probe()) {
        Reply reply = route(call, params, principal, body);
        finish(call, reply);
        return;
      }
      if (!limiter.tryEnter()) {
        finish(call, busyReply("handling too many requests at once"));
        return;
      }
      String holder = null;
      Reply reply;
      try {
        if (principal != null) {
          MDC.put("principal", principal.name());
          if (principal.delegated()) {
            // A delegated token: the user is the principal, the engine that acted for it the actor.
            MDC.put("actor", principal.actor().name());
          }
          if (limiter.tryEnter(principal.name())) {
            holder = principal.name();
          }
        }
        if (principal != null && holder == null) {
          reply =
              busyReply(
                  "handling as many requests of principal "
                      + principal.name()
                      + " as one principal may have at once");
        } else if (principal != null && !limiter.withinRate(principal.name())) {
          reply =
              error(
                      429,
                      "TooManyRequestsException",
                      "Principal "
                          + principal.name()
                          + " makes more requests per second than server.limits allows; retry")
                  .withHeader("Retry-After", "1");
        } else {
          reply = route(call, params, principal, body);
        }
      } catch (Throwable t) {
        reply = failure(t, call);
      } finally {
        if (holder != null) {
          limiter.leave(holder);
        }
        limiter.leave();
      }
      finish(call, reply);
    }

    /**
     * Runs the route's handler on the request's exchange; never throws (a failure is its error
     * answer). The caller's audit events go out with the answer's outcome.
     */
    private Reply route(
        Call call, Map<String, String> params, AuthenticatedPrincipal principal, byte[] body) {
      Exchange exchange;
      try {
        exchange = exchange(call, params, principal, body);
      } catch (Throwable t) {
        return failure(t, call);
      }
      Reply reply;
      try {
        reply = call.route().handler().handle(exchange);
      } catch (Throwable t) {
        reply = failure(t, call);
      }
      exchange.answered(reply);
      return reply;
    }

    private Exchange exchange(
        Call call, Map<String, String> params, AuthenticatedPrincipal principal, byte[] body) {
      Request request = call.request();
      Exchange exchange =
          new Exchange(
              call.method(),
              params,
              request.getHttpURI().getQuery(),
              request.getHeaders()::get,
              body,
              call.id());
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
      if (principal != null) {
        exchange.authenticatedAs(principal);
      }
      exchange.routedBy(call.route().template());
      if (!call.route().probe()) {
        exchange.audited(audit.begin(call.id(), exchange.auditOrigin()));
      }
      return exchange;
    }

    /** The error answer for {@code t}, logged where it is the server's fault. */
    private Reply failure(Throwable t, Call call) {
      ErrorResponse error = errors.toResponse(t);
      String where = call.route() == null ? call.rawPath() : call.route().template();
      if (error.code() == 503) {
        // The cause's own message (e.g. the database's), which the client is not shown.
        LOG.warn("Request failed: {} {}: {}", call.method(), where, t.getMessage());
      } else if (error.code() >= 500) {
        LOG.error("Request failed: {} {}", call.method(), where, t);
      }
      Reply reply = new Reply(error.code(), error, true);
      // Every 503 is a condition that passes (an outage, a limit): say when to come back.
      return error.code() == 503 ? reply.withHeader("Retry-After", "1") : reply;
    }

    /**
     * {@link #finish}, for an answer given before the body was read (an error, 503): the rest of a
     * declared body is then read and dropped, boundedly, before the exchange ends, so a client
     * still sending reads the answer rather than a reset. No body declared (a GET), or one sent
     * chunked (which Jetty closes the connection over), needs nothing more.
     */
    private void finishThenDrain(Call call, Reply reply) {
      Request request = call.request();
      Callback callback = call.callback();
      if (request.getLength() > 0) {
        callback =
            Callback.from(
                () -> BodyReader.drain(request, maxBodyBytes, call.callback()::succeeded),
                call.callback()::failed);
      }
      write(call, callback, reply);
    }

    /** Writes {@code reply} and logs the request's one access line. */
    private void finish(Call call, Reply reply) {
      write(call, call.callback(), reply);
    }

    private void write(Call call, Callback callback, Reply reply) {
      call.logContext();
      try {
        ReplyWriter.write(call.request(), call.response(), callback, reply, call.id());
      } finally {
        endSpan(call.span(), reply);
        long nanos = System.nanoTime() - call.start();
        String template = call.route() == null ? null : call.route().template();
        requestMetrics.record(call.method(), template, reply.status(), nanos);
        LoggingEventBuilder line =
            ACCESS
                .atInfo()
                .addKeyValue("method", call.method())
                .addKeyValue("route", template == null ? "-" : template)
                .addKeyValue("status", reply.status())
                .addKeyValue("durationMs", nanos / 1_000_000);
        IdempotentMutations.accessFields(call.request().getHeaders(), reply, line);
        line.log("request");
        MDC.clear();
      }
    }
  }

  /**
   * {@code span} made current, unless it records nothing (tracing off): making the invalid span
   * current twice per request was a thread-local write each, measurable on the cheapest requests.
   */
  private static Scope current(Span span) {
    return span.getSpanContext().isValid() ? span.makeCurrent() : Scope.noop();
  }

  /** The request's server span, a child of the caller's {@code traceparent} when it sent one. */
  private Span startSpan(Request request) {
    if (!tracing.enabled()) {
      return Span.getInvalid(); // records nothing; no header parsed
    }
    Context parent =
        tracing.propagator().extract(Context.root(), request.getHeaders(), JettyHeaders.INSTANCE);
    return tracing
        .tracer()
        .spanBuilder(request.getMethod())
        .setParent(parent)
        .setSpanKind(SpanKind.SERVER)
        .setAttribute(HTTP_METHOD, request.getMethod())
        .setAttribute(URL_PATH, String.valueOf(request.getHttpURI().getPath()))
        .startSpan();
  }

  private static void endSpan(Span span, Reply reply) {
    span.setAttribute(HTTP_STATUS, (long) reply.status());
    if (reply.status() >= 500) {
      span.setStatus(StatusCode.ERROR, String.valueOf(reply.errorType()));
    }
    String errorType = reply.errorType();
    if (errorType != null) {
      span.setAttribute(ERROR_TYPE, errorType);
    }
    span.end();
  }

  /** Reads W3C Trace Context from Jetty's request headers. */
  private enum JettyHeaders implements TextMapGetter<HttpFields> {
    INSTANCE;

    @Override
    public Iterable<String> keys(HttpFields carrier) {
      return carrier.getFieldNamesCollection();
    }

    @Override
    public String get(HttpFields carrier, String key) {
      return carrier == null ? null : carrier.get(key);
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

  /** 503 with {@code Retry-After}: the client should come back in a second. */
  static Reply busyReply(String what) {
    return error(503, "ServiceUnavailableException", "The server is busy (" + what + "); retry")
        .withHeader("Retry-After", "1");
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

    /**
     * A route without a token whose bodies are small by nature (the token endpoint's form): a
     * larger one is 413 after its bytes are dropped, so what anyone may make the server hold for it
     * stays small.
     */
    public Routes addPublic(String method, String template, RouteHandler handler, int maxBody) {
      routes.add(Route.of(method, template, false, handler, maxBody));
      return this;
    }

    /**
     * A public route for orchestrators and scrapers that answers at once: not counted against the
     * request limits, so it is reachable when every slot is taken.
     */
    public Routes addProbe(String method, String template, RouteHandler handler) {
      routes.add(Route.of(method, template, false, handler).asProbe());
      return this;
    }

    public List<Route> build() {
      return List.copyOf(routes);
    }
  }
}
