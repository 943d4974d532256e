package dev.sluice.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.audit.RequestAudit;
import dev.sluice.auth.AuthenticatedPrincipal;
import dev.sluice.authz.Caller;
import dev.sluice.authz.Callers;
import dev.sluice.store.AuditedRequest;
import dev.sluice.store.IdempotencyClaim;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTUtil;

/** One request as routes see it: bound path parameters, query, headers, body and caller. */
public final class Exchange {
  private final String method;
  private final Map<String, String> rawPathParams;
  private final Map<String, String> query;
  private final Function<String, String> headers;
  private final byte[] body;
  private final String requestId;
  private AuthenticatedPrincipal principal;
  private InetAddress peerAddress;
  private RequestOrigin origin;
  private Caller caller;
  private String routeTemplate;
  private IdempotencyClaim idempotency;
  private RequestAudit trail;
  private String pageContext; // Paging's, made once: a listing opens one token and seals another

  Exchange(
      String method,
      Map<String, String> rawPathParams,
      String rawQuery,
      Function<String, String> headers,
      byte[] body,
      String requestId) {
    this.method = method;
    this.rawPathParams = rawPathParams;
    this.query = parseQuery(rawQuery);
    this.headers = headers;
    this.body = body;
    this.requestId = requestId;
  }

  public String method() {
    return method;
  }

  public String requestId() {
    return requestId;
  }

  public String header(String name) {
    return headers.apply(name);
  }

  public AuthenticatedPrincipal principal() {
    return principal;
  }

  void authenticatedAs(AuthenticatedPrincipal principal) {
    this.principal = principal;
  }

  /** The TCP peer's address (a proxy's, behind one), or null when the connection has none. */
  public InetAddress peerAddress() {
    return peerAddress;
  }

  /**
   * The scheme, host and client address as the client saw them: forwarded values only from a
   * trusted proxy ({@code server.trustedProxies}); the connection's own otherwise.
   */
  public RequestOrigin origin() {
    return origin;
  }

  /** The client's address: a trusted proxy's forwarded one, else the TCP peer's (or null). */
  public InetAddress clientAddress() {
    return origin == null ? peerAddress : origin.clientAddress();
  }

  void connectedFrom(InetAddress peerAddress, RequestOrigin origin) {
    this.peerAddress = peerAddress;
    this.origin = origin;
  }

  /**
   * The caller as {@code authz} sees it (roles held now, narrowed by the token), worked out once
   * per request.
   */
  public Caller caller(Callers callers) {
    if (caller == null) {
      caller =
          trail == null ? callers.caller(principal, requestId) : callers.caller(principal, trail);
    }
    return caller;
  }

  /** Where this request came from, and its trace (when traced), as its audit events record it. */
  public AuditedRequest auditOrigin() {
    InetAddress client = clientAddress();
    SpanContext trace = Span.current().getSpanContext();
    return AuditedRequest.from(
        client == null ? null : client.getHostAddress(),
        headers.apply("User-Agent"),
        trace.isValid() ? trace.getTraceId() : null);
  }

  /** The audit trail the caller's decisions are held in until the answer is known. */
  void audited(RequestAudit trail) {
    this.trail = Objects.requireNonNull(trail, "trail");
  }

  /** The request was answered with {@code reply}: its audit events go out with that outcome. */
  void answered(Reply reply) {
    if (trail != null) {
      trail.answered(reply.status(), reply.errorType());
    }
  }

  /** A path parameter, percent-decoded. */
  public String path(String name) {
    String raw = rawPathParams.get(name);
    if (raw == null) {
      throw new IllegalStateException("No path parameter " + name);
    }
    try {
      return RESTUtil.decodeString(raw);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid path parameter %s: bad percent-encoding", name);
    }
  }

  /** A namespace path parameter: levels separated by %1F, each percent-decoded. */
  public Namespace namespace(String name) {
    String raw = rawPathParams.get(name);
    try {
      return RESTUtil.decodeNamespace(raw);
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid namespace in path: bad percent-encoding");
    }
  }

  /**
   * The request runs under {@code claim}: the catalog its routes resolve ({@link IcebergRequests})
   * records it with the change it makes. Set once, by {@link IdempotentMutations}.
   */
  void claims(IdempotencyClaim claim) {
    if (this.idempotency != null) {
      throw new IllegalStateException("This request already runs under an Idempotency-Key");
    }
    this.idempotency = Objects.requireNonNull(claim, "claim");
  }

  /** The {@code Idempotency-Key} claim the request runs under, if it has one. */
  Optional<IdempotencyClaim> idempotencyClaim() {
    return Optional.ofNullable(idempotency);
  }

  void routedBy(String template) {
    this.routeTemplate = template;
  }

  /** The template of the route serving this request ({@code /v1/{prefix}/…}), null if none. */
  String routeTemplate() {
    return routeTemplate;
  }

  /** The path parameters as sent (still percent-encoded). */
  Map<String, String> rawPathParams() {
    return rawPathParams;
  }

  /** The query parameters, decoded. */
  Map<String, String> queryParams() {
    return query;
  }

  public String query(String name) {
    return query.get(name);
  }

  public Integer queryInt(String name) {
    String value = query.get(name);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(value);
    } catch (NumberFormatException e) {
      throw new BadRequestException("Invalid %s: not an integer: %s", name, value);
    }
  }

  public byte[] body() {
    return body;
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** Parses the body as an Iceberg REST request; any parse or type error is a 400. */
  public <T> T icebergBody(Class<T> type) {
    return parse(type, true);
  }

  /**
   * Parses the body as an Iceberg REST request after {@code patch} has adjusted the JSON tree, for
   * fields the OpenAPI spec makes optional but Iceberg's parsers require.
   */
  public <T> T icebergBody(Class<T> type, Consumer<ObjectNode> patch) {
    JsonNode tree = parse(JsonNode.class, true);
    if (!(tree instanceof ObjectNode object)) {
      throw new BadRequestException("Invalid request: expected a JSON object");
    }
    patch.accept(object);
    return asBadRequest(() -> Json.iceberg().treeToValue(object, type));
  }

  /** Parses the body as plain JSON (management API). */
  public JsonNode jsonBody() {
    return parse(JsonNode.class, false);
  }

  private <T> T parse(Class<T> type, boolean iceberg) {
    if (body.length == 0) {
      throw new BadRequestException("Invalid request: empty body");
    }
    T value = asBadRequest(() -> (iceberg ? Json.iceberg() : Json.plain()).readValue(body, type));
    if (value == null) {
      throw new BadRequestException("Invalid request: body is null");
    }
    return value;
  }

  @FunctionalInterface
  private interface Parse<T> {
    T run() throws IOException;
  }

  /** Any failure to read or bind the body is the client's: a 400 naming what was wrong. */
  private static <T> T asBadRequest(Parse<T> parse) {
    try {
      return parse.run();
    } catch (JsonProcessingException e) {
      throw new BadRequestException("Invalid JSON body: %s", e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadRequestException("Cannot read request body");
    } catch (IllegalArgumentException
        | NullPointerException
        | IllegalStateException
        | UnsupportedOperationException
        | ClassCastException e) {
      // Iceberg's parsers report wrong types and missing fields this way.
      throw new BadRequestException("Invalid request body: %s", String.valueOf(e.getMessage()));
    }
  }

  private static Map<String, String> parseQuery(String rawQuery) {
    Map<String, String> out = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(key, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new BadRequestException("Invalid query string: bad percent-encoding");
      }
    }
    return out;
  }

  static List<String> splitPath(String rawPath) {
    String trimmed = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
    if (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return List.of(trimmed.split("/", -1));
  }

  /** What this request's page tokens are bound to ({@link Paging}), made on first use. */
  String pageContext(java.util.function.Function<Exchange, String> make) {
    if (pageContext == null) {
      pageContext = make.apply(this);
    }
    return pageContext;
  }
}
