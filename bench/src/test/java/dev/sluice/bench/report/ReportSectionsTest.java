package dev.sluice.bench.report;

import static dev.sluice.bench.report.Synthetic.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.load.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scale and targets sections, rendered from made-up aggregates with known ratios. */
class ReportSectionsTest {
  private static final List<RunResult> SCALE_RUNS =
      List.of(
          // Out of order on purpose: the section sorts by catalog size.
          run("loadTable-1M", "sluice-rbac", 500, 2000),
          run("loadTable-1k", "sluice-rbac", 1000, 1000),
          run("loadTable-100k", "sluice-rbac", 800, 1500),
          run("loadTable-100k-hot1k", "sluice-rbac", 1000, 1000),
          run("loadTable-1M-hot1k", "sluice-rbac", 900, 1100),
          run("loadTable-1k", "sluice-pg", 2000, 500),
          run("loadTable-1M", "sluice-pg", 1000, 1000),
          run("loadTable-1M-hot1k", "sluice-pg", 2000, 500),
          run("loadTable-hot", "sluice-rbac", 9000, 100));

  @Test
  void scaleSectionHasEverySizePerTargetWithRatiosToTheSmallest() {
    String md = scale(SCALE_RUNS);

    assertThat(md).startsWith("## Scale: loadTable as the catalog grows");
    assertThat(md)
        .contains("| sluice-rbac | 1k | 1000 | 1.00 | 1.00 | 1.00 | 1.00× | 1.00× | 1.00× |")
        .contains("| sluice-rbac | 100k | 800 | 1.50 | 1.50 | 1.50 | 0.80× | 1.50× | 1.50× |")
        .contains("| sluice-rbac | 1M | 500 | 2.00 | 2.00 | 2.00 | 0.50× | 2.00× | 2.00× |")
        .contains("| sluice-pg | 1k | 2000 | 0.50 | 0.50 | 0.50 | 1.00× | 1.00× | 1.00× |")
        .contains("| sluice-pg | 1M | 1000 | 1.00 | 1.00 | 1.00 | 0.50× | 2.00× | 2.00× |");
    assertThat(md.indexOf("| sluice-rbac | 1k |"))
        .isLessThan(md.indexOf("| sluice-rbac | 100k |"))
        .isLessThan(md.indexOf("| sluice-rbac | 1M |"));
    String workingSet = md.substring(md.indexOf("**A working set**"));
    assertThat(workingSet)
        .contains(
            "| sluice-rbac | 100k-hot1k | 1000 | 1.00 | 1.00 | 1.00 | 1.00× | 1.00× | 1.00× |")
        .contains("| sluice-rbac | 1M-hot1k | 900 | 1.10 | 1.10 | 1.10 | 0.90× | 1.10× | 1.10× |")
        .contains("| sluice-pg | 1M-hot1k | 2000 | 0.50 | 0.50 | 0.50 | 1.00× | 1.00× | 1.00× |")
        .doesNotContain("| sluice-pg | 100k-hot1k |");
    assertThat(md).doesNotContain("loadTable-hot").doesNotContain("| 9000 |");
  }

  @Test
  void scaleSectionIsAbsentWithoutScaleRunsAndHasNoWorkingSetBelowIt() {
    assertThat(scale(List.of(run("loadTable-hot", "sluice-rbac", 9000, 100)))).isEmpty();
    String small =
        scale(
            List.of(
                run("loadTable-1k", "sluice-rbac", 1000, 1000),
                run("loadTable-1M", "sluice-rbac", 500, 2000)));
    assertThat(small).contains("| sluice-rbac | 1M |").doesNotContain("**A working set**");
  }

  @Test
  void targetsSectionJudgesEachTargetAgainstTheReferenceOfTheSameRun() {
    List<RunResult> runs =
        List.of(
            run("loadTable-hot", "reference", 1000, 1000),
            run("loadTable-hot", "sluice-rbac", 5000, 400),
            run("loadTable-hot", "sluice-pg", 3000, 600),
            run("loadTable-large", "sluice-rbac", 2000, 800),
            run("loadTable-large-304", "sluice-rbac", 5000, 300),
            run("loadTable-1k", "sluice-rbac", 1000, 1000),
            run("loadTable-1M", "sluice-rbac", 500, 1100),
            run("loadTable-100k-hot1k", "sluice-rbac", 1000, 1200),
            run("loadTable-1M-hot1k", "sluice-rbac", 1000, 1000),
            run("loadTable-1k", "sluice-pg", 1000, 1000),
            run("loadTable-1M-hot1k", "sluice-pg", 1000, 1400),
            run("listTables-paged", "reference", 1000, 1000),
            run("listTables-paged", "sluice-rbac", 4500, 500),
            run("listTables-paged", "sluice-pg", 3000, 600));
    ReportInput in =
        Synthetic.input(
            Synthetic.options("--clients", "16", "--scale", "1000,100000,1000000"),
            runs,
            List.of(
                Synthetic.server("reference", 9, 900),
                Synthetic.server("sluice", 1.25, 200),
                Synthetic.server("sluice-pg", 4, 320)));
    StringBuilder md = new StringBuilder();
    TargetsSection.render(in, Aggregate.of(runs), md);
    String s = md.toString();

    assertThat(s)
        .contains(
            "| loadTable-hot on `sluice-rbac` ≥ 4× the reference's ops/s | 5000 vs 1000 ops/s ="
                + " 5.00× | yes |")
        .contains("| … and ≥ 40 % of the nginx floor (82,000 req/s with wrk) | 6.1 % | **no** |")
        .contains("| … with p99 ≤ 2 ms at 16 connections | 0.40 ms | yes |")
        .contains(
            "| loadTable-hot on `sluice-pg` ≥ 4× the reference's ops/s | 3000 vs 1000 ops/s ="
                + " 3.00× | **no** |")
        .doesNotContain("`sluice-vended`")
        .contains(
            "| loadTable-large-304 on `sluice-rbac` ≥ 2× its loadTable-large ops/s | 5000 vs 2000"
                + " ops/s = 2.50× | yes |")
        .contains(
            "| listTables-paged on `sluice-rbac` ≥ 4× the reference's ops/s | 4500 vs 1000 ops/s ="
                + " 4.50× | yes |")
        .contains(
            "| listTables-paged on `sluice-pg` ≥ 4× the reference's ops/s | 3000 vs 1000 ops/s ="
                + " 3.00× | **no** |")
        .contains("| `sluice` start-up to ready ≤ 1.5 s | 1.25 s | yes |")
        .contains("| `sluice` idle RSS ≤ 300 MB | 200 MiB | yes |")
        .contains("| `sluice-pg` start-up to ready ≤ 1.5 s | 4.00 s | **no** |")
        .contains("| `sluice-pg` idle RSS ≤ 300 MB | 320 MiB | **no** |")
        .doesNotContain("`reference` start-up")
        .contains(
            "| `sluice-rbac` loadTable p99, 1k tables → 100k-hot1k (a working set), within 1.3× |"
                + " p50 1.20×, p99 1.20× | yes |")
        .as("the embedded store is judged up to the 100k tables it is documented for")
        .doesNotContain("`sluice-rbac` loadTable p99, 1k tables → 1M-hot1k")
        .contains(
            "| `sluice-pg` loadTable p99, 1k tables → 1M-hot1k (a working set), within 1.3× |"
                + " p50 1.40×, p99 1.40× | **no** |");
  }

  private static String scale(List<RunResult> runs) {
    ReportInput in =
        Synthetic.input(Synthetic.options("--scale", "1000,100000,1000000"), runs, List.of());
    StringBuilder md = new StringBuilder();
    ScaleSection.render(in, Aggregate.of(runs), md);
    return md.toString();
  }
}
