package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.HistoryChecker.Operation;
import dev.sluice.e2e.durability.HistoryChecker.Outcome;
import dev.sluice.e2e.durability.HistoryChecker.SnapshotRecord;
import dev.sluice.e2e.durability.HistoryChecker.TableState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * The storm catches a broken server: the real {@link AppendStorm} of {@link ReplicaDurabilityTest}
 * (writers racing on one shared table through several replicas) against replicas whose commits do
 * not compare-and-set their metadata pointer (the server's TEST-ONLY fault {@value
 * ReplicaCluster#BLIND_POINTER_SWAP}), and {@link HistoryChecker} must refuse the history it
 * leaves. The same storm against the real server passes ({@code
 * ReplicaDurabilityTest.scenarioA_allWritersOnOneSharedTable}).
 *
 * <p>Needs {@code SLUICE_TEST_PG_URL} and the server built with its test classes ({@code mvn -pl
 * client,server package -DskipTests}), which packages the fault hook apart from the server jar.
 */
class BrokenCompareAndSetStormTest {
  private static final int REPLICAS = 2;
  private static final int WRITERS = 6;
  private static final Duration STORM = Duration.ofSeconds(5);
  private static final Namespace NS = Namespace.of("broken");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  /** What a replica with the fault logs as it starts (server tests: FaultyServerMain). */
  private static final String FAULT_ON = "TEST FAULT " + ReplicaCluster.BLIND_POINTER_SWAP;

  @Test
  void aServerWithoutCompareAndSet_failsTheHistoryCheck() throws Exception {
    long t0 = System.nanoTime();
    try (ReplicaCluster cluster =
            ReplicaCluster.start("broken-cas", REPLICAS, ReplicaCluster.BLIND_POINTER_SWAP);
        RESTCatalog admin = cluster.client(0, "broken-admin")) {
      for (ReplicaCluster.Replica r : cluster.replicas()) {
        assertThat(Files.readString(r.logFile(), StandardCharsets.UTF_8))
            .as("%s runs with the fault on (its log)", r.id())
            .contains(FAULT_ON);
      }
      double startSeconds = (System.nanoTime() - t0) / 1e9;
      admin.createNamespace(NS);
      TableIdentifier shared = TableIdentifier.of(NS, "shared");
      admin.createTable(
          shared, SCHEMA, PartitionSpec.unpartitioned(), Map.of("commit.retry.num-retries", "0"));

      Result result =
          new AppendStorm(cluster, AppendStorm.roundRobin(WRITERS, REPLICAS, i -> shared), STORM)
              .run();
      List<TableState> states = AppendStorm.readStates(admin, List.of(shared));
      Throwable verdict = catchThrowable(() -> HistoryChecker.check(result.operations(), states));
      long lost = acknowledgedButAbsent(result.operations(), states);

      System.out.printf(
          Locale.ROOT,
          "DURABILITY scenario=broken-cas replicas=%d writers=%d started_in_s=%.1f seconds=%.1f"
              + " acked=%d refused=%d unknown=%d acked/attempted_by_writer=[%s]"
              + " acked_absent_from_final_metadata=%d checker=%s%n",
          REPLICAS,
          WRITERS,
          startSeconds,
          result.seconds(),
          result.count(Outcome.ACKED),
          result.count(Outcome.REFUSED),
          result.count(Outcome.UNKNOWN),
          result.byWriter(),
          lost,
          verdict == null ? "passed" : verdict.getMessage());
      // The storm itself ran as against a healthy server: every answer definite.
      assertThat(result.unexpected()).as("unexpected errors").isEmpty();
      assertThat(result.unknown()).as("commits without a definite answer").isEmpty();
      assertThat(verdict)
          .as("the history checker's verdict on a server without compare-and-set")
          .isInstanceOf(AssertionError.class)
          .message()
          .containsAnyOf("lost commit", "fork");
    }
  }

  /**
   * Acknowledged appends whose file is in no snapshot of the table's final metadata: a lower bound
   * of the commits the broken server lost (it counts none that only fell off the current chain).
   */
  private static long acknowledgedButAbsent(List<Operation> operations, List<TableState> states) {
    Set<String> present = new HashSet<>();
    for (TableState state : states) {
      for (SnapshotRecord s : state.snapshots()) {
        present.addAll(s.addedFiles());
      }
    }
    return operations.stream()
        .filter(op -> op.outcome() == Outcome.ACKED && !present.contains(op.file()))
        .count();
  }
}
