package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.HistoryChecker.Report;
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
 * Three replicas, each with a pool of up to 10 connections and a listener, on a PostgreSQL that
 * allows 20 connections in all (issue 33: the third replica exited at start-up). Under writers and
 * a flood of listings the pools ask for more connections than the server has; PostgreSQL refuses
 * some ("too many clients"), and the replicas live with the connections they got: all three start
 * and acknowledge commits, nothing acknowledged is lost, and no request gets a 500.
 */
class PgConnectionLimitTest {
  private static final int MAX_CONNECTIONS = 20;
  private static final int REPLICAS = 3;
  private static final int WRITERS = 6;
  private static final int FLOOD_PER_REPLICA = 16;
  private static final Duration STORM = Duration.ofSeconds(10);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void moreConnectionsWantedThanTheServerAllows_allReplicasServe_nothingLost_no500()
      throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.start(MAX_CONNECTIONS);
        ReplicaCluster cluster = ReplicaCluster.startOn(pg.adminUrl(), "pg-limit", REPLICAS)) {
      List<TableIdentifier> tables = new ArrayList<>();
      try (RESTCatalog admin = cluster.client(0, "pg-limit-admin")) {
        admin.createNamespace(Namespace.of("l"));
        for (int i = 0; i < 3; i++) {
          TableIdentifier id = TableIdentifier.of("l", "t" + i);
          admin.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
          tables.add(id);
        }
      }
      String v1 = "/api/catalog/v1/" + ReplicaCluster.CATALOG;
      List<String> paths =
          List.of(v1 + "/namespaces/l/tables", v1 + "/namespaces/l", v1 + "/namespaces");
      List<RequestFlood> floods = new ArrayList<>();
      Result result;
      try {
        for (ReplicaCluster.Replica r : cluster.replicas()) {
          floods.add(
              new RequestFlood(FLOOD_PER_REPLICA, r.rootUrl(), paths, cluster.fetchToken(r)));
        }
        result =
            new AppendStorm(
                    cluster,
                    AppendStorm.roundRobin(WRITERS, REPLICAS, i -> tables.get(i % 3)),
                    STORM)
                .run();
      } finally {
        for (RequestFlood f : floods) {
          f.stop();
        }
      }

      Report report;
      try (RESTCatalog reader = cluster.client(0, "pg-limit-check")) {
        report = HistoryChecker.check(result.operations(), AppendStorm.readStates(reader, tables));
      }
      Map<String, Long> statuses = new TreeMap<>();
      for (ReplicaCluster.Replica r : cluster.replicas()) {
        AccessLog.statuses(r.logFile()).forEach((k, v) -> statuses.merge(k, v, Long::sum));
      }
      Map<Integer, Long> flooded = new TreeMap<>();
      floods.forEach(f -> f.byStatus().forEach((k, v) -> flooded.merge(k, v, Long::sum)));
      long refusedByPostgres =
          pg.serverLog().lines().filter(l -> l.contains("too many clients")).count();
      Map<String, Long> ackedByReplica = AppendStorm.ackedByReplica(result);
      System.out.printf(
          Locale.ROOT,
          "DURABILITY pg-connection-limit %s max_connections=%d refused_by_postgres=%d"
              + " acked_by_replica=%s statuses=%s client_failures=%s flood=%s%n",
          report,
          MAX_CONNECTIONS,
          refusedByPostgres,
          ackedByReplica,
          statuses,
          result.failureKinds(),
          flooded);

      assertThat(refusedByPostgres)
          .as("connections PostgreSQL refused (else the limit was never reached)")
          .isPositive();
      assertThat(ackedByReplica).as("commits acknowledged per replica").hasSize(REPLICAS);
      assertThat(ackedByReplica.values()).allSatisfy(n -> assertThat(n).isPositive());
      assertThat(result.unexpected()).as("errors other than 503/unknown outcomes").isEmpty();
      assertThat(statuses.getOrDefault("500", 0L)).as("500s").isZero();
      assertThat(flooded.keySet()).as("what the flood was answered").isSubsetOf(200, 429, 503);
      for (ReplicaCluster.Replica r : cluster.replicas()) {
        assertThat(r.isAlive()).as("replica " + r + " still running").isTrue();
      }
    }
  }
}
