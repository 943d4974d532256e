package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import dev.sluice.bench.ServerStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The targets, each against what this run measured. The targets themselves were set from
 * wrk runs on this machine (reference ≈ 3,700 req/s on loadTable; nginx serving the same bytes ≈
 * 82,000 req/s, the HTTP floor); here they are compared with this harness's own reference numbers
 * from the same run.
 */
final class TargetsSection {
  private static final double NGINX_FLOOR = 82_000;

  /**
   * loadTable-hot's p99 bound per target (ms), in the order of the rows: the target for
   * RBAC with warm vending on PostgreSQL is tighter than the others'.
   */
  private static final Map<String, Double> HOT_P99_MILLIS = hotP99Millis();

  /** Revalidating a table with a history must be this many times a full load's throughput. */
  private static final double LARGE_304_RATIO = 2;

  private TargetsSection() {}

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    md.append("## Against the targets\n\n").append("| Target | Measured | Met |\n|---|---|---|\n");
    Optional<Aggregate> ref = find(aggregates, "loadTable-hot", "reference");
    for (Map.Entry<String, Double> bound : HOT_P99_MILLIS.entrySet()) {
      String target = bound.getKey();
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
          "… with p99 ≤ "
              + fmt("%.0f", bound.getValue())
              + " ms at "
              + in.options().clients()
              + " connections",
          fmt("%.2f", p99) + " ms",
          p99 <= bound.getValue());
    }
    largeRevalidationRows(aggregates, md);
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
    for (String target : ScaleSection.targets(in, aggregates)) {
      List<Aggregate> all = ScaleSection.scaleRuns(in, aggregates, target);
      List<Aggregate> hot = ScaleSection.workingSetRuns(in, aggregates, target);
      if (all.isEmpty() || hot.isEmpty()) {
        continue;
      }
      Aggregate small = all.get(0);
      Aggregate large = hot.get(hot.size() - 1);
      double p50 = large.percentileMillis(50) / small.percentileMillis(50);
      double p99 = large.percentileMillis(99) / small.percentileMillis(99);
      row(
          md,
          "`"
              + target
              + "` loadTable latency, "
              + small.scenario().substring(10)
              + " tables → "
              + large.scenario().substring(10)
              + " (a working set), within 1.2×",
          "p50 " + fmt("%.2f", p50) + "×, p99 " + fmt("%.2f", p99) + "×",
          p50 <= 1.2 && p99 <= 1.2);
    }
    HistorySection.targetRows(in, aggregates, md);
    md.append('\n');
  }

  /**
   * Per target that ran both: revalidating {@code bench_large.large} (304) against loading it in
   * full, on the same target.
   */
  private static void largeRevalidationRows(List<Aggregate> aggregates, StringBuilder md) {
    for (Aggregate notModified : aggregates) {
      if (!notModified.scenario().equals("loadTable-large-304")) {
        continue;
      }
      Optional<Aggregate> full = find(aggregates, "loadTable-large", notModified.target());
      if (full.isEmpty()) {
        continue;
      }
      double ratio = notModified.throughput() / full.get().throughput();
      row(
          md,
          "loadTable-large-304 on `"
              + notModified.target()
              + "` ≥ "
              + fmt("%.0f", LARGE_304_RATIO)
              + "× its loadTable-large ops/s",
          fmt("%.0f", notModified.throughput())
              + " vs "
              + fmt("%.0f", full.get().throughput())
              + " ops/s = "
              + fmt("%.2f", ratio)
              + "×",
          ratio >= LARGE_304_RATIO);
    }
  }

  private static Map<String, Double> hotP99Millis() {
    Map<String, Double> bounds = new LinkedHashMap<>();
    bounds.put("sluice-vended", 5.0);
    bounds.put("sluice-rbac", 5.0);
    bounds.put("sluice-pg", 5.0);
    bounds.put("sluice-pg-vended", 3.0);
    return bounds;
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
