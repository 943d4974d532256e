package dev.sluice.bench.report;

import static dev.sluice.bench.report.Synthetic.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.load.RunResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartDataTest {
  private static final List<RunResult> RUNS =
      List.of(
          run("loadTable-hot", "reference", 1000, 1234),
          run("loadTable-hot", "sluice-rbac", 5000, 321),
          // A suite scenario whose name looks like a scale size: it stays in the suite.
          run("loadTable-304", "sluice-rbac", 6000, 250),
          // A run without operations: ops/s 0, percentiles NaN, written as empty cells.
          run("createTable", "sluice-rbac", 0, 0),
          run("history-500", "sluice-rbac", 20, 1900),
          run("loadTable-1k", "sluice-rbac", 4000, 400),
          run("loadTable-100k", "sluice-rbac", 3000, 700),
          // The working set: in the Markdown's scale section only, charted nowhere.
          run("loadTable-100k-hot1k", "sluice-rbac", 3900, 410),
          run("loadTable-1k", "sluice-pg", 3500, 450),
          run("loadTable-100k", "sluice-pg", 2500, 800));

  @Test
  void readingTheCsvBackGivesTheChartsOfTheRun(@TempDir Path dir) throws Exception {
    ReportInput in = Synthetic.input(Synthetic.options("--scale", "1000,100000"), RUNS, List.of());
    List<Aggregate> aggregates = Aggregate.of(RUNS);
    Path csv = dir.resolve("run.csv");
    CsvReport.write(csv, RUNS, aggregates);

    ChartData fromRun = ChartData.of(in, aggregates);
    ChartData fromCsv = ChartData.fromCsv(csv);

    assertThat(fromCsv).isEqualTo(fromRun);
    assertThat(fromRun.scenarios())
        .containsExactly("loadTable-hot", "loadTable-304", "createTable", "history-500");
    assertThat(fromRun.scale().stream().map(s -> s.tables() + " " + s.row().target()).toList())
        .containsExactly(
            "1000 sluice-rbac", "1000 sluice-pg", "100000 sluice-rbac", "100000 sluice-pg");
    assertThat(fromRun.targets()).containsExactly("reference", "sluice-rbac", "sluice-pg");
    ChartData.Row hot = fromCsv.suite().get(1);
    assertThat(hot)
        .isEqualTo(new ChartData.Row("loadTable-hot", "sluice-rbac", 5000, 0.321, 0.321, 0.321));
    ChartData.Row empty = fromCsv.suite().get(3);
    assertThat(empty.opsPerSecond()).isZero();
    assertThat(empty.p50()).isNaN();
  }

  @Test
  void scaleRowsFromCsvAreSortedByTableCount(@TempDir Path dir) throws Exception {
    List<RunResult> runs =
        List.of(
            run("loadTable-1M", "sluice-rbac", 100, 1500),
            run("loadTable-1500", "sluice-rbac", 200, 900),
            run("loadTable-1k", "sluice-rbac", 300, 800));
    Path csv = dir.resolve("old.csv");
    CsvReport.write(csv, runs, Aggregate.of(runs));

    assertThat(ChartData.fromCsv(csv).scale().stream().map(ChartData.ScaleRow::tables).toList())
        .containsExactly(1000, 1500, 1_000_000);
  }
}
