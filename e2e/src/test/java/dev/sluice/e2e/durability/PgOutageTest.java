package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stopped mid-storm and started again (issue 33), on a server of the test's own: two
 * replicas, eight writers. While it is down, requests get 503 within a bounded time, {@code
 * /healthz} answers 200 at once throughout (a liveness probe that followed the database would
 * restart every replica), and {@code /readyz} goes false. Once it is back, commits are acknowledged
 * again within two seconds and errors stop, without a restart; nothing acknowledged is lost.
 */
class PgOutageTest {
  private static final int WRITERS = 8;
  private static final int REPLICAS = 2;
  private static final Duration STORM = Duration.ofSeconds(22);
  private static final Duration OUTAGE = Duration.ofSeconds(6);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void postgresStoppedAndStarted_bounded503s_livenessUntouched_fastRecovery_nothingLost()
      throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.start();
        ReplicaCluster cluster = ReplicaCluster.startOn(pg.adminUrl(), "pg-outage", REPLICAS)) {
      List<TableIdentifier> tables = new ArrayList<>();
      try (RESTCatalog admin = cluster.client(0, "pg-outage-admin")) {
        admin.createNamespace(Namespace.of("o"));
        for (int i = 0; i < 4; i++) {
          TableIdentifier id = TableIdentifier.of("o", "t" + i);
          admin.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
          tables.add(id);
        }
      }
      List<EndpointPoller> liveness = new ArrayList<>();
      List<EndpointPoller> readiness = new ArrayList<>();
      for (ReplicaCluster.Replica r : cluster.replicas()) {
        liveness.add(new EndpointPoller(r.rootUrl() + "/healthz"));
        readiness.add(new EndpointPoller(r.rootUrl() + "/readyz"));
      }
      long[] down = new long[2];
      Result result;
      try {
        result =
            new AppendStorm(
                    cluster,
                    AppendStorm.roundRobin(WRITERS, REPLICAS, i -> tables.get(i % 4)),
                    STORM)
                .run(
                    control -> {
                      WallClock.sleepUntil(control.startNanos() + Duration.ofSeconds(5).toNanos());
                      try {
                        pg.halt();
                        down[0] = System.nanoTime();
                        WallClock.sleepUntil(down[0] + OUTAGE.toNanos());
                        pg.resume();
                        down[1] = System.nanoTime();
                      } catch (IOException e) {
                        throw new UncheckedIOException(e);
                      }
                    });
      } finally {
        for (EndpointPoller p : liveness) {
          p.stop();
        }
        for (EndpointPoller p : readiness) {
          p.stop();
        }
      }

      Report report;
      try (RESTCatalog reader = cluster.client(0, "pg-outage-check")) {
        report = HistoryChecker.check(result.operations(), AppendStorm.readStates(reader, tables));
      }
      Map<String, Long> statuses = new TreeMap<>();
      Map<String, Long> slowest = new TreeMap<>();
      for (ReplicaCluster.Replica r : cluster.replicas()) {
        AccessLog.statuses(r.logFile()).forEach((k, v) -> statuses.merge(k, v, Long::sum));
        AccessLog.slowest(r.logFile()).forEach((k, v) -> slowest.merge(k, v, Math::max));
      }
      Map<String, Long> failures = result.failureKinds();
      double firstAck = result.firstAckAfter(down[1]);
      double lastError = lastFailureStartAfter(result, down[1]);
      System.out.printf(
          Locale.ROOT,
          "DURABILITY pg-outage %s outage_s=%.1f statuses=%s slowest_ms=%s client_failures=%s"
              + " healthz=%s healthz_slowest_ms=%s readyz=%s first_ack_after_up_s=%.2f"
              + " last_failed_start_after_up_s=%.2f readyz_ok_after_up_s=%s%n",
          report,
          (down[1] - down[0]) / 1e9,
          statuses,
          slowest,
          failures,
          liveness.stream().map(EndpointPoller::summary).toList(),
          liveness.stream().map(EndpointPoller::slowestMillis).toList(),
          readiness.stream().map(EndpointPoller::summary).toList(),
          firstAck,
          lastError,
          readiness.stream()
              .map(p -> String.format(Locale.ROOT, "%.2f", p.firstOkAfter(down[1])))
              .toList());

      assertThat(result.unexpected()).as("errors other than 503/unknown outcomes").isEmpty();
      assertThat(result.failedBetween(down[0], down[1]))
          .as("commits refused while down")
          .isPositive();
      // A commit whose COMMIT was cut by the stop is really unknown: 500 CommitStateUnknown. No
      // other 500.
      assertThat(failures.keySet())
          .as("what writers were told")
          .allSatisfy(
              k ->
                  assertThat(k)
                      .isIn(
                          "CommitStateUnknownException/503",
                          "CommitStateUnknownException/500",
                          "ServiceUnavailableException/503",
                          "RESTException"));
      assertThat(statuses.getOrDefault("500", 0L))
          .as("500s (only commits cut mid-COMMIT)")
          .isLessThanOrEqualTo(failures.getOrDefault("CommitStateUnknownException/500", 0L));
      assertThat(slowest.getOrDefault("503", 0L))
          .as("the slowest 503 (ms): the pool timeout and the outcome check at most")
          .isLessThanOrEqualTo(5_000);
      for (EndpointPoller p : liveness) {
        assertThat(p.byStatus().keySet()).as("/healthz statuses").containsOnly(200);
        assertThat(p.slowestMillis()).as("the slowest /healthz (ms)").isLessThan(1_000);
      }
      for (EndpointPoller p : readiness) {
        assertThat(p.sawNotReadyBetween(down[0], down[1])).as("/readyz false while down").isTrue();
        assertThat(p.firstOkAfter(down[1])).as("/readyz 200 again (s)").isBetween(0.0, 3.0);
      }
      assertThat(firstAck)
          .as("seconds from PostgreSQL up to the next acked commit")
          .isBetween(0.0, 2.0);
      assertThat(lastError)
          .as("seconds from PostgreSQL up to the start of the last commit that failed")
          .isLessThan(2.0);
    }
  }

  /** When, after {@code nanos}, the last failed attempt started (s); 0 if none did after it. */
  private static double lastFailureStartAfter(Result result, long nanos) {
    return result.attempts().stream()
        .filter(a -> a.operation().outcome() == Outcome.UNKNOWN && a.startNanos() >= nanos)
        .mapToDouble(a -> (a.startNanos() - nanos) / 1e9)
        .max()
        .orElse(0);
  }
}
