package dev.sluice.bench.report;

import static dev.sluice.bench.report.MarkdownReport.fmt;

import dev.sluice.bench.scenario.HistoryTable;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The history phase: one client's commit latency on a table of N snapshots, per size and target,
 * with the two bars: growth from the smallest to the largest size within 1.5× (p50, issue
 * 42; issue 18 asked 1.2×), and at the largest size a p50 at least 5× below the reference's.
 */
final class HistorySection {
  private static final String REFERENCE = "reference";
  private static final double MAX_GROWTH = 1.5;
  private static final double MIN_SPEEDUP = 5;

  private HistorySection() {}

  /** The sizes measured, ascending (those with at least one aggregate). */
  private static List<Integer> sizes(ReportInput in, List<Aggregate> aggregates) {
    return in.options().history().stream()
        .filter(
            n -> aggregates.stream().anyMatch(a -> a.scenario().equals(HistoryTable.nameFor(n))))
        .toList();
  }

  /** The phase's targets, in the order they ran. */
  private static List<String> targets(ReportInput in, List<Aggregate> aggregates) {
    List<String> names = in.options().history().stream().map(HistoryTable::nameFor).toList();
    return aggregates.stream()
        .filter(a -> names.contains(a.scenario()))
        .map(Aggregate::target)
        .distinct()
        .toList();
  }

  private static Optional<Aggregate> at(List<Aggregate> aggregates, int size, String target) {
    return TargetsSection.find(aggregates, HistoryTable.nameFor(size), target);
  }

  /** Rows for the "Against the targets" table: Sluice's targets only. */
  static void targetRows(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    List<Integer> sizes = sizes(in, aggregates);
    if (sizes.isEmpty()) {
      return;
    }
    int small = sizes.get(0);
    int large = sizes.get(sizes.size() - 1);
    for (String target : targets(in, aggregates)) {
      if (target.equals(REFERENCE)) {
        continue;
      }
      Optional<Aggregate> first = at(aggregates, small, target);
      Optional<Aggregate> last = at(aggregates, large, target);
      if (sizes.size() > 1 && first.isPresent() && last.isPresent()) {
        double growth = last.get().percentileMillis(50) / first.get().percentileMillis(50);
        TargetsSection.row(
            md,
            "`"
                + target
                + "` commit p50 as history grows, "
                + count(small)
                + " → "
                + count(large)
                + " snapshots, within "
                + fmt("%.1f", MAX_GROWTH)
                + "×",
            fmt("%.2f", first.get().percentileMillis(50))
                + " → "
                + fmt("%.2f", last.get().percentileMillis(50))
                + " ms = "
                + fmt("%.2f", growth)
                + "×",
            growth <= MAX_GROWTH);
      }
      Optional<Aggregate> ref = at(aggregates, large, REFERENCE);
      if (last.isPresent() && ref.isPresent()) {
        double speedup = ref.get().percentileMillis(50) / last.get().percentileMillis(50);
        TargetsSection.row(
            md,
            "`"
                + target
                + "` commit p50 at "
                + count(large)
                + " snapshots ≥ 5× below the reference's",
            fmt("%.2f", ref.get().percentileMillis(50))
                + " ÷ "
                + fmt("%.2f", last.get().percentileMillis(50))
                + " ms = "
                + fmt("%.2f", speedup)
                + "×",
            speedup >= MIN_SPEEDUP);
      }
    }
  }

  static void render(ReportInput in, List<Aggregate> aggregates, StringBuilder md) {
    List<Integer> sizes = sizes(in, aggregates);
    List<String> targets = targets(in, aggregates);
    if (sizes.isEmpty()) {
      return;
    }
    int commits = in.options().historyCommits();
    md.append("## History: commit latency as a table's history grows\n\n")
        .append("After the suite, on the same server processes. For each size N, one fresh table")
        .append(" per target in `bench_commit` is grown to N snapshots, unmeasured (")
        .append(in.options().historyBatch())
        .append(" appends per commit request, the last ")
        .append(HistoryTable.LAST_SINGLE_APPENDS)
        .append(" one by one), then one client sends")
        .append(" the next ")
        .append(commits)
        .append(" appends one by one on one keep-alive connection (the raw client, whatever")
        .append(" `--client` says), each timed from its request to the last byte of its")
        .append(" answer: the table holds N to N+")
        .append(commits - 1)
        .append(" snapshots when they are sent. Each append is `commit-distinct`'s request")
        .append(" (assert-ref-snapshot-id + add-snapshot + set-snapshot-ref), metadata only; no")
        .append(" snapshot expires, so the metadata file each commit writes and returns grows with")
        .append(" N. At each size the targets run one after the other (")
        .append(String.join(" → ", targets))
        .append(
            in.options().historyWarmup() > 0
                ? "). Before the first size, each target got "
                    + in.options().historyWarmup()
                    + " unmeasured single commits on a scratch table (JIT)."
                : "). No JIT warm-up before the first size (`--history-warmup 0`).")
        .append(" Server CPU = the server process's CPU in the window ÷")
        .append(" commits. Ratios ÷ ref below 1 favour Sluice.\n\n");
    for (int size : sizes) {
      md.append("### ")
          .append(count(size))
          .append(" snapshots (commits ")
          .append(count(size + 1))
          .append(" … ")
          .append(count(size + commits))
          .append(")\n\n")
          .append(
              "| Target | commits | commits/s | p50 ms | p99 ms | max ms | server CPU ms/op |"
                  + " p50 ÷ ref | p99 ÷ ref | CPU ÷ ref |\n")
          .append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
      Optional<Aggregate> ref = at(aggregates, size, REFERENCE);
      for (String target : targets) {
        Optional<Aggregate> found = at(aggregates, size, target);
        if (found.isEmpty()) {
          continue;
        }
        Aggregate a = found.get();
        boolean ratios = ref.isPresent() && !target.equals(REFERENCE);
        md.append("| ")
            .append(target)
            .append(a.errors() > 0 ? " ⚠ " + a.errors() + " errors" : "")
            .append(" | ")
            .append(a.operations())
            .append(" | ")
            .append(fmt("%.1f", a.throughput()))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(50)))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(99)))
            .append(" | ")
            .append(fmt("%.2f", a.percentileMillis(100)))
            .append(" | ")
            .append(fmt("%.2f", a.serverCpuMillisPerOp()))
            .append(" | ")
            .append(ratios ? ratio(a.percentileMillis(50), ref.get().percentileMillis(50)) : "")
            .append(" | ")
            .append(ratios ? ratio(a.percentileMillis(99), ref.get().percentileMillis(99)) : "")
            .append(" | ")
            .append(ratios ? ratio(a.serverCpuMillisPerOp(), ref.get().serverCpuMillisPerOp()) : "")
            .append(" |\n");
      }
      md.append('\n');
    }
    if (sizes.size() > 1) {
      growth(sizes, targets, aggregates, md);
    }
  }

  /** Per target: p50 at the smallest and largest size, their ratio, and the reference's ÷ it. */
  private static void growth(
      List<Integer> sizes, List<String> targets, List<Aggregate> aggregates, StringBuilder md) {
    int small = sizes.get(0);
    int large = sizes.get(sizes.size() - 1);
    md.append("### Growth, ")
        .append(count(small))
        .append(" → ")
        .append(count(large))
        .append(" snapshots\n\n")
        .append("Growth = p50 at ")
        .append(count(large))
        .append(" ÷ p50 at ")
        .append(count(small))
        .append(" on the same target (target ≤ 1.5×); reference ÷ target = the reference's p50 ÷")
        .append(" this target's at the same size (target ≥ 5× at the largest).\n\n")
        .append(
            "| Target | p50 ms at "
                + count(small)
                + " | p50 ms at "
                + count(large)
                + " | p50 growth | p99 growth | CPU ms/op growth | reference ÷ target at "
                + count(small)
                + " | reference ÷ target at "
                + count(large)
                + " |\n")
        .append("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (String target : targets) {
      Optional<Aggregate> first = at(aggregates, small, target);
      Optional<Aggregate> last = at(aggregates, large, target);
      if (first.isEmpty() || last.isEmpty()) {
        continue;
      }
      Aggregate a = first.get();
      Aggregate b = last.get();
      boolean ratios = !target.equals(REFERENCE);
      Optional<Aggregate> refSmall = at(aggregates, small, REFERENCE);
      Optional<Aggregate> refLarge = at(aggregates, large, REFERENCE);
      md.append("| ")
          .append(target)
          .append(" | ")
          .append(fmt("%.2f", a.percentileMillis(50)))
          .append(" | ")
          .append(fmt("%.2f", b.percentileMillis(50)))
          .append(" | ")
          .append(ratio(b.percentileMillis(50), a.percentileMillis(50)))
          .append(" | ")
          .append(ratio(b.percentileMillis(99), a.percentileMillis(99)))
          .append(" | ")
          .append(ratio(b.serverCpuMillisPerOp(), a.serverCpuMillisPerOp()))
          .append(" | ")
          .append(
              ratios && refSmall.isPresent()
                  ? ratio(refSmall.get().percentileMillis(50), a.percentileMillis(50))
                  : "")
          .append(" | ")
          .append(
              ratios && refLarge.isPresent()
                  ? ratio(refLarge.get().percentileMillis(50), b.percentileMillis(50))
                  : "")
          .append(" |\n");
    }
    md.append('\n');
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
