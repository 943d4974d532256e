package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.AppendStorm.Attempt;
import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.AppendStorm.WriterSpec;
import dev.sluice.e2e.durability.HistoryChecker.Operation;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.Report;
import dev.sluice.e2e.durability.HistoryChecker.TableState;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableCommit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * "No lost commit, no torn table": three Sluice replicas (separate OS processes) on one real
 * PostgreSQL, eight concurrent Iceberg writers spread round-robin over them, every append attempt
 * recorded with what its client was told, and the final tables checked against that record by
 * {@link HistoryChecker}. Also: commits/s with one replica serving versus three, a replica killed
 * with SIGKILL in the middle of a commit storm, and multi-table transactions watched by readers on
 * other replicas.
 *
 * <p>Needs {@code SLUICE_TEST_PG_URL} (set by {@code ./scripts/test-all.sh}); fails without it. The
 * replica kill runs last: it leaves the cluster with two replicas.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaDurabilityTest {
  private static final int REPLICAS = 3;
  private static final int WRITERS = 8;
  private static final Duration SCENARIO = Duration.ofSeconds(8);
  private static final Duration THROUGHPUT = Duration.ofSeconds(4);
  private static final Duration STORM = Duration.ofSeconds(6);
  private static final Duration TRANSACTIONS = Duration.ofSeconds(5);
  private static final Namespace NS = Namespace.of("dur");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** Every 409 reaches the writer: the client does not retry a refused commit by itself. */
  private static final Map<String, String> TABLE_PROPS = Map.of("commit.retry.num-retries", "0");

  private static ReplicaCluster cluster;
  private static RESTCatalog admin;

  @BeforeAll
  static void startCluster() {
    long t0 = System.nanoTime();
    cluster = ReplicaCluster.start("durability", REPLICAS);
    admin = cluster.client(0, "dur-admin");
    admin.createNamespace(NS);
    System.out.printf(
        Locale.ROOT,
        "DURABILITY setup replicas=%d started_in_s=%.1f database=%s%n",
        REPLICAS,
        secondsSince(t0),
        cluster.databaseUrl());
  }

  @AfterAll
  static void stopCluster() throws IOException {
    try {
      if (admin != null) {
        admin.close();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  @Test
  @Order(1)
  void scenarioA_allWritersOnOneSharedTable() throws InterruptedException {
    TableIdentifier shared = createTable("a_shared");

    Result result =
        new AppendStorm(cluster, AppendStorm.roundRobin(WRITERS, REPLICAS, i -> shared), SCENARIO)
            .run();
    Report report = check("A-shared-table", result, List.of(shared), 2);

    // Everyone raced for one table: some won, some were refused.
    assertThat(report.acked()).isPositive();
    assertThat(report.refused()).isPositive();
    assertThat(
            result.attempts().stream()
                .filter(x -> x.operation().outcome() != Outcome.UNKNOWN)
                .map(x -> x.operation().replica())
                .distinct())
        .as("replicas that answered commits")
        .hasSize(REPLICAS);
  }

  @Test
  @Order(2)
  void scenarioB_eachWriterItsOwnTable() throws InterruptedException {
    List<TableIdentifier> tables = createTables("b_own", WRITERS);

    Result result =
        new AppendStorm(cluster, AppendStorm.roundRobin(WRITERS, REPLICAS, tables::get), SCENARIO)
            .run();
    Report report = check("B-table-per-writer", result, tables, 1);

    // Nobody competes for a table: nothing may be refused, and every writer got appends in.
    assertThat(report.refused()).as("refused commits without contention").isZero();
    assertEveryWriterAcked(result);
  }

  /**
   * Scenario B (fresh tables each run) with all writers on replica 0 (the other replicas stay up,
   * idle), then spread over all three. On a small machine the clients and all replicas share the
   * same cores, so this shows whether replicas cost anything rather than how they scale.
   */
  @Test
  @Order(3)
  void throughput_oneReplicaVersusThree() throws InterruptedException {
    double[] perSecond = new double[2];
    int[] replicaCounts = {1, REPLICAS};
    for (int k = 0; k < 2; k++) {
      int replicas = replicaCounts[k];
      List<TableIdentifier> tables = createTables("tput" + replicas, WRITERS);
      Result result =
          new AppendStorm(
                  cluster, AppendStorm.roundRobin(WRITERS, replicas, tables::get), THROUGHPUT)
              .run();
      Report report =
          HistoryChecker.check(result.operations(), AppendStorm.readStates(admin, tables));
      assertThat(result.unexpected()).isEmpty();
      assertThat(result.unknown()).as("commits without a definite answer").isEmpty();
      assertThat(report.refused()).isZero();
      assertEveryWriterAcked(result);
      perSecond[k] = result.ackedPerSecond();
      System.out.printf(
          Locale.ROOT,
          "DURABILITY throughput scenario=B replicas=%d writers=%d seconds=%.1f acked=%d commits_per_s=%.1f%n",
          replicas,
          WRITERS,
          result.seconds(),
          report.acked(),
          perSecond[k]);
    }
    System.out.printf(
        Locale.ROOT,
        "DURABILITY throughput scenario=B writers=%d 1_replica_commits_per_s=%.1f 3_replicas_commits_per_s=%.1f"
            + " ratio=%.2f (%d cores)%n",
        WRITERS,
        perSecond[0],
        perSecond[1],
        perSecond[1] / perSecond[0],
        Runtime.getRuntime().availableProcessors());
    assertThat(perSecond[0]).isPositive();
    assertThat(perSecond[1]).isPositive();
  }

  /**
   * One writer commits {@code batch=n} (n = 1, 2, ...) to tables A and B in one {@code POST
   * /transactions/commit} through replica 0, while readers on replicas 1 and 2 load A, then B.
   * Since both change in one transaction and B is read after A, a reader must always see {@code
   * batch(B) >= batch(A)}, a later read of A never goes back, and a refused transaction is never
   * seen. Two "noise" writers keep changing another property of A and of B (single-table commits
   * through replicas 1 and 2), so the transaction's compare-and-set really races: a server that
   * applied one table's swap and then lost the race on the other would show a torn state.
   */
  @Test
  @Order(4)
  void multiTableTransactions_areAtomicForReadersOnOtherReplicas() throws Exception {
    TableIdentifier a = TableIdentifier.of(NS, "tx_a");
    TableIdentifier b = TableIdentifier.of(NS, "tx_b");
    admin.createTable(a, SCHEMA, PartitionSpec.unpartitioned(), Map.of("batch", "0"));
    admin.createTable(b, SCHEMA, PartitionSpec.unpartitioned(), Map.of("batch", "0"));

    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    long deadline = System.nanoTime() + TRANSACTIONS.toNanos();
    // Readers and noise writers, each counting what it did; any exception of theirs fails the test
    // (Future.get below), and each must have done something.
    Map<String, Future<Long>> helpers = new LinkedHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(3 * (REPLICAS - 1));
    for (int r = 1; r < REPLICAS; r++) {
      int replica = r;
      for (int k = 0; k < 2; k++) {
        String name = "reader-r" + r + "-" + k;
        helpers.put(
            name,
            pool.submit(
                () -> {
                  long reads = 0;
                  try (RESTCatalog catalog = cluster.client(replica, "dur-" + name)) {
                    long lastA = 0;
                    while (System.nanoTime() < deadline) {
                      long batchA = batch(catalog.loadTable(a));
                      long batchB = batch(catalog.loadTable(b));
                      reads++;
                      seen.add(batchA);
                      seen.add(batchB);
                      if (batchB < batchA) {
                        violations.add(
                            name + ": loaded A then B and saw batch A=" + batchA + " B=" + batchB);
                      }
                      if (batchA < lastA) {
                        violations.add(
                            name + ": batch of A went back from " + lastA + " to " + batchA);
                      }
                      lastA = batchA;
                    }
                  }
                  return reads;
                }));
      }
      TableIdentifier noisy = r == 1 ? a : b;
      String name = "noise-" + noisy.name() + "-r" + r;
      helpers.put(
          name,
          pool.submit(
              () -> {
                long commits = 0;
                try (RESTCatalog catalog = cluster.client(replica, "dur-" + name)) {
                  Table table = catalog.loadTable(noisy);
                  while (System.nanoTime() < deadline) {
                    // retried on 409 by the client
                    table.updateProperties().set("noise", Long.toString(++commits)).commit();
                  }
                }
                return commits;
              }));
    }
    pool.shutdown();

    long lastAcked = 0;
    long acked = 0;
    List<Long> refused = new ArrayList<>();
    List<Long> unknown = new ArrayList<>();
    try (RESTCatalog writer = cluster.client(0, "dur-tx-writer")) {
      TableMetadata baseA = ((BaseTable) writer.loadTable(a)).operations().current();
      TableMetadata baseB = ((BaseTable) writer.loadTable(b)).operations().current();
      for (long n = 1; System.nanoTime() < deadline; n++) {
        Map<String, String> props = Map.of("batch", Long.toString(n));
        // Requirements: each table's UUID only, so the server retries a lost race by itself.
        TableCommit commitA =
            TableCommit.create(
                a, baseA, TableMetadata.buildFrom(baseA).setProperties(props).build());
        TableCommit commitB =
            TableCommit.create(
                b, baseB, TableMetadata.buildFrom(baseB).setProperties(props).build());
        try {
          writer.commitTransaction(commitA, commitB);
          lastAcked = n;
          acked++;
        } catch (CommitFailedException e) {
          refused.add(n); // the server gave up after repeated lost races: neither table may change
        } catch (RuntimeException e) {
          unknown.add(n);
          errors.add("transaction " + n + ": " + e);
        }
      }
    }
    Map<String, Long> done = new LinkedHashMap<>();
    for (Map.Entry<String, Future<Long>> helper : helpers.entrySet()) {
      try {
        done.put(helper.getKey(), helper.getValue().get(30, TimeUnit.SECONDS));
      } catch (ExecutionException e) {
        throw new AssertionError(helper.getKey() + " failed: " + e.getCause(), e.getCause());
      }
    }
    long reads = 0;
    long noiseCommits = 0;
    for (Map.Entry<String, Long> e : done.entrySet()) {
      if (e.getKey().startsWith("reader")) {
        reads += e.getValue();
      } else {
        noiseCommits += e.getValue();
      }
    }

    long finalA = batch(admin.loadTable(a));
    long finalB = batch(admin.loadTable(b));
    System.out.printf(
        Locale.ROOT,
        "DURABILITY scenario=multi-table-tx replicas=%d writers=1 noise_writers=2 readers=4 seconds=%d acked=%d"
            + " refused=%d unknown=%d noise_commits=%d reads=%d violations=%d last_acked_batch=%d final_batch_a=%d"
            + " final_batch_b=%d%n",
        REPLICAS,
        TRANSACTIONS.toSeconds(),
        acked,
        refused.size(),
        unknown.size(),
        noiseCommits,
        reads,
        violations.size(),
        lastAcked,
        finalA,
        finalB);
    assertThat(violations).as("torn reads of a multi-table transaction").isEmpty();
    // (noneMatch, not doesNotContainAnyElementsOf: the refused list may be empty)
    assertThat(seen)
        .as("batch values seen by readers that belong to refused transactions")
        .noneMatch(refused::contains);
    assertThat(errors).as("transactions without a definite answer (healthy cluster)").isEmpty();
    assertThat(done)
        .as("loads (readers) and commits (noise writers) each did")
        .allSatisfy((name, count) -> assertThat(count).as(name).isPositive());
    assertThat(acked).isPositive();
    assertThat(finalA).as("final batch of A").isEqualTo(lastAcked);
    assertThat(finalB).as("final batch of B").isEqualTo(lastAcked);
  }

  /**
   * The storms above ran with every replica's pointer cache on: each served loads from it and heard
   * the others' commits through its change feed, which is up.
   */
  @Test
  @Order(5)
  void pointerCache_servedLoadsOnEveryReplica() {
    for (ReplicaCluster.Replica r : cluster.replicas()) {
      ReplicaMetrics m = ReplicaMetrics.of(r);
      System.out.printf(
          Locale.ROOT,
          "DURABILITY pointer-cache replica=%s hits=%d misses=%d bypasses=%d invalidations_received=%d%n",
          r.id(),
          m.count(ReplicaMetrics.CACHE_HITS),
          m.count(ReplicaMetrics.CACHE_MISSES),
          m.count(ReplicaMetrics.CACHE_BYPASSES),
          m.count(ReplicaMetrics.INVALIDATIONS_RECEIVED));
      assertThat(m.count(ReplicaMetrics.CACHE_HITS)).as("cache hits on %s", r.id()).isPositive();
      assertThat(m.count(ReplicaMetrics.INVALIDATIONS_RECEIVED)).isPositive();
      assertThat(m.value(ReplicaMetrics.LISTENER_HEALTHY)).isEqualTo(1.0);
    }
  }

  /**
   * SIGKILL one replica while commits are in flight through it: its writers' in-flight commits
   * become UNKNOWN and they fail over; the other replicas keep committing; afterwards every table
   * loads through every survivor, its metadata pointer names a complete metadata file, every table
   * still takes a commit, and the history checks out.
   */
  @Test
  @Order(6)
  void killOneReplicaMidStorm_noLostCommitNoTornTable() throws Exception {
    int victim = REPLICAS - 1;
    List<TableIdentifier> tables = createTables("kill", 4);
    List<WriterSpec> specs =
        AppendStorm.roundRobin(WRITERS, REPLICAS, i -> tables.get(i % tables.size()));
    long[] times = new long[3]; // storm start, kill sent, kill done (process gone)
    int[] inFlightAtKill = new int[1];

    Result result =
        new AppendStorm(cluster, specs, STORM)
            .run(
                control -> {
                  times[0] = control.startNanos();
                  // Kill a little before the middle, at a moment when a commit is in flight through
                  // the victim.
                  long killFrom = control.startNanos() + STORM.toNanos() * 2 / 5;
                  while (System.nanoTime() < killFrom || control.inFlight(victim) == 0) {
                    if (System.nanoTime() > killFrom + Duration.ofSeconds(2).toNanos()) {
                      break;
                    }
                    Thread.onSpinWait();
                  }
                  inFlightAtKill[0] = control.inFlight(victim);
                  times[1] = System.nanoTime();
                  cluster.replica(victim).kill();
                  times[2] = System.nanoTime();
                });
    assertThat(cluster.replica(victim).isAlive()).isFalse();
    String victimId = cluster.replica(victim).id();

    // Attempts through the victim that were in flight at the kill, or started after it: the
    // in-flight ones may have been answered just before the kill, the later ones must all fail.
    List<Attempt> viaVictimCut =
        result.attempts().stream()
            .filter(x -> x.operation().replica().equals(victimId) && x.endNanos() >= times[1])
            .toList();
    assertThat(viaVictimCut).as("commits through the victim at or after the kill").isNotEmpty();
    assertThat(viaVictimCut.stream().filter(x -> x.operation().outcome() == Outcome.UNKNOWN))
        .as("commits through the victim made UNKNOWN by the kill")
        .isNotEmpty();
    assertThat(viaVictimCut.stream().filter(x -> x.startNanos() > times[2]))
        .as("commits sent to the victim after its death")
        .allSatisfy(x -> assertThat(x.operation().outcome()).isEqualTo(Outcome.UNKNOWN));
    // The kill explains an unknown outcome only through the victim, from the kill on; any other is
    // a failure of a healthy replica (or of the victim before the kill).
    assertThat(result.unknown())
        .as("commits without a definite answer that the kill does not explain")
        .allSatisfy(
            x -> {
              assertThat(x.operation().replica()).isEqualTo(victimId);
              assertThat(x.endNanos()).isGreaterThanOrEqualTo(times[1]);
            });
    long survivorAckedAfterKill =
        result.attempts().stream()
            .filter(x -> !x.operation().replica().equals(victimId) && x.startNanos() > times[2])
            .filter(x -> x.operation().outcome() == Outcome.ACKED)
            .count();
    assertThat(survivorAckedAfterKill)
        .as("commits acknowledged by the survivors after the kill")
        .isPositive();

    // Every table loads through every survivor, and its pointer names a complete metadata file.
    List<Operation> operations = new ArrayList<>(result.operations());
    for (ReplicaCluster.Replica survivor : cluster.replicas()) {
      if (survivor.killed()) {
        continue;
      }
      try (RESTCatalog catalog =
          cluster.client(survivor.index(), "dur-after-kill-" + survivor.id())) {
        for (TableIdentifier id : tables) {
          Table table = catalog.loadTable(id);
          TableMetadata loaded = ((BaseTable) table).operations().current();
          String pointer = loaded.metadataFileLocation();
          assertThat(pointer).as("metadata-location of %s via %s", id, survivor.id()).isNotBlank();
          TableMetadata onDisk = TableMetadataParser.read(table.io(), pointer);
          assertThat(onDisk.currentSnapshot()).isNotNull();
          assertThat(onDisk.currentSnapshot().snapshotId())
              .isEqualTo(loaded.currentSnapshot().snapshotId());
          assertThat(onDisk.snapshots()).hasSameSizeAs(loaded.snapshots());
          // Still writable: no lock or half-done commit left behind by the dead replica.
          String file = table.location() + "/data/after-kill-" + survivor.id() + ".parquet";
          table
              .newAppend()
              .appendFile(
                  DataFiles.builder(PartitionSpec.unpartitioned())
                      .withPath(file)
                      .withFileSizeInBytes(10)
                      .withRecordCount(1)
                      .build())
              .commit();
          operations.add(
              new Operation("after-kill", survivor.id(), id.toString(), file, Outcome.ACKED));
        }
      }
    }
    Report report = HistoryChecker.check(operations, AppendStorm.readStates(admin, tables));
    printScenario("kill-one-replica", result, report);
    System.out.printf(
        Locale.ROOT,
        "DURABILITY kill victim=%s killed_at_s=%.2f in_flight_at_kill=%d victim_attempts_cut=%d"
            + " survivors_acked_after_kill=%d unknown_applied=%d%n",
        victimId,
        (times[1] - times[0]) / 1e9,
        inFlightAtKill[0],
        viaVictimCut.size(),
        survivorAckedAfterKill,
        report.unknownApplied());
    assertThat(result.unexpected())
        .as("unexpected errors (not 409, not an unknown outcome)")
        .isEmpty();
  }

  // --- helpers ---

  private static Report check(
      String scenario, Result result, List<TableIdentifier> tables, int readVia) {
    RESTCatalog reader = cluster.client(readVia, "dur-check-" + scenario);
    Report report;
    try {
      List<TableState> states = AppendStorm.readStates(reader, tables);
      report = HistoryChecker.check(result.operations(), states);
    } finally {
      try {
        reader.close();
      } catch (IOException ignored) {
        // best effort
      }
    }
    printScenario(scenario, result, report);
    assertThat(result.unexpected())
        .as("unexpected errors (not 409, not an unknown outcome)")
        .isEmpty();
    // No fault here: a timeout, 5xx or transport error is a failure of a healthy replica.
    assertThat(result.unknown())
        .as("commits without a definite answer (healthy cluster)")
        .isEmpty();
    return report;
  }

  private static void assertEveryWriterAcked(Result result) {
    assertThat(result.writers())
        .as("writers without contention")
        .allSatisfy(
            w -> assertThat(w.acked()).as("appends acknowledged to %s", w.id()).isPositive());
  }

  private static void printScenario(String scenario, Result result, Report report) {
    System.out.printf(
        Locale.ROOT,
        "DURABILITY scenario=%s replicas=%d writers=%d seconds=%.1f acked=%d refused=%d unknown=%d"
            + " commits_per_s=%.1f snapshots=%d acked_by_replica=%s acked/attempted_by_writer=[%s]%n",
        scenario,
        REPLICAS,
        WRITERS,
        result.seconds(),
        report.acked(),
        report.refused(),
        report.unknown(),
        result.ackedPerSecond(),
        report.snapshots(),
        AppendStorm.ackedByReplica(result),
        result.byWriter());
  }

  private static TableIdentifier createTable(String name) {
    TableIdentifier id = TableIdentifier.of(NS, name);
    admin.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), TABLE_PROPS);
    return id;
  }

  private static List<TableIdentifier> createTables(String prefix, int count) {
    Set<TableIdentifier> ids = new LinkedHashSet<>();
    for (int i = 0; i < count; i++) {
      ids.add(createTable(prefix + "_" + i));
    }
    return List.copyOf(ids);
  }

  private static long batch(Table table) {
    return Long.parseLong(table.properties().getOrDefault("batch", "0"));
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
