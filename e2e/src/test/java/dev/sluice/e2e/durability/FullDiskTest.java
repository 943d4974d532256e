package dev.sluice.e2e.durability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.e2e.durability.AppendStorm.Result;
import dev.sluice.e2e.durability.HistoryChecker.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * A full disk under the embedded server (issue 33), on real file systems: two small tmpfs mounts,
 * one holding the H2 file, one the catalog's warehouse. Mid-storm each is filled to the last byte,
 * held full, then freed. While full, commits get 503 with {@code Retry-After} (or, for a commit
 * whose database COMMIT itself failed, 500 CommitStateUnknownException, never another 500), and
 * {@code /readyz} goes false while the H2 file cannot be written. Once space is back, commits are
 * acknowledged again without a restart. A {@code kill -9} and restart after the storm then shows
 * every acknowledged commit (the history checker throws on any loss, duplicate or fork).
 */
class FullDiskTest {
  private static final int WRITERS = 8;
  private static final Duration STORM = Duration.ofSeconds(26);
  private static final Duration HOLD_FULL = Duration.ofSeconds(3);
  private static final Duration HOLD_FULL_LONGEST = Duration.ofSeconds(9);
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static final TableIdentifier PROPS = TableIdentifier.of("f", "props");

  /** One fault: which file system, when it filled and when it was freed (nanoTime). */
  record Fault(String what, long filledNanos, long freedNanos) {}

  @Test
  void fullDiskUnderH2AndWarehouse_503sNot500s_recoversWithoutRestart_losesNothing()
      throws Exception {
    Path base = Files.createTempDirectory("sluice-fulldisk-");
    try (SmallFileSystem data = SmallFileSystem.mount(base.resolve("data"), 64);
        SmallFileSystem warehouse = SmallFileSystem.mount(base.resolve("warehouse"), 64);
        ReplicaCluster cluster =
            ReplicaCluster.startEmbedded("h2-full", data.root(), warehouse.root())) {
      List<TableIdentifier> tables = new ArrayList<>();
      try (RESTCatalog admin = cluster.client(0, "h2-full-admin")) {
        admin.createNamespace(Namespace.of("f"));
        for (int i = 0; i < 4; i++) {
          TableIdentifier id = TableIdentifier.of("f", "t" + i);
          admin.createTable(id, SCHEMA, PartitionSpec.unpartitioned());
          tables.add(id);
        }
        admin.createTable(PROPS, SCHEMA, PartitionSpec.unpartitioned());
      }
      // Appends write their manifests on the client, into the same warehouse: while it is full
      // they fail before sending anything. Property commits write only on the server.
      PropertyWriter props = new PropertyWriter(cluster.client(0, "h2-full-props"));
      Thread propsThread = new Thread(props, "property-writer");
      propsThread.setDaemon(true);
      propsThread.start();
      String readyz = cluster.replica(0).rootUrl() + "/readyz";
      EndpointPoller probe = new EndpointPoller(readyz);

      List<Fault> faults = new ArrayList<>();
      Result result;
      try {
        result =
            new AppendStorm(
                    cluster, AppendStorm.roundRobin(WRITERS, 1, i -> tables.get(i % 4)), STORM)
                .run(
                    control -> {
                      WallClock.sleepUntil(control.startNanos() + Duration.ofSeconds(4).toNanos());
                      faults.add(holdFull("warehouse", warehouse, control));
                      WallClock.sleepUntil(control.startNanos() + Duration.ofSeconds(11).toNanos());
                      faults.add(holdFull("h2-file", data, control));
                    });
      } finally {
        probe.stop();
        props.stop();
        propsThread.join(10_000);
      }

      cluster.replica(0).kill();
      cluster.restart(0);
      Report report;
      try (RESTCatalog reader = cluster.client(0, "h2-full-check")) {
        report = HistoryChecker.check(result.operations(), AppendStorm.readStates(reader, tables));
      }

      Map<String, Long> statuses = new TreeMap<>();
      for (Path log : serverLogs(cluster)) {
        AccessLog.statuses(log).forEach((k, v) -> statuses.merge(k, v, Long::sum));
      }
      Map<String, Long> failures = result.failureKinds();
      List<String> recovery = new ArrayList<>();
      for (Fault f : faults) {
        recovery.add(
            String.format(
                Locale.ROOT,
                "%s: failed_while_full=%d first_ack_after_free_s=%.2f",
                f.what(),
                result.failedBetween(f.filledNanos(), f.freedNanos()),
                result.firstAckAfter(f.freedNanos())));
      }
      for (Fault f : faults) {
        recovery.add(
            String.format(
                Locale.ROOT,
                "%s property commits: failed_while_full=%s first_ok_after_free_s=%.2f",
                f.what(),
                props.failuresBetween(f.filledNanos(), f.freedNanos()),
                props.firstOkAfter(f.freedNanos())));
      }
      System.out.printf(
          Locale.ROOT,
          "DURABILITY full-disk %s statuses=%s client_failures=%s readyz=%s %s%n",
          report,
          statuses,
          failures,
          probe.summary(),
          String.join("; ", recovery));

      // The one 500 allowed is PgOutageTest's: a commit whose database COMMIT failed as the disk
      // filled, whose outcome is really unknown (500 CommitStateUnknownException, so the client
      // neither retries nor cleans up). Every other failure while full is a 503.
      assertThat(statuses.getOrDefault("500", 0L))
          .as("500s (only commits cut mid-COMMIT): %s", statuses)
          .isLessThanOrEqualTo(failures.getOrDefault("CommitStateUnknownException/500", 0L));
      assertThat(result.unexpected()).as("errors other than 503/unknown outcomes").isEmpty();
      Fault h2 = faults.get(1);
      assertThat(probe.sawNotReadyBetween(h2.filledNanos(), h2.freedNanos() + second()))
          .as("/readyz false while the H2 file could not be written: " + probe.summary())
          .isTrue();
      assertThat(probe.lastStatus()).as("/readyz at the end").isEqualTo(200);
      for (Fault f : faults) {
        assertThat(result.failedBetween(f.filledNanos(), f.freedNanos()))
            .as("commits that failed while the " + f.what() + " was full")
            .isPositive();
        assertThat(result.firstAckAfter(f.freedNanos()))
            .as("seconds from freeing the " + f.what() + " to the next acknowledged commit")
            .isBetween(0.0, 3.0);
      }
      for (Fault f : faults) {
        Map<String, Long> refused = props.failuresBetween(f.filledNanos(), f.freedNanos());
        assertThat(refused)
            .as("property commits while the " + f.what() + " was full, by what the client got")
            .allSatisfy((kind, n) -> assertThat(kind).endsWith("/503"));
        if (f.what().equals("warehouse")) {
          // Each needs a new metadata file in the warehouse, so some failed. With the H2 file
          // full, one may still succeed: H2 writes into free space inside its file, which needs
          // no room on the disk (the storm's appends, asserted above, are what must fail).
          assertThat(refused)
              .as("property commits refused while the warehouse was full")
              .isNotEmpty();
        }
        assertThat(props.firstOkAfter(f.freedNanos()))
            .as("seconds from freeing the " + f.what() + " to the next property commit")
            .isBetween(0.0, 3.0);
      }
      assertThat(props.failures()).as("property commits that failed otherwise").isEmpty();
      assertThat(statuses.getOrDefault("503", 0L)).as("503s answered").isPositive();
    } finally {
      dev.sluice.e2e.ProcessSupport.deleteRecursively(base);
    }
  }

  private static long second() {
    return Duration.ofSeconds(1).toNanos();
  }

  /** Fills {@code fs}, keeps it full for {@link #HOLD_FULL} (taking what gets freed), frees it. */
  /**
   * Fills {@code fs} and keeps it full for {@link #HOLD_FULL}, and on until an append has failed
   * (at most {@link #HOLD_FULL_LONGEST}): H2 writes into free space inside its file first, so how
   * long a full disk takes to bite depends on how much the file has, not on the clock.
   */
  private static Fault holdFull(String what, SmallFileSystem fs, AppendStorm.Control storm) {
    fs.fill();
    long filled = System.nanoTime();
    long until = filled + HOLD_FULL.toNanos();
    long latest = filled + HOLD_FULL_LONGEST.toNanos();
    while (System.nanoTime() < until
        || (storm.unknownSince(filled) == 0 && System.nanoTime() < latest)) {
      fs.fill();
      WallClock.sleepUntil(System.nanoTime() + Duration.ofMillis(100).toNanos());
    }
    fs.free();
    return new Fault(what, filled, System.nanoTime());
  }

  private static List<Path> serverLogs(ReplicaCluster cluster) throws IOException {
    Path dir = cluster.replica(0).logFile().getParent();
    try (var files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().startsWith("h2-full-r0")).toList();
    }
  }

  /**
   * Commits a property change to {@link #PROPS} every 100 ms, recording each attempt's times and
   * what the client got: a metadata file written by the server alone, then the pointer swap.
   */
  static final class PropertyWriter implements Runnable {
    private final RESTCatalog catalog;
    private final ConcurrentLinkedQueue<Object[]> attempts = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    PropertyWriter(RESTCatalog catalog) {
      this.catalog = catalog;
    }

    @Override
    public void run() {
      try (catalog) {
        org.apache.iceberg.Table table = catalog.loadTable(PROPS);
        for (int n = 0; !stop.get(); n++) {
          long start = System.nanoTime();
          String outcome;
          try {
            table.updateProperties().set("n", Integer.toString(n)).commit();
            outcome = "ok";
          } catch (org.apache.iceberg.exceptions.CommitStateUnknownException
              | org.apache.iceberg.exceptions.ServiceFailureException
              | org.apache.iceberg.exceptions.ServiceUnavailableException e) {
            outcome = AppendStorm.failureKind(e.getClass().getSimpleName() + ": " + e.getMessage());
            table.refresh();
          } catch (RuntimeException e) {
            failures.add(e.toString());
            outcome = "other";
          }
          attempts.add(new Object[] {start, System.nanoTime(), outcome});
          WallClock.sleepUntil(System.nanoTime() + Duration.ofMillis(100).toNanos());
        }
      } catch (IOException | RuntimeException e) {
        failures.add("property writer: " + e);
      }
    }

    void stop() {
      stop.set(true);
    }

    List<String> failures() {
      return List.copyOf(failures);
    }

    /** Failed attempts overlapping [from, to], by what the client got. */
    Map<String, Long> failuresBetween(long fromNanos, long toNanos) {
      Map<String, Long> by = new TreeMap<>();
      for (Object[] a : attempts) {
        if (!"ok".equals(a[2]) && (long) a[1] >= fromNanos && (long) a[0] <= toNanos) {
          by.merge((String) a[2], 1L, Long::sum);
        }
      }
      return by;
    }

    double firstOkAfter(long nanos) {
      return attempts.stream()
          .filter(a -> "ok".equals(a[2]) && (long) a[0] >= nanos)
          .mapToDouble(a -> ((long) a[1] - nanos) / 1e9)
          .min()
          .orElse(-1);
    }
  }
}
