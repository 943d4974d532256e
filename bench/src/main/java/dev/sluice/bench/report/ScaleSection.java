package dev.sluice.bench.report;

import java.util.List;
import java.util.Locale;

/** The scale phase: loadTable latency as the catalog grows, as ratios to the smallest catalog. */
final class ScaleSection {
  private ScaleSection() {}

  /** The scale phase's aggregates, smallest catalog first (their scenario names start with loadTable- and a count). */
  static List<Aggregate> scaleRuns(ReportInput in, List<Aggregate> aggregates) {
    List<String> names = in.options().scale().stream().map(dev.sluice.bench.scenario.LoadTableScale::nameFor).toList();
    return names.stream()
        .flatMap(n -> aggregates.stream().filter(a -> a.scenario().equals(n)))
        .toList();
  }

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    List<Aggregate> runs = scaleRuns(in, aggregates);
    if (runs.isEmpty()) {
      return;
    }
    Aggregate base = runs.get(0);
    md.append("## Scale: loadTable as the catalog grows\n\n")
        .append("After the suite, on the same (warm) Sluice process and as `").append(base.target())
        .append("`: namespace `bench_scale` is grown to each size by writing the store's `contents` rows straight into")
        .append(" the running server's H2 database (JDBC batches of 10,000 over H2's AUTO_SERVER socket; the rows are")
        .append(" what `JdbcStore.createContent` writes). The seeded tables reuse the 100 fixture tables' metadata files")
        .append(" round robin, so what grows is the pointer lookup among N rows; each load picks one of the N tables")
        .append(" uniformly at random. Ratios are to the smallest catalog.\n\n")
        .append("| Tables | ops/s | p50 ms | p99 ms | p99.9 ms | ops/s ÷ smallest | p50 ÷ smallest | p99 ÷ smallest |\n")
        .append("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (Aggregate a : runs) {
      md.append("| ").append(a.scenario().substring("loadTable-".length())).append(" | ")
          .append(fmt("%.0f", a.throughput())).append(" | ")
          .append(fmt("%.2f", a.percentileMillis(50))).append(" | ")
          .append(fmt("%.2f", a.percentileMillis(99))).append(" | ")
          .append(fmt("%.2f", a.percentileMillis(99.9))).append(" | ")
          .append(fmt("%.2f", a.throughput() / base.throughput())).append("× | ")
          .append(fmt("%.2f", a.percentileMillis(50) / base.percentileMillis(50))).append("× | ")
          .append(fmt("%.2f", a.percentileMillis(99) / base.percentileMillis(99))).append("× |\n");
    }
    md.append('\n');
  }

  static String fmt(String format, double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? "–" : String.format(Locale.ROOT, format, value);
  }
}
