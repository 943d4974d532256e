package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.Report;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM of one of two replicas mid-storm (issue 33): its readiness goes false once and never
 * comes back, it answers no 503 (new requests meet a closed port and go to the other replica), its
 * requests in flight finish (at least one commit in flight at the signal is acknowledged after it),
 * and nothing acknowledged is lost.
 */
class SigtermTest {
  private static final int WRITERS = 8;
  private static final Duration STORM = Duration.ofSeconds(12);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void sigtermMidStorm_readinessFalseOnce_no503_nothingLost() throws Exception {
    try (ReplicaCluster cluster = ReplicaCluster.start("sigterm", 2)) {
      List<TableIdentifier> tables = new ArrayList<>();
      try (RESTCatalog admin = cluster.client(0, "sigterm-admin")) {
        admin.createNamespace(Namespace.of("s"));
        for (int i = 0; i < 4; i++) {
          TableIdentifier id = TableIdentifier.of("s", "t" + i);
          admin.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
          tables.add(id);
        }
      }
      ReplicaCluster.Replica victim = cluster.replica(1);
      EndpointPoller readiness = new EndpointPoller(victim.rootUrl() + "/readyz");
      long[] signalled = new long[1];
      long[] exitMs = new long[1];
      int[] inFlightAtSignal = new int[1];
      Result result;
      try {
        result =
            new AppendStorm(
                    cluster, AppendStorm.roundRobin(WRITERS, 2, i -> tables.get(i % 4)), STORM)
                .run(
                    control -> {
                      long at = control.startNanos() + STORM.toNanos() / 2;
                      while (System.nanoTime() < at || control.inFlight(1) == 0) {
                        if (System.nanoTime() > at + Duration.ofSeconds(2).toNanos()) {
                          break;
                        }
                        Thread.onSpinWait();
                      }
                      inFlightAtSignal[0] = control.inFlight(1);
                      signalled[0] = System.nanoTime();
                      exitMs[0] = victim.terminate();
                    });
      } finally {
        readiness.stop();
      }
      Report report;
      try (RESTCatalog reader = cluster.client(0, "sigterm-check")) {
        report = HistoryChecker.check(result.operations(), AppendStorm.readStates(reader, tables));
      }
      Map<String, Long> statuses = AccessLog.apiStatuses(victim.logFile());
      long ackedAfterSignalOnVictim =
          result.attempts().stream()
              .filter(
                  a ->
                      a.replica() == 1
                          && a.operation().outcome() == Outcome.ACKED
                          && a.endNanos() > signalled[0])
              .count();
      System.out.printf(
          Locale.ROOT,
          "DURABILITY sigterm %s in_flight_at_signal=%d acked_after_signal_on_victim=%d exit_ms=%d"
              + " victim_statuses=%s readyz_sequence=%s%n",
          report,
          inFlightAtSignal[0],
          ackedAfterSignalOnVictim,
          exitMs[0],
          statuses,
          readiness.transitions());

      assertThat(result.unexpected()).as("errors other than unknown outcomes").isEmpty();
      assertThat(statuses)
          .as("the stopped replica's answers (its /readyz says 503 STOPPING, as it should)")
          .doesNotContainKeys("500", "503");
      assertThat(readiness.transitions())
          .as("/readyz of the stopped replica: ready, then not, never ready again")
          .startsWith(200)
          .hasSizeLessThanOrEqualTo(2);
      // Commits already on their way to the stopped replica are served, not cut off: the old
      // server (Jetty's GracefulHandler) acknowledged none of the 4 in flight.
      assertThat(ackedAfterSignalOnVictim)
          .as("commits in flight at the signal (%d) acknowledged after it", inFlightAtSignal[0])
          .isPositive();
      assertThat(exitMs[0]).as("ms from SIGTERM to exit").isLessThan(12_000);
      assertThat(AppendStorm.ackedByReplica(result)).containsKeys("r0", "r1");
    }
  }
}
