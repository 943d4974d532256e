package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import dev.sluice.bench.scenario.LoadTableScale;
import java.util.List;

/** The scale phase: loadTable latency as the catalog grows, as ratios to the smallest catalog. */
final class ScaleSection {
  private ScaleSection() {}

  /** The scale phase's targets, in the order they ran. */
  static List<String> targets(ReportInput in, List<Aggregate> aggregates) {
    return scaleRuns(in, aggregates, null).stream().map(Aggregate::target).distinct().toList();
  }

  /** The scale phase's aggregates for {@code target} (null: all), smallest catalog first. */
  static List<Aggregate> scaleRuns(ReportInput in, List<Aggregate> aggregates, String target) {
    List<String> names = in.options().scale().stream().map(LoadTableScale::nameFor).toList();
    return names.stream()
        .flatMap(
            n ->
                aggregates.stream()
                    .filter(
                        a ->
                            a.scenario().equals(n)
                                && (target == null || a.target().equals(target))))
        .toList();
  }

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    List<String> targets = targets(in, aggregates);
    if (targets.isEmpty()) {
      return;
    }
    md.append("## Scale: loadTable as the catalog grows\n\n")
        .append(
            "After the suite, on the same (warm) server processes: namespace `bench_scale` is grown to each size by")
        .append(
            " writing the store's `contents` rows straight into the running server's database (JDBC batches of")
        .append(
            " 10,000; for H2 through its AUTO_SERVER socket; the rows are what `JdbcStore.createContent` writes). The")
        .append(
            " seeded tables reuse the 100 fixture tables' metadata files round robin, so what grows is the pointer")
        .append(
            " lookup among N rows; each load picks one of the N tables uniformly at random. Ratios are to the smallest")
        .append(" catalog on the same target.\n\n")
        .append(
            "| Target | Tables | ops/s | p50 ms | p99 ms | p99.9 ms | ops/s ÷ smallest | p50 ÷ smallest | p99 ÷ smallest |\n")
        .append("|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (String target : targets) {
      List<Aggregate> runs = scaleRuns(in, aggregates, target);
      Aggregate base = runs.get(0);
      for (Aggregate a : runs) {
        md.append("| ")
            .append(target)
            .append(" | ")
            .append(a.scenario().substring("loadTable-".length()))
            .append(" | ")
            .append(fmt("%.0f", a.throughput()))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(50)))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(99)))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(99.9)))
            .append(" | ")
            .append(fmt("%.2f", a.throughput() / base.throughput()))
            .append("× | ")
            .append(fmt("%.2f", a.percentileMillis(50) / base.percentileMillis(50)))
            .append("× | ")
            .append(fmt("%.2f", a.percentileMillis(99) / base.percentileMillis(99)))
            .append("× |\n");
      }
    }
    md.append('\n');
  }
}
