package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import dev.sluice.bench.ServerStats;
import java.util.List;
import java.util.Optional;

/**
 * The targets, each against what this run measured. The targets themselves were set from
 * wrk runs on this machine (reference ≈ 3,700 req/s on loadTable; nginx serving the same bytes ≈
 * 82,000 req/s, the HTTP floor); here they are compared with this harness's own reference numbers
 * from the same run.
 */
final class TargetsSection {
  private static final double NGINX_FLOOR = 82_000;

  private TargetsSection() {}

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    md.append("## Against the targets\n\n").append("| Target | Measured | Met |\n|---|---|---|\n");
    Optional<Aggregate> ref = find(aggregates, "loadTable-hot", "reference");
    for (String target : List.of("sluice-vended", "sluice-rbac", "sluice-pg")) {
      Optional<Aggregate> load = find(aggregates, "loadTable-hot", target);
      if (load.isEmpty() || ref.isEmpty()) {
        continue;
      }
      double ratio = load.get().throughput() / ref.get().throughput();
      row(
          md,
          "loadTable-hot on `" + target + "` ≥ 4× the reference's ops/s",
          fmt("%.0f", load.get().throughput())
              + " vs "
              + fmt("%.0f", ref.get().throughput())
              + " ops/s = "
              + fmt("%.2f", ratio)
              + "×",
          ratio >= 4);
      row(
          md,
          "… and ≥ 20 % of the nginx floor (82,000 req/s with wrk)",
          fmt("%.1f", 100 * load.get().throughput() / NGINX_FLOOR) + " %",
          load.get().throughput() >= 0.2 * NGINX_FLOOR);
      double p99 = load.get().percentileMillis(99);
      row(
          md,
          "… with p99 ≤ 5 ms at " + in.options().clients() + " connections",
          fmt("%.2f", p99) + " ms",
          p99 <= 5);
    }
    SigningSection.targetRows(in, aggregates, md);
    for (ServerStats s : in.servers()) {
      if (s.name().startsWith("sluice")) {
        row(
            md,
            "`" + s.name() + "` start-up to ready ≤ 3 s",
            fmt("%.2f", s.startupSeconds()) + " s",
            s.startupSeconds() <= 3);
        double idle = s.idleRssKib() / 1024.0;
        row(
            md,
            "`" + s.name() + "` idle RSS ≤ 300 MB",
            fmt("%.0f", idle) + " MiB",
            idle * 1.048576 <= 300);
      }
    }
    for (String target : ScaleSection.targets(in, aggregates)) {
      List<Aggregate> scale = ScaleSection.scaleRuns(in, aggregates, target);
      if (scale.size() < 2) {
        continue;
      }
      Aggregate small = scale.get(0);
      Aggregate large = scale.get(scale.size() - 1);
      double p50 = large.percentileMillis(50) / small.percentileMillis(50);
      double p99 = large.percentileMillis(99) / small.percentileMillis(99);
      String sizes = small.scenario().substring(10) + " → " + large.scenario().substring(10);
      row(
          md,
          "`" + target + "` loadTable latency, " + sizes + " tables, within 1.2×",
          "p50 " + fmt("%.2f", p50) + "×, p99 " + fmt("%.2f", p99) + "×",
          p50 <= 1.2 && p99 <= 1.2);
    }
    HistorySection.targetRows(in, aggregates, md);
    md.append('\n');
  }

  static Optional<Aggregate> find(List<Aggregate> aggregates, String scenario, String target) {
    return aggregates.stream()
        .filter(a -> a.scenario().equals(scenario) && a.target().equals(target))
        .findFirst();
  }

  static void row(StringBuilder md, String target, String measured, boolean met) {
    md.append("| ")
        .append(target)
        .append(" | ")
        .append(measured)
        .append(" | ")
        .append(met ? "yes" : "**no**")
        .append(" |\n");
  }
}
