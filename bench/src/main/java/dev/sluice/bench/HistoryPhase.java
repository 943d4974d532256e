package dev.sluice.bench;

import dev.sluice.bench.load.QuietWait;
import dev.sluice.bench.load.ResourceProbe;
import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.scenario.HistoryTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The history phase (issue 18: commit latency as a table's history grows): for each size N, one
 * fresh table per target is grown to N snapshots, unmeasured, then one client's next {@code
 * --history-commits} appends are timed on it; the targets are measured one after the other at each
 * size (reference first), so drifts of the machine fall on all of them.
 */
final class HistoryPhase {
  /** The targets it runs on, in this order, when the run has them. */
  static final List<String> TARGETS = List.of("reference", "sluice-rbac", "sluice-pg");

  private final BenchOptions options;

  HistoryPhase(BenchOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The run's targets the phase measures, in its order. */
  static List<Target> targetsOf(List<Target> targets) {
    List<Target> on = new ArrayList<>();
    for (String name : TARGETS) {
      targets.stream().filter(t -> t.name().equals(name)).findFirst().ifPresent(on::add);
    }
    return on;
  }

  List<RunResult> run(List<Target> targets, Map<String, String> descriptions)
      throws IOException, InterruptedException {
    List<Long> pids = targets.stream().map(Target::serverPid).distinct().toList();
    QuietWait quiet = new QuietWait(pids, options.settleSeconds(), 0.1);
    warmUp(targets);
    List<RunResult> results = new ArrayList<>();
    for (int size : options.history()) {
      Map<Target, HistoryTable> tables = new LinkedHashMap<>();
      try {
        StringBuilder growth = new StringBuilder();
        for (Target target : targets) {
          HistoryTable table = HistoryTable.open(target.endpoint(), tableName(target, size));
          tables.put(target, table);
          long t0 = System.nanoTime();
          int requests =
              table.growTo(
                  Math.max(0, size - HistoryTable.LAST_SINGLE_APPENDS), options.historyBatch());
          requests += table.growTo(size, 1);
          double seconds = (System.nanoTime() - t0) / 1e9;
          growth
              .append(growth.length() == 0 ? "" : ", ")
              .append(target.name())
              .append(' ')
              .append(String.format("%.1f", seconds))
              .append(" s");
          System.out.printf(
              "history: %s grown to %,d snapshots in %.1f s (%d commit requests)%n",
              target.name(), table.snapshots(), seconds, requests);
        }
        for (Map.Entry<Target, HistoryTable> e : tables.entrySet()) {
          double waited = quiet.await();
          if (waited >= 1) {
            System.out.printf("waited %.0f s for other processes to quiet down%n", waited);
          }
          RunResult result =
              e.getValue()
                  .measure(
                      HistoryTable.nameFor(size),
                      options.historyCommits(),
                      new ResourceProbe(e.getKey().serverPid()));
          results.add(result);
          System.out.println(Progress.line(result, "raw"));
        }
        descriptions.put(HistoryTable.nameFor(size), description(size, growth.toString()));
      } finally {
        tables.values().forEach(HistoryTable::close);
      }
    }
    return results;
  }

  /**
   * {@code --history-warmup} single appends on a scratch table per target before the first size,
   * unmeasured: the suite may not have run a commit scenario, and a commit path still being
   * compiled would make the first size look slow and the growth ratio look better than it is.
   */
  private void warmUp(List<Target> targets) throws IOException {
    if (options.historyWarmup() == 0) {
      return;
    }
    for (Target target : targets) {
      long t0 = System.nanoTime();
      try (HistoryTable table =
          HistoryTable.open(target.endpoint(), "hist_warmup_" + tag(target))) {
        table.growTo(options.historyWarmup(), 1);
      }
      System.out.printf(
          "history: warmed up %s with %d single commits in %.1f s%n",
          target.name(), options.historyWarmup(), (System.nanoTime() - t0) / 1e9);
    }
  }

  private String description(int size, String growth) {
    int commits = options.historyCommits();
    return String.format(
        "one client appends to a table holding %,d snapshots: commits %,d to %,d timed one by one"
            + " (each adds a snapshot: add-snapshot + set-snapshot-ref, assert-ref-snapshot-id)."
            + " The table was grown to %,d snapshots first, unmeasured: %d appends per commit"
            + " request, the last %d one by one; growing took %s",
        size,
        size + 1,
        size + commits,
        size,
        options.historyBatch(),
        Math.min(size, HistoryTable.LAST_SINGLE_APPENDS),
        growth);
  }

  private static String tableName(Target target, int size) {
    return "hist_" + size + "_" + tag(target);
  }

  private static String tag(Target target) {
    return target.name().replace('-', '_');
  }
}
