package dev.sluice.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.DatabaseConfig;
import dev.sluice.store.AuditEvent;
import dev.sluice.store.AuditFilter;
import dev.sluice.store.JdbcStore;
import dev.sluice.store.Page;
import dev.sluice.store.PageRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Coalescing of identical allowed decisions, in memory and through a real store. */
class AuditLogTest {
  @TempDir Path dir;

  private static AuditEvent event(long time, String principal, String securable, boolean allowed, String requestId) {
    return new AuditEvent(0, time, principal, List.of("r1"), "loadTable", "lake", securable, allowed, requestId);
  }

  @Test
  void identicalAllowedDecisionsBecomeOneCountedEvent() {
    List<AuditEvent> out = AuditLog.coalesce(List.of(
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
    List<AuditEvent> out = AuditLog.coalesce(List.of(
        event(10, "jane", "table a.t", false, "q1"),
        event(11, "jane", "table a.t", false, "q2"),
        event(12, "joe", "table a.t", true, "q3"),
        event(13, "jane", "table a.t", true, "q4"),
        new AuditEvent(0, 14, "jane", List.of("r2"), "loadTable", "lake", "table a.t", true, "q5")));
    assertThat(out).extracting(AuditEvent::requestId).containsExactly("q1", "q2", "q3", "q4", "q5");
    assertThat(out).allMatch(e -> e.count() == 1);
  }

  @Test
  void aBurstIsStoredWithItsFullCount() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("store") + ";DB_CLOSE_ON_EXIT=FALSE";
    try (JdbcStore store = JdbcStore.open(new DatabaseConfig(url, null, null, 4, 5000));
        AuditLog log = new AuditLog(store.access())) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        Thread writer = new Thread(() -> {
          for (int i = 0; i < 2_500; i++) {
            log.record(event(System.currentTimeMillis(), "jane", "table a.t", true, "q" + thread + "-" + i));
          }
        });
        writer.start();
        threads.add(writer);
      }
      log.record(event(System.currentTimeMillis(), "jane", "table a.t", false, "denied"));
      for (Thread t : threads) {
        t.join();
      }
      log.flush();
      List<AuditEvent> rows = new ArrayList<>();
      String token = null;
      do {
        Page<AuditEvent> page = store.access().events(AuditFilter.ALL, PageRequest.of(token, 1000));
        rows.addAll(page.items());
        token = page.nextToken();
      } while (token != null);
      long allowed = rows.stream().filter(AuditEvent::allowed).mapToLong(AuditEvent::count).sum();
      assertThat(allowed).isEqualTo(10_000);
      assertThat(rows).filteredOn(e -> !e.allowed()).singleElement()
          .satisfies(e -> assertThat(e.requestId()).isEqualTo("denied"));
      // Fewer rows than decisions: four threads outpace one writer, which then merges.
      assertThat(rows.size()).isLessThan(10_000);
    }
  }
}
