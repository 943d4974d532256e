package dev.sluice.bench;

import dev.sluice.bench.http.HttpClients;
import dev.sluice.bench.load.LoadRunner;
import dev.sluice.bench.load.QuietWait;
import dev.sluice.bench.load.ResourceProbe;
import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.scenario.PlanScans;
import dev.sluice.bench.scenario.PlanScans.Mode;
import dev.sluice.bench.scenario.PlanScans.Scope;
import dev.sluice.bench.scenario.PlanTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The plan phase (issue 40: server-side scan planning against client-side planning's load and
 * manifest reads): per target, one table of {@code --plan-snapshots} appends and {@code
 * --plan-files} data files, then Iceberg's own client plans a one-partition scan and a full scan of
 * it, once planning itself (reading the manifests from the warehouse) and once asking the server
 * ({@code scan-planning-mode=server}). Both run in every round, one after the other, their order
 * swapped each round, so that drifts of the machine fall on both; figures are ratios server ÷
 * client within the run.
 */
final class PlanPhase {
  /**
   * The targets it runs on, when the run has them: the FILE warehouse of process {@code sluice}
   * under RBAC. The store behind the pointer is not what planning spends on (sluice-pg would read
   * the same manifests), so one target keeps the phase short.
   */
  static final List<String> TARGETS = List.of("sluice-rbac");

  static {
    // Iceberg's client logs each poll of a submitted plan as a failed try, with a stack trace
    // (Tasks' retry loop); the phase prints one line per run. Set before Tasks is first loaded:
    // nothing earlier in the bench uses Iceberg's client.
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.iceberg.util.Tasks", "error");
  }

  private final BenchOptions options;

  PlanPhase(BenchOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The run's targets the phase measures, in its order. */
  static List<Target> targetsOf(List<Target> targets) {
    return targets.stream().filter(t -> TARGETS.contains(t.name())).toList();
  }

  List<RunResult> run(List<Target> targets, Map<String, String> descriptions)
      throws IOException, InterruptedException {
    PlanTable shape =
        new PlanTable(
            options.planSnapshots(), options.planFiles(), options.planIo().equals("hadoop"));
    List<Long> pids = targets.stream().map(Target::serverPid).distinct().toList();
    QuietWait quiet = new QuietWait(pids, options.settleSeconds(), 0.1);
    List<RunResult> results = new ArrayList<>();
    long t0 = System.nanoTime();
    for (Target target : targets) {
      PlanTable.Built built =
          shape.build(
              target.endpoint(), "plan_" + target.name().replace('-', '_'), options.historyBatch());
      System.out.printf(
          Locale.ROOT,
          "plan: %s built %s (%,d snapshots, %,d files) in %.1f s with %d commit requests%n",
          target.name(),
          built.table(),
          shape.snapshots(),
          shape.files(),
          built.seconds(),
          built.commitRequests());
      warmUp(target, built, shape);
      for (int clients : options.planClients()) {
        for (Scope scope : Scope.values()) {
          for (int round = 1; round <= options.rounds(); round++) {
            // Swapped each round: neither mode always runs on the other's warm page cache.
            List<Mode> order =
                round % 2 == 1
                    ? List.of(Mode.CLIENT, Mode.SERVER)
                    : List.of(Mode.SERVER, Mode.CLIENT);
            for (Mode mode : order) {
              double waited = quiet.await();
              if (waited >= 1) {
                System.out.printf("waited %.0f s for other processes to quiet down%n", waited);
              }
              RunResult result =
                  measure(
                      target,
                      built,
                      shape,
                      scope,
                      mode,
                      new LoadRunner(
                          clients, options.planWarmupSeconds(), options.planDurationSeconds()),
                      round,
                      PlanScans.nameFor(scope, mode, clients));
              results.add(result);
              System.out.println(Progress.line(result, "raw"));
            }
          }
          for (Mode mode : Mode.values()) {
            descriptions.put(
                PlanScans.nameFor(scope, mode, clients),
                description(shape, built, scope, mode, clients));
          }
        }
      }
    }
    System.out.printf(Locale.ROOT, "plan: phase took %.1f s%n", (System.nanoTime() - t0) / 1e9);
    return results;
  }

  /**
   * Each (scan, planning) once, unmeasured, from one client: the first plans compile both the
   * client's and the server's planning code.
   */
  private void warmUp(Target target, PlanTable.Built built, PlanTable shape)
      throws IOException, InterruptedException {
    if (options.planWarmupSeconds() <= 0) {
      return;
    }
    for (Scope scope : Scope.values()) {
      for (Mode mode : Mode.values()) {
        measure(
            target,
            built,
            shape,
            scope,
            mode,
            new LoadRunner(1, options.planWarmupSeconds(), 0),
            0,
            "plan-warmup");
      }
    }
  }

  private static RunResult measure(
      Target target,
      PlanTable.Built built,
      PlanTable shape,
      Scope scope,
      Mode mode,
      LoadRunner runner,
      int round,
      String name)
      throws IOException, InterruptedException {
    try (PlanScans workload = new PlanScans(target.endpoint(), built.table(), shape, mode, scope);
        HttpClients unused = target.endpoint().clients("raw")) {
      return runner.run(
          name, target.name(), round, workload, unused, new ResourceProbe(target.serverPid()));
    }
  }

  private static String description(
      PlanTable shape, PlanTable.Built built, Scope scope, Mode mode, int clients) {
    String scan =
        scope == Scope.PARTITION
            ? String.format(
                Locale.ROOT,
                "a scan filtered to one of %d day partitions (`day = %d`: %,d files)",
                shape.days(),
                shape.days() / 2,
                shape.filesInPartition())
            : String.format(Locale.ROOT, "a full scan (%,d files)", shape.files());
    String how =
        mode == Mode.CLIENT
            ? "client-side planning: `loadTable`, then Iceberg's client reads the manifests from"
                + " the warehouse itself"
            : "server-side planning (`scan-planning-mode=server`): `loadTable`, `POST …/plan`,"
                + " the plan's task pages (`POST …/tasks`) and `DELETE …/plan/{id}` when the"
                + " tasks are closed";
    return String.format(
        Locale.ROOT,
        "%d client(s), each planning %s of `%s` (%,d snapshots, %,d data files; built in %.1f s"
            + " with %d commit requests) with %s; every plan checked for its file count",
        clients,
        scan,
        built.table(),
        shape.snapshots(),
        shape.files(),
        built.seconds(),
        built.commitRequests(),
        how);
  }
}
