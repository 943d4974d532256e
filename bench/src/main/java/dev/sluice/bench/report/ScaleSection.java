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

  /**
   * The working-set loads ({@link LoadTableScale#nameFor(int, int)}) for {@code target}, smallest
   * catalog first: those of every size above the working set.
   */
  static List<Aggregate> workingSetRuns(ReportInput in, List<Aggregate> aggregates, String target) {
    int workingSet = LoadTableScale.WORKING_SET;
    List<String> names =
        in.options().scale().stream()
            .filter(n -> n > workingSet)
            .map(n -> LoadTableScale.nameFor(n, workingSet))
            .toList();
    return names.stream()
        .flatMap(
            n ->
                aggregates.stream()
                    .filter(a -> a.scenario().equals(n) && a.target().equals(target)))
        .toList();
  }

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    int workingSet = LoadTableScale.WORKING_SET;
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
        .append(" lookup among N rows. Ratios are to the smallest catalog on the same target.\n\n")
        .append(
            "**All tables**: each load picks one of the N tables uniformly at random. Above the pointer cache's")
        .append(
            " size (`database.pointerCacheMaxEntries`, 100k by default) most loads read the pointer from the")
        .append(
            " database; and in a run of a few seconds most of a million tables are loaded for the first time, so no")
        .append(" cache of any size could serve them.\n\n");
    header(md);
    for (String target : targets) {
      List<Aggregate> runs = scaleRuns(in, aggregates, target);
      runs.forEach(a -> row(md, target, a, runs.get(0)));
    }
    md.append('\n');
    if (targets.stream().allMatch(t -> workingSetRuns(in, aggregates, t).isEmpty())) {
      return;
    }
    md.append("**A working set**: each load picks one of ")
        .append(String.format("%,d", workingSet))
        .append(" tables spread evenly over the N (every N/")
        .append(String.format("%,d", workingSet))
        .append("-th), as engines querying a few tables of a large catalog do. Ratios are to the")
        .append(" smallest catalog's all-tables load.\n\n");
    header(md);
    for (String target : targets) {
      List<Aggregate> all = scaleRuns(in, aggregates, target);
      workingSetRuns(in, aggregates, target).forEach(a -> row(md, target, a, all.get(0)));
    }
    md.append('\n');
  }

  private static void header(StringBuilder md) {
    md.append(
            "| Target | Tables | ops/s | p50 ms | p99 ms | p99.9 ms | ops/s ÷ smallest | p50 ÷ smallest | p99 ÷ smallest |\n")
        .append("|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
  }

  private static void row(StringBuilder md, String target, Aggregate a, Aggregate base) {
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
