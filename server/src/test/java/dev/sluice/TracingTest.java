package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.LogCapture;
import dev.sluice.testing.TestServer;
import dev.sluice.tracing.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * Tracing, with the SDK's in-memory exporter: a request is a server span named by its route, a
 * child of the caller's W3C {@code traceparent}, with its store queries and the catalog's
 * metadata-file writes as its child spans; its trace id is in its log lines and in its audit event;
 * a request without {@code traceparent} starts a trace of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TracingTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER_SPAN = "00f067aa0ba902b7";
  private static final String TABLE_ROUTE =
      "/api/catalog/v1/{prefix}/namespaces/{namespace}/tables/{table}";
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private TestServer server;
  private String catalog;

  @BeforeAll
  void start() throws Exception {
    server = TestServer.startTraced(Tracing.exportingTo(exporter, "test"));
    catalog = server.createCatalog("traced");
    HttpResponse<String> ns =
        server.send(
            "POST", "/api/catalog/v1/" + catalog + "/namespaces", "{\"namespace\": [\"ns\"]}");
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
  }

  @AfterAll
  void stop() throws Exception {
    server.close();
  }

  private static String traceparent(String trace) {
    return "00-" + trace + "-" + CALLER_SPAN + "-01";
  }

  /** The spans of {@code trace} once its server span has ended (it ends after the answer). */
  private List<SpanData> trace(String trace) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      List<SpanData> spans = new ArrayList<>();
      for (SpanData s : exporter.getFinishedSpanItems()) {
        if (s.getTraceId().equals(trace)) {
          spans.add(s);
        }
      }
      if (spans.stream().anyMatch(s -> s.getKind() == SpanKind.SERVER)
          || System.nanoTime() > deadline) {
        return spans;
      }
      Thread.sleep(20);
    }
  }

  private static SpanData only(List<SpanData> spans, Predicate<SpanData> which, String what) {
    List<SpanData> found = spans.stream().filter(which).toList();
    assertThat(found).as(what + " in " + spans).hasSize(1);
    return found.get(0);
  }

  @Test
  void aTableCreateIsAServerSpanOfTheCallersTraceWithItsQueriesAndMetadataWrite() throws Exception {
    String trace = UUID.randomUUID().toString().replace("-", "");
    String requestId = "traced-" + UUID.randomUUID();
    HttpResponse<String> created =
        server.sendAs(
            server.rootToken(),
            "POST",
            "/api/catalog/v1/" + catalog + "/namespaces/ns/tables",
            "{\"name\": \"t1\", \"schema\": {\"type\": \"struct\", \"fields\": ["
                + "{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}",
            Map.of("traceparent", traceparent(trace), "X-Request-ID", requestId));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);

    List<SpanData> spans = trace(trace);
    SpanData request =
        only(spans, s -> s.getKind() == SpanKind.SERVER, "the request's server span");
    assertThat(request.getName())
        .isEqualTo("POST /api/catalog/v1/{prefix}/namespaces/{namespace}/tables");
    assertThat(request.getParentSpanId()).as("the caller's span").isEqualTo(CALLER_SPAN);
    assertThat(request.getAttributes().get(AttributeKey.longKey("http.response.status_code")))
        .isEqualTo(200L);
    assertThat(request.getAttributes().get(AttributeKey.stringKey("http.route")))
        .isEqualTo("/api/catalog/v1/{prefix}/namespaces/{namespace}/tables");

    List<SpanData> queries =
        spans.stream()
            .filter(s -> s.getKind() == SpanKind.CLIENT && s.getName().startsWith("SELECT "))
            .toList();
    assertThat(queries).as("the store's queries").isNotEmpty();
    assertThat(spans)
        .as("an INSERT of the new table's pointer")
        .anySatisfy(s -> assertThat(s.getName()).isEqualTo("INSERT contents"));
    SpanData write =
        only(spans, s -> s.getName().equals("fileio write"), "the metadata file's write");
    assertThat(write.getAttributes().get(AttributeKey.stringKey("sluice.file.path")))
        .endsWith(".metadata.json");
    // Every span of the trace hangs off the request's span, directly or through another.
    for (SpanData s : spans) {
      if (s != request) {
        assertThat(ancestors(spans, s)).as(s.getName()).contains(request.getSpanId());
      }
    }
    assertThat(
            spans.stream()
                .filter(s -> s.getKind() == SpanKind.CLIENT)
                .allMatch(
                    s ->
                        s.getAttributes().get(AttributeKey.stringKey("db.system")) != null
                            || s.getName().startsWith("fileio ")))
        .isTrue();

    // The trace id is in the audit event of the create.
    JsonNode events =
        TestServer.json(server.send("GET", "/api/management/v1/events?pageSize=50", null).body())
            .get("events");
    boolean found = false;
    for (JsonNode e : events) {
      if (e.path("requestId").asText().equals(requestId)) {
        assertThat(e.get("traceId").asText()).isEqualTo(trace);
        found = true;
      }
    }
    assertThat(found).as("the create's audit event").isTrue();
  }

  @Test
  void aLoadsLogLinesCarryItsTraceIdAndARequestWithoutTraceparentStartsATrace() throws Exception {
    server.send(
        "POST",
        "/api/catalog/v1/" + catalog + "/namespaces/ns/tables",
        "{\"name\": \"t2\", \"schema\": {\"type\": \"struct\", \"fields\": ["
            + "{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}");
    String trace = UUID.randomUUID().toString().replace("-", "");
    Logger accessLog = (Logger) LoggerFactory.getLogger("sluice.access");
    Level level = accessLog.getLevel();
    accessLog.setLevel(Level.INFO); // WARN in logback-test.xml
    try (LogCapture logs = new LogCapture()) {
      HttpResponse<String> loaded =
          server.sendAs(
              server.rootToken(),
              "GET",
              "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/t2",
              null,
              Map.of("traceparent", traceparent(trace)));
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      SpanData load = only(trace(trace), s -> s.getKind() == SpanKind.SERVER, "the load");
      assertThat(load.getName()).isEqualTo("GET " + TABLE_ROUTE);
      // The access line is written after the answer (and its span) ends: wait for it.
      Predicate<ILoggingEvent> line =
          e ->
              e.getLoggerName().equals("sluice.access")
                  && trace.equals(e.getMDCPropertyMap().get("trace.id"));
      long until = System.nanoTime() + 5_000_000_000L;
      while (logs.events().stream().noneMatch(line) && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(logs.events()).as("the load's access line, with its trace id").anyMatch(line);
    } finally {
      accessLog.setLevel(level);
    }

    exporter.reset();
    HttpResponse<String> untraced =
        server.send("GET", "/api/catalog/v1/" + catalog + "/namespaces/ns/tables/t2", null);
    assertThat(untraced.statusCode()).isEqualTo(200);
    long deadline = System.nanoTime() + 5_000_000_000L;
    SpanData own = null;
    while (own == null && System.nanoTime() < deadline) {
      own =
          exporter.getFinishedSpanItems().stream()
              .filter(
                  s -> s.getKind() == SpanKind.SERVER && s.getName().equals("GET " + TABLE_ROUTE))
              .findFirst()
              .orElse(null);
      Thread.sleep(20);
    }
    assertThat(own).as("the untraced load's own span").isNotNull();
    assertThat(own.getParentSpanContext().isValid()).as("a root span").isFalse();
    assertThat(own.getTraceId()).isNotEqualTo(trace);
  }

  private static List<String> ancestors(List<SpanData> spans, SpanData span) {
    List<String> out = new ArrayList<>();
    SpanData at = span;
    while (at != null && at.getParentSpanContext().isValid()) {
      String parent = at.getParentSpanId();
      out.add(parent);
      at = spans.stream().filter(s -> s.getSpanId().equals(parent)).findFirst().orElse(null);
    }
    return out;
  }
}
