package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import dev.sluice.bench.BenchOptions;
import dev.sluice.bench.scenario.PlanScans;
import dev.sluice.bench.scenario.PlanScans.Mode;
import dev.sluice.bench.scenario.PlanScans.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The plan phase (issue 40): Iceberg's client planning a one-partition scan and a full scan of one
 * table, on the client (reading the manifests itself) and on the server; each pair's figures and
 * their ratios server ÷ client, measured in the same run.
 */
final class PlanSection {
  private PlanSection() {}

  /** The targets the phase ran on, in order. */
  private static List<String> targets(List<Aggregate> aggregates) {
    return aggregates.stream()
        .filter(a -> PlanScans.isPlan(a.scenario()))
        .map(Aggregate::target)
        .distinct()
        .toList();
  }

  private static Optional<Aggregate> at(
      List<Aggregate> aggregates, Scope scope, Mode mode, int clients, String target) {
    return TargetsSection.find(aggregates, PlanScans.nameFor(scope, mode, clients), target);
  }

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    BenchOptions o = in.options();
    List<String> targets = targets(aggregates);
    if (targets.isEmpty()) {
      return;
    }
    md.append("## Scan planning: on the server vs on the client\n\n")
        .append("After the history phase, on the same server process. One table in `bench_plan`")
        .append(" of ")
        .append(count(o.planSnapshots()))
        .append(" fast appends (")
        .append(count(o.planFiles() / o.planSnapshots()))
        .append(" data files each, ")
        .append(count(o.planFiles()))
        .append(" in all, one manifest per append; partitioned by identity on `day`, the appends")
        .append(" of a day in its partition), built through Sluice with Iceberg's Java client,")
        .append(" then planned by the same client (Iceberg 1.11 `RESTCatalog`, one per planner,")
        .append(" as the run's RBAC principal). One plan = `loadTable` +")
        .append(" `newScan().filter(…).planFiles()` iterated to its last task and closed, its file")
        .append(" count checked. **client**: Iceberg's client reads the manifest list and the")
        .append(" manifests from the warehouse itself (FileIO ")
        .append(
            o.planIo().equals("hadoop")
                ? "HadoopFileIO, Iceberg's default for `file:` paths"
                : "on plain `java.io` files, as Sluice reads the FILE warehouse")
        .append("). **server**: `scan-planning-mode=server`; Sluice plans with iceberg-core and")
        .append(" the client fetches the plan and its task pages, then cancels it (Sluice's")
        .append(" `server.scanPlanning` defaults: a plan waits up to 2 s for its answer, then")
        .append(" answers `submitted` and Iceberg's client polls after 1 s, 2 s, 4 s …; 1,000")
        .append(" tasks per page). Closed loop, ")
        .append(fmt("%.0f", o.planWarmupSeconds()))
        .append(" s warm-up then ")
        .append(fmt("%.0f", o.planDurationSeconds()))
        .append(" s measured per run (plans that start in the window), ")
        .append(o.rounds())
        .append(" rounds, client and server alternating, their order swapped each round. Sluice")
        .append(" CPU = the server process's CPU in the windows ÷ plans; client CPU = the load")
        .append(" generator's (where client-side planning reads and decodes the manifests) ÷")
        .append(" plans. With few plans per window, CPU per plan is approximate (a plan running")
        .append(" across the window's edge counts in part).\n\n");
    for (String target : targets) {
      if (targets.size() > 1) {
        md.append("### ").append(target).append("\n\n");
      }
      md.append(
              "| Scan | clients | planning | plans | plans/s | p50 ms | p95 ms | max ms |"
                  + " Sluice CPU ms/plan | client CPU ms/plan |\n")
          .append("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|\n");
      for (int clients : o.planClients()) {
        for (Scope scope : Scope.values()) {
          for (Mode mode : Mode.values()) {
            Optional<Aggregate> found = at(aggregates, scope, mode, clients, target);
            if (found.isEmpty()) {
              continue;
            }
            Aggregate a = found.get();
            md.append("| ")
                .append(scope.label())
                .append(" | ")
                .append(clients)
                .append(" | ")
                .append(mode.label())
                .append(a.errors() > 0 ? " ⚠ " + a.errors() + " errors" : "")
                .append(" | ")
                .append(a.operations())
                .append(" | ")
                .append(fmt("%.2f", a.throughput()))
                .append(" | ")
                .append(fmt("%.1f", a.percentileMillis(50)))
                .append(" | ")
                .append(fmt("%.1f", a.percentileMillis(95)))
                .append(" | ")
                .append(fmt("%.1f", a.percentileMillis(100)))
                .append(" | ")
                .append(fmt("%.1f", a.serverCpuMillisPerOp()))
                .append(" | ")
                .append(fmt("%.1f", clientCpuMillisPerOp(a)))
                .append(" |\n");
          }
        }
      }
      md.append('\n')
          .append("Server ÷ client (plans/s above 1, latency and CPU below 1 favour planning on")
          .append(" the server; CPU = Sluice's + the client's per plan):\n\n")
          .append("| Scan | clients | plans/s | p50 | p95 | CPU per plan |\n")
          .append("|---|--:|--:|--:|--:|--:|\n");
      for (int clients : o.planClients()) {
        for (Scope scope : Scope.values()) {
          Optional<Aggregate> client = at(aggregates, scope, Mode.CLIENT, clients, target);
          Optional<Aggregate> server = at(aggregates, scope, Mode.SERVER, clients, target);
          if (client.isEmpty() || server.isEmpty()) {
            continue;
          }
          Aggregate c = client.get();
          Aggregate s = server.get();
          md.append("| ")
              .append(scope.label())
              .append(" | ")
              .append(clients)
              .append(" | ")
              .append(ratio(s.throughput(), c.throughput()))
              .append(" | ")
              .append(ratio(s.percentileMillis(50), c.percentileMillis(50)))
              .append(" | ")
              .append(ratio(s.percentileMillis(95), c.percentileMillis(95)))
              .append(" | ")
              .append(ratio(totalCpuMillisPerOp(s), totalCpuMillisPerOp(c)))
              .append(" |\n");
        }
      }
      md.append('\n');
    }
  }

  static double clientCpuMillisPerOp(Aggregate a) {
    return a.operations() == 0 ? Double.NaN : a.clientCpuSeconds() * 1000 / a.operations();
  }

  private static double totalCpuMillisPerOp(Aggregate a) {
    return a.serverCpuMillisPerOp() + clientCpuMillisPerOp(a);
  }

  private static String ratio(double value, double base) {
    return base == 0 || Double.isNaN(value) || Double.isNaN(base)
        ? ""
        : fmt("%.2f", value / base) + "×";
  }

  private static String count(int n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
