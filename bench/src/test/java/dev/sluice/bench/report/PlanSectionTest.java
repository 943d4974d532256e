package dev.sluice.bench.report;

import static dev.sluice.bench.report.Synthetic.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.load.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan section, rendered from made-up runs: each pair's figures and its ratios server ÷ client.
 */
class PlanSectionTest {
  private static String render(List<RunResult> runs, String... args) {
    ReportInput in = Synthetic.input(Synthetic.options(args), runs, List.of());
    StringBuilder md = new StringBuilder();
    PlanSection.render(in, Aggregate.of(runs), md);
    return md.toString();
  }

  @Test
  void figuresPerPlanningAndRatiosServerOverClient() {
    // Synthetic runs last 1 s with 0.5 s of server CPU and 0.1 s of client CPU.
    String md =
        render(
            List.of(
                run("plan-partition-client-1c", "sluice-rbac", 10, 1000),
                run("plan-partition-server-1c", "sluice-rbac", 20, 500),
                run("plan-full-client-1c", "sluice-rbac", 2, 1600),
                run("plan-full-server-1c", "sluice-rbac", 1, 2000),
                run("loadTable-hot", "sluice-rbac", 9000, 100)),
            "--plan-clients",
            "1",
            "--plan-snapshots",
            "500",
            "--plan-files",
            "10000");

    assertThat(md)
        .startsWith("## Scan planning: on the server vs on the client")
        .contains("500 fast appends (20 data files each, 10,000 in all")
        .contains("| partition | 1 | client | 10 | 10.00 | 1.0 | 1.0 | 1.0 | 50.0 | 10.0 |")
        .contains("| partition | 1 | server | 20 | 20.00 | 0.5 | 0.5 | 0.5 | 25.0 | 5.0 |")
        .contains("| full | 1 | client | 2 | 2.00 | 1.6 | 1.6 | 1.6 | 250.0 | 50.0 |")
        .contains("| full | 1 | server | 1 | 1.00 | 2.0 | 2.0 | 2.0 | 500.0 | 100.0 |")
        .contains("| partition | 1 | 2.00× | 0.50× | 0.50× | 0.50× |")
        .contains("| full | 1 | 0.50× | 1.25× | 1.25× | 2.00× |")
        .doesNotContain("loadTable-hot");
  }

  @Test
  void absentWithoutPlanRuns() {
    assertThat(render(List.of(run("loadTable-hot", "sluice-rbac", 9000, 100)))).isEmpty();
  }
}
