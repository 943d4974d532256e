package dev.sluice.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.AuditedRequest;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.PageRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request's events wait for its answer and are stored with it; what comes after the answer, or
 * beyond the bound, is stored at once with the outcome unknown; the stream gets what was stored and
 * a failing stream stops nothing. Through a real H2 store.
 */
class RequestAuditTest {
  @TempDir Path dir;
  private JdbcStore store;
  private AuditLog log;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private static final AuditedRequest ORIGIN = AuditedRequest.from("192.0.2.1", "agent/1", null);

  @BeforeEach
  void open() {
    store =
        JdbcStore.open(
            new DatabaseConfig(
                "jdbc:h2:file:" + dir.resolve("store") + ";DB_CLOSE_ON_EXIT=FALSE",
                null,
                null,
                4,
                5000));
  }

  @AfterEach
  void close() {
    if (log != null) {
      log.close();
    }
    store.close();
  }

  private static AuditEvent event(String securable, boolean allowed) {
    return new AuditEvent(
        0,
        System.currentTimeMillis(),
        "alice",
        List.of("r"),
        "dropTable",
        "lake",
        securable,
        allowed,
        "req-1");
  }

  private List<AuditEvent> stored() {
    assertThat(log.flush()).isTrue();
    return store.access().events(AuditFilter.ALL, PageRequest.of(null, 1000)).items();
  }

  @Test
  void eventsWaitForTheAnswerAndCarryIt() {
    log = new AuditLog(store.access(), metrics);
    RequestAudit trail = log.begin("req-1", ORIGIN);
    trail.record(event("t1", true));
    trail.record(event("t2", false));
    assertThat(stored()).isEmpty();
    trail.answered(409, "CommitFailedException");
    List<AuditEvent> events = stored();
    assertThat(events).hasSize(2);
    assertThat(events)
        .allSatisfy(
            e ->
                assertThat(e.request())
                    .isEqualTo(
                        new AuditedRequest(
                            "192.0.2.1", "agent/1", 409, "CommitFailedException", null)));
    trail.answered(200, null); // a second answer changes nothing
    trail.record(event("late", true));
    AuditEvent late = stored().get(0);
    assertThat(late.securable()).isEqualTo("late");
    assertThat(late.request().status()).isEqualTo(409);
  }

  @Test
  void beyondTheBoundEventsAreStoredAtOnceWithTheOutcomeUnknown() {
    log = new AuditLog(store.access(), metrics);
    RequestAudit trail = log.begin("req-1", ORIGIN);
    for (int i = 0; i < RequestAudit.MAX_HELD + 5; i++) {
      trail.record(event("t" + i, false)); // denials: never merged
    }
    List<AuditEvent> early = stored();
    assertThat(early).hasSize(5);
    assertThat(early).allSatisfy(e -> assertThat(e.request()).isEqualTo(ORIGIN));
    trail.answered(200, null);
    assertThat(stored()).hasSize(RequestAudit.MAX_HELD + 5);
  }

  @Test
  void theStreamGetsWhatWasStoredAndAFailingStreamStopsNothing() throws Exception {
    Path file = dir.resolve("stream/audit.jsonl");
    log =
        new AuditLog(
            store.access(),
            metrics,
            AuditLog.CAPACITY,
            AuditLog.FLUSH_WAIT,
            AuditStream.file(file, "sluice://test:1"));
    RequestAudit trail = log.begin("req-1", ORIGIN);
    trail.record(event("t1", true));
    trail.answered(204, null);
    assertThat(stored()).hasSize(1);
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .contains("\"type\":\"dev.sluice.audit.decision\"")
        .contains("\"source\":\"sluice://test:1\"")
        .contains("\"securable\":\"t1\"")
        .contains("\"status\":204")
        .contains("\"clientAddress\":\"192.0.2.1\"");
    log.close();

    AuditStream broken =
        events -> {
          throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
        };
    log = new AuditLog(store.access(), metrics, AuditLog.CAPACITY, Duration.ofSeconds(2), broken);
    log.record(event("t2", false));
    assertThat(stored()).hasSize(2);
    assertThat(metrics.counter("sluice.audit.stream.failed").count()).isEqualTo(1);
  }

  @Test
  void theLogStreamWritesEachStoredEventAsALineOfTheAuditLoggerWithItsFields() {
    ch.qos.logback.classic.Logger audit =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("sluice.audit");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    audit.addAppender(lines);
    try {
      log =
          new AuditLog(
              store.access(), metrics, AuditLog.CAPACITY, AuditLog.FLUSH_WAIT, AuditStream.log());
      RequestAudit trail = log.begin("req-1", ORIGIN);
      trail.record(event("t1", true));
      trail.answered(404, "NoSuchTableException");
      assertThat(stored()).hasSize(1);
      assertThat(lines.list).hasSize(1);
      ch.qos.logback.classic.spi.ILoggingEvent line = lines.list.get(0);
      assertThat(line.getMessage()).isEqualTo("audit");
      java.util.Map<String, Object> fields = new java.util.HashMap<>();
      line.getKeyValuePairs().forEach(kv -> fields.put(kv.key, kv.value));
      assertThat(fields)
          .containsEntry("principal", "alice")
          .containsEntry("activatedRoles", "r")
          .containsEntry("action", "dropTable")
          .containsEntry("decision", "ALLOW")
          .containsEntry("status", 404)
          .containsEntry("errorType", "NoSuchTableException")
          .containsEntry("clientAddress", "192.0.2.1")
          .containsEntry("userAgent", "agent/1");
    } finally {
      audit.detachAppender(lines);
    }
  }
}
