package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import java.util.List;
import java.util.Optional;

/**
 * Remote signing (issue 17) next to a warm loadTable on the same target, in the same run: the
 * issue's bar is ≥ 15,000 signs/s with RBAC on and p99 ≤ 3 ms at 16 connections.
 */
final class SigningSection {
  static final String SIGN = "sign-objects";
  static final String LOAD = "loadTable-hot";
  private static final double MIN_SIGNS_PER_SECOND = 15_000;
  private static final double MAX_P99_MILLIS = 3;

  private SigningSection() {}

  /** The targets that ran the signing scenario, in run order. */
  private static List<String> targets(List<Aggregate> aggregates) {
    return aggregates.stream()
        .filter(a -> a.scenario().equals(SIGN))
        .map(Aggregate::target)
        .distinct()
        .toList();
  }

  /** Rows for the "Against the targets" table. */
  static void targetRows(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    for (String target : targets(aggregates)) {
      Aggregate sign = TargetsSection.find(aggregates, SIGN, target).orElseThrow();
      TargetsSection.row(
          md,
          SIGN + " on `" + target + "` ≥ 15,000 signs/s (RBAC on)",
          fmt("%.0f", sign.throughput()) + " signs/s",
          sign.throughput() >= MIN_SIGNS_PER_SECOND);
      double p99 = sign.percentileMillis(99);
      TargetsSection.row(
          md,
          "… with p99 ≤ 3 ms at " + in.options().clients() + " connections",
          fmt("%.2f", p99) + " ms",
          p99 <= MAX_P99_MILLIS);
    }
  }

  static void render(List<Aggregate> aggregates, StringBuilder md) {
    List<String> targets = targets(aggregates);
    if (targets.isEmpty()) {
      return;
    }
    md.append("## Remote signing vs a warm loadTable\n\n")
        .append(
            "Both scenarios on the same target (same server, principal and catalog), all rounds.")
        .append(" Ratios: signing ÷ loadTable (ops/s: above 1, signing serves more requests per")
        .append(
            " second than loads; latency and CPU: below 1, a signature costs less than a load).\n\n")
        .append(
            "| Target | sign ops/s | sign p50 ms | sign p99 ms | load ops/s | load p50 ms | load p99 ms |"
                + " ops/s ratio | p50 ratio | p99 ratio | CPU ms/op ratio |\n")
        .append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (String target : targets) {
      Aggregate sign = TargetsSection.find(aggregates, SIGN, target).orElseThrow();
      Optional<Aggregate> load = TargetsSection.find(aggregates, LOAD, target);
      md.append("| ")
          .append(target)
          .append(" | ")
          .append(fmt("%.0f", sign.throughput()))
          .append(" | ")
          .append(fmt("%.2f", sign.percentileMillis(50)))
          .append(" | ")
          .append(fmt("%.2f", sign.percentileMillis(99)))
          .append(" | ");
      if (load.isEmpty()) {
        md.append("(loadTable-hot not run) | | | | | | |\n");
        continue;
      }
      Aggregate l = load.get();
      md.append(fmt("%.0f", l.throughput()))
          .append(" | ")
          .append(fmt("%.2f", l.percentileMillis(50)))
          .append(" | ")
          .append(fmt("%.2f", l.percentileMillis(99)))
          .append(" | ")
          .append(fmt("%.2f", sign.throughput() / l.throughput()))
          .append("× | ")
          .append(fmt("%.2f", sign.percentileMillis(50) / l.percentileMillis(50)))
          .append("× | ")
          .append(fmt("%.2f", sign.percentileMillis(99) / l.percentileMillis(99)))
          .append("× | ")
          .append(fmt("%.2f", sign.serverCpuMillisPerOp() / l.serverCpuMillisPerOp()))
          .append("× |\n");
    }
    md.append('\n');
  }
}
