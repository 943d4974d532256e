package dev.sluice.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.store.AccessStore;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import dev.sluice.store.RowsRefused;
import dev.sluice.store.StoreUnavailable;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coalescing of identical allowed decisions, and a writer that never stops: oversized fields, a
 * refused event in a batch, a full queue, an outage; in memory and through a real H2 store.
 */
class AuditLogTest {
  @TempDir Path dir;
  private JdbcStore store;
  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

  @BeforeEach
  void open() {
    String url = "jdbc:h2:file:" + dir.resolve("store") + ";DB_CLOSE_ON_EXIT=FALSE";
    store = JdbcStore.open(new DatabaseConfig(url, null, null, 4, 5000));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static AuditEvent event(
      long time, String principal, String securable, boolean allowed, String requestId) {
    return new AuditEvent(
        0, time, principal, List.of("r1"), "loadTable", "lake", securable, allowed, requestId);
  }

  /**
   * The real access store, with {@code check} run on every batch before it is written (it may
   * throw).
   */
  private AccessStore wrapped(Consumer<List<AuditEvent>> check) {
    AccessStore real = store.access();
    return (AccessStore)
        Proxy.newProxyInstance(
            AccessStore.class.getClassLoader(),
            new Class<?>[] {AccessStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("appendEvents")) {
                @SuppressWarnings("unchecked")
                List<AuditEvent> rows = (List<AuditEvent>) args[0];
                check.accept(rows);
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private List<AuditEvent> stored() {
    List<AuditEvent> rows = new ArrayList<>();
    String token = null;
    do {
      Page<AuditEvent> page = store.access().events(AuditFilter.ALL, PageRequest.of(token, 1000));
      rows.addAll(page.items());
      token = page.nextToken();
    } while (token != null);
    return rows;
  }

  private double counter(String name) {
    return metrics.counter(name).count();
  }

  @Test
  void identicalAllowedDecisionsBecomeOneCountedEvent() {
    List<AuditEvent> out =
        AuditLog.coalesce(
            List.of(
                event(10, "jane", "table a.t", true, "q1"),
                event(11, "jane", "table a.u", true, "q2"),
                event(12, "jane", "table a.t", true, "q3"),
                event(15, "jane", "table a.t", true, "q4")));
    assertThat(out).hasSize(2);
    AuditEvent t = out.get(0);
    assertThat(t.securable()).isEqualTo("table a.t");
    assertThat(t.count()).isEqualTo(3);
    assertThat(t.time()).isEqualTo(10);
    assertThat(t.lastTime()).isEqualTo(15);
    assertThat(t.requestId()).isEqualTo("q1");
    assertThat(out.get(1).securable()).isEqualTo("table a.u");
    assertThat(out.get(1).count()).isEqualTo(1);
  }

  @Test
  void denialsAndDifferentCallersAreNeverMerged() {
    List<AuditEvent> out =
        AuditLog.coalesce(
            List.of(
                event(10, "jane", "table a.t", false, "q1"),
                event(11, "jane", "table a.t", false, "q2"),
                event(12, "joe", "table a.t", true, "q3"),
                event(13, "jane", "table a.t", true, "q4"),
                new AuditEvent(
                    0, 14, "jane", List.of("r2"), "loadTable", "lake", "table a.t", true, "q5")));
    assertThat(out).extracting(AuditEvent::requestId).containsExactly("q1", "q2", "q3", "q4", "q5");
    assertThat(out).allMatch(e -> e.count() == 1);
  }

  /** A call an engine made for jane is not jane's own call, nor another engine's. */
  @Test
  void decisionsOfDifferentActorsAreNeverMerged() {
    AuditEvent own = event(10, "jane", "table a.t", true, "q1");
    List<AuditEvent> out =
        AuditLog.coalesce(
            List.of(
                own,
                event(11, "jane", "table a.t", true, "q2").withActor("trino"),
                event(12, "jane", "table a.t", true, "q3").withActor("spark"),
                event(13, "jane", "table a.t", true, "q4").withActor("trino")));
    assertThat(out)
        .extracting(AuditEvent::requestId, AuditEvent::actor, AuditEvent::count)
        .containsExactly(tuple("q1", null, 1), tuple("q2", "trino", 2), tuple("q3", "spark", 1));
  }

  @Test
  void aBurstIsStoredWithItsFullCount() throws Exception {
    try (AuditLog log = new AuditLog(store.access(), metrics)) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        Thread writer =
            new Thread(
                () -> {
                  for (int i = 0; i < 2_500; i++) {
                    log.record(
                        event(
                            System.currentTimeMillis(),
                            "jane",
                            "table a.t",
                            true,
                            "q" + thread + "-" + i));
                  }
                });
        writer.start();
        threads.add(writer);
      }
      log.record(event(System.currentTimeMillis(), "jane", "table a.t", false, "denied"));
      for (Thread t : threads) {
        t.join();
      }
      assertThat(log.flush()).isTrue();
      List<AuditEvent> rows = stored();
      long allowed = rows.stream().filter(AuditEvent::allowed).mapToLong(AuditEvent::count).sum();
      assertThat(allowed).isEqualTo(10_000);
      assertThat(rows)
          .filteredOn(e -> !e.allowed())
          .singleElement()
          .satisfies(e -> assertThat(e.requestId()).isEqualTo("denied"));
      // Fewer rows than decisions: four threads outpace one writer, which then merges.
      assertThat(rows.size()).isLessThan(10_000);
      assertThat(counter("sluice.audit.dropped")).isZero();
    }
  }

  @Test
  void oversizedFieldsAreTruncatedWithAMarkerAndStored() {
    String catalog = "c".repeat(5_000);
    String securable = "table " + "s".repeat(10_000);
    try (AuditLog log = new AuditLog(store.access(), metrics)) {
      log.record(
          new AuditEvent(
                  0,
                  1,
                  "mal\u0000lory",
                  List.of("r".repeat(5_000)),
                  "getCatalog",
                  catalog,
                  securable,
                  true,
                  "q-long")
              .withActor("eng\u0001ine" + "e".repeat(1_000)));
      log.record(event(2, "jane", "table a.t", false, "q-next"));
      assertThat(log.flush()).isTrue();
    }
    List<AuditEvent> rows = stored();
    assertThat(rows).extracting(AuditEvent::requestId).containsExactly("q-next", "q-long");
    AuditEvent longOne = rows.get(1);
    assertThat(longOne.catalog())
        .hasSizeLessThanOrEqualTo(256)
        .startsWith("ccc")
        .endsWith("…[truncated " + (5_000 - longOne.catalog().indexOf('…')) + " chars]");
    assertThat(longOne.securable())
        .hasSizeLessThanOrEqualTo(4096)
        .startsWith("table sss")
        .endsWith(
            "…[truncated " + (securable.length() - longOne.securable().indexOf('…')) + " chars]");
    assertThat(String.join(",", longOne.roles()))
        .hasSizeLessThanOrEqualTo(4096)
        .contains("…[truncated ");
    assertThat(longOne.principal()).isEqualTo("mal\uFFFDlory");
    assertThat(longOne.actor())
        .hasSizeLessThanOrEqualTo(256)
        .startsWith("eng\uFFFDine")
        .contains("…[truncated ");
    assertThat(rows.get(0).actor()).isNull();
    assertThat(counter("sluice.audit.refused")).isZero();
  }

  @Test
  void aRefusedEventIsStoredInSafeFormAndTheRestOfItsBatchIsWritten() {
    // The database refuses any batch holding the poisoned event, as it would a value it cannot
    // store.
    AccessStore poisoned =
        wrapped(
            rows -> {
              if (rows.stream().anyMatch(e -> e.securable().startsWith("table a.poison"))) {
                throw new RowsRefused(
                    "refused", new java.sql.SQLException("value too long", "22001"));
              }
            });
    CountDownLatch gate = new CountDownLatch(1);
    AccessStore gated =
        (AccessStore)
            Proxy.newProxyInstance(
                AccessStore.class.getClassLoader(),
                new Class<?>[] {AccessStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("appendEvents")) {
                    gate.await(); // hold the writer so the whole burst is one batch
                  }
                  try {
                    return method.invoke(poisoned, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    try (AuditLog log = new AuditLog(gated, metrics)) {
      log.record(event(0, "first", "table a.first", false, "q-first"));
      for (int i = 0; i < 1_000; i++) {
        log.record(event(i, "jane", i == 500 ? "table a.poison" : "table a.t" + i, false, "q" + i));
      }
      gate.countDown();
      assertThat(log.flush()).isTrue();
    }
    List<AuditEvent> rows = stored();
    assertThat(rows).hasSize(1_001);
    assertThat(rows).filteredOn(e -> e.securable().startsWith("table a.t")).hasSize(999);
    AuditEvent safe =
        rows.stream().filter(e -> e.requestId().equals("q500")).findFirst().orElseThrow();
    assertThat(safe.securable())
        .startsWith("[stored in safe form: refused, SQLState 22001] table a.poison");
    assertThat(safe.principal()).isEqualTo("jane");
    assertThat(safe.allowed()).isFalse();
    assertThat(counter("sluice.audit.refused")).isEqualTo(1);
    assertThat(counter("sluice.audit.lost")).isZero();
  }

  @Test
  void anEventRefusedEvenInSafeFormIsGivenUpAndCountedWhileTheOthersAreWritten() {
    AccessStore refusesMallory =
        wrapped(
            rows -> {
              if (rows.stream().anyMatch(e -> e.principal().equals("mallory"))) {
                throw new IllegalStateException("refused");
              }
            });
    try (AuditLog log = new AuditLog(refusesMallory, metrics)) {
      log.record(event(1, "jane", "table a.t", false, "q1"));
      log.record(event(2, "mallory", "table a.t", false, "q2"));
      log.record(event(3, "joe", "table a.t", false, "q3"));
      assertThat(log.flush()).isTrue();
      log.record(event(4, "jane", "table a.t", false, "q4"));
      assertThat(log.flush()).isTrue();
    }
    assertThat(stored())
        .extracting(AuditEvent::requestId)
        .containsExactlyInAnyOrder("q1", "q3", "q4");
    assertThat(counter("sluice.audit.lost")).isEqualTo(1);
  }

  @Test
  void aFullQueueDropsAndCountsWithoutBlockingAndFlushWaitsBoundedly() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    AccessStore blocked =
        wrapped(
            rows -> {
              calls.incrementAndGet();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try (AuditLog log = new AuditLog(blocked, metrics, 10, Duration.ofMillis(300))) {
      log.record(event(0, "jane", "table a.t", false, "q-first"));
      long waitUntil = System.currentTimeMillis() + 5_000;
      while (calls.get() == 0 && System.currentTimeMillis() < waitUntil) {
        Thread.sleep(5); // the writer holds the first event and is blocked in the store
      }
      assertThat(calls.get()).isEqualTo(1);
      long started = System.nanoTime();
      for (int i = 1; i < 1_000; i++) {
        log.record(event(i, "jane", "table a.t" + i, false, "q" + i));
      }
      long recordMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertThat(recordMs).as("recording never waits for the store").isLessThan(1_000);
      assertThat(counter("sluice.audit.dropped")).isEqualTo(1_000 - 1 - 10);
      assertThat(metrics.get("sluice.audit.queue.depth").gauge().value()).isEqualTo(10);

      started = System.nanoTime();
      assertThat(log.flush()).as("the store is blocked: flush gives up").isFalse();
      long flushMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertThat(flushMs).isBetween(250L, 2_000L);

      release.countDown();
      assertThat(log.flush()).isTrue();
    }
    assertThat(stored()).hasSize(11);
  }

  @Test
  void anOutageKeepsEveryEventAndWritesEachOnceWhenTheDatabaseIsBack() {
    // A refused event splits its batch; the database then goes down for a while mid-split.
    AtomicInteger outages = new AtomicInteger(3);
    AtomicInteger refusals = new AtomicInteger();
    AccessStore flaky =
        wrapped(
            rows -> {
              if (rows.stream().anyMatch(e -> e.securable().startsWith("table a.poison"))) {
                refusals.incrementAndGet();
                throw new RowsRefused(
                    "refused", new java.sql.SQLException("value too long", "22001"));
              }
              if (refusals.get() > 0 && outages.getAndDecrement() > 0) {
                throw new StoreUnavailable(
                    "The catalog database is unavailable: connection refused");
              }
            });
    try (AuditLog log = new AuditLog(flaky, metrics, 1_000, Duration.ofSeconds(10))) {
      for (int i = 0; i < 100; i++) {
        log.record(event(i, "jane", i == 70 ? "table a.poison" : "table a.t" + i, false, "q" + i));
      }
      assertThat(log.flush()).isTrue();
    }
    List<AuditEvent> rows = stored();
    assertThat(rows).extracting(AuditEvent::requestId).doesNotHaveDuplicates().hasSize(100);
    assertThat(outages.get()).as("the outage happened").isNegative();
    assertThat(counter("sluice.audit.refused")).isEqualTo(1);
  }
}
