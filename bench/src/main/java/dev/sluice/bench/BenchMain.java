package dev.sluice.bench;

import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.report.Aggregate;
import dev.sluice.bench.report.ChartData;
import dev.sluice.bench.report.Charts;
import dev.sluice.bench.report.CsvReport;
import dev.sluice.bench.report.JfrSummary;
import dev.sluice.bench.report.MachineInfo;
import dev.sluice.bench.report.MarkdownReport;
import dev.sluice.bench.report.Profile;
import dev.sluice.bench.report.ReportInput;
import dev.sluice.bench.scale.TableSeeder;
import dev.sluice.bench.scenario.Fixture;
import dev.sluice.bench.scenario.Scenario;
import dev.sluice.bench.scenario.Scenarios;
import dev.sluice.bench.soak.SoakPhase;
import dev.sluice.bench.soak.SoakReport;
import dev.sluice.bench.soak.SoakResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the servers, seeds them, runs the suite, stops them, and writes {@code
 * <results-dir>/<name>.md} and {@code .csv}. See bench/README.md.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--charts-from")) {
      chartsFrom(Path.of(args[1]));
      return;
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().equals("help")) {
        System.err.println(e.getMessage());
      }
      System.err.print(BenchOptions.USAGE);
      System.exit(e.getMessage().equals("help") ? 0 : 2);
      return;
    }
    run(options);
  }

  /**
   * One whole run: servers, suite, history, plan and scale phases, reports. Also the smoke test's
   * entry (BenchSmokeTest), which must not be ended by {@link System#exit}.
   */
  static void run(BenchOptions options) throws Exception {
    ZonedDateTime startedAt = ZonedDateTime.now();
    long t0 = System.nanoTime();
    String name =
        options.name() != null
            ? options.name()
            : "bench-" + startedAt.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path workDir = Files.createDirectories(options.workDir().resolve(name));
    if (options.soakSeconds() > 0) {
      soak(options, name, workDir, startedAt);
      return;
    }
    List<Scenario> scenarios = Scenarios.select(options.scenarios());
    String loadBefore = MachineInfo.loadAverage();

    List<RunResult> runs;
    List<ServerStats> stats;
    Map<String, Path> recordings;
    Map<String, String> descriptions = new LinkedHashMap<>();
    scenarios.forEach(s -> descriptions.put(s.name(), s.description()));
    try (Targets targets = Targets.start(options, workDir)) {
      Suite suite = new Suite(options);
      runs = new ArrayList<>(suite.run(scenarios, targets.inRunOrder(options.targets())));
      List<Target> historyTargets = HistoryPhase.targetsOf(targets.inRunOrder(options.targets()));
      if (!options.history().isEmpty() && !historyTargets.isEmpty()) {
        runs.addAll(new HistoryPhase(options).run(historyTargets, descriptions));
      }
      List<Target> planTargets = PlanPhase.targetsOf(targets.inRunOrder(options.targets()));
      if (options.planSnapshots() > 0 && !planTargets.isEmpty()) {
        runs.addAll(new PlanPhase(options).run(planTargets, descriptions));
      }
      if (!options.scale().isEmpty()) {
        List<Suite.ScaleTarget> scaleTargets = new ArrayList<>();
        try {
          for (Map.Entry<String, String> store : targets.scaleDatabases().entrySet()) {
            scaleTargets.add(
                new Suite.ScaleTarget(
                    targets.inRunOrder(List.of(store.getKey())).get(0),
                    new TableSeeder(
                        store.getValue(),
                        Targets.SLUICE_CATALOG,
                        Fixture.SCALE_NAMESPACE,
                        Fixture.READ_NAMESPACE)));
          }
          runs.addAll(suite.runScale(scaleTargets, options.scale(), descriptions));
        } finally {
          for (Suite.ScaleTarget t : scaleTargets) {
            t.seeder().close();
          }
        }
      }
      stats = targets.stats();
      recordings = targets.flightRecordings();
    } // the servers stop here (and write their flight recordings)

    List<Profile> profiles = new ArrayList<>();
    for (Map.Entry<String, Path> recording : recordings.entrySet()) {
      String server = recording.getKey();
      List<RunResult> served =
          runs.stream()
              .filter(r -> ServerStats.serverOf(r.target(), recordings.keySet()).equals(server))
              .toList();
      profiles.add(JfrSummary.read(server, recording.getValue(), served));
    }

    ReportInput input =
        new ReportInput(
            startedAt,
            (System.nanoTime() - t0) / 1e9,
            options,
            MachineInfo.read(options.repoRoot()),
            loadBefore,
            MachineInfo.loadAverage(),
            descriptions,
            runs,
            stats,
            profiles);
    List<Aggregate> aggregates = Aggregate.of(runs);
    Path results = Files.createDirectories(options.resultsDir());
    Path markdown = results.resolve(name + ".md");
    Path csv = results.resolve(name + ".csv");
    Charts.Images charts = Charts.write(results, name, ChartData.of(input, aggregates));
    MarkdownReport.write(markdown, input, aggregates, charts);
    CsvReport.write(csv, runs, aggregates);
    System.out.println("report: " + markdown);
    System.out.println("csv:    " + csv);
    System.out.println(
        "removing the servers' data (tables made by the create and commit scenarios)…");
    ServerData.remove(workDir);
  }

  /**
   * The soak instead of the suite: the targets' servers started and seeded as for the suite, then
   * {@code --soak} seconds on each target, one after the other; the report is {@code <name>.md}.
   */
  private static void soak(BenchOptions options, String name, Path workDir, ZonedDateTime startedAt)
      throws Exception {
    SoakPhase phase =
        new SoakPhase(
            options.soakSeconds(),
            options.soakIntervalSeconds(),
            options.soakClients(),
            options.tables());
    List<SoakResult> results = new ArrayList<>();
    try (Targets targets = Targets.start(options, workDir)) {
      for (Target target : targets.inRunOrder(options.targets())) {
        System.out.printf(
            "soak: %s for %.0f s, sampled every %.0f s%n",
            target.name(), options.soakSeconds(), options.soakIntervalSeconds());
        results.add(phase.run(target));
      }
    }
    Path dir = Files.createDirectories(options.resultsDir());
    Path markdown = dir.resolve(name + ".md");
    SoakReport.write(
        markdown,
        dir.resolve(name + ".csv"),
        startedAt,
        MachineInfo.read(options.repoRoot()),
        String.format(
            "bench/run.sh --targets %s --soak %.0f --soak-interval %.0f --soak-clients %d --tables %d",
            String.join(",", options.targets()),
            options.soakSeconds(),
            options.soakIntervalSeconds(),
            options.soakClients(),
            options.tables()),
        results);
    System.out.println("report: " + markdown);
    ServerData.remove(workDir);
  }

  /**
   * Redraws the charts of an existing report from its CSV, beside it, and prints the Markdown that
   * embeds them (a report written before the charts has no image links).
   */
  private static void chartsFrom(Path csv) throws Exception {
    String file = csv.getFileName().toString();
    if (!file.endsWith(".csv")) {
      throw new IllegalArgumentException("--charts-from takes a report's .csv, not " + csv);
    }
    Path dir = csv.toAbsolutePath().getParent();
    Charts.Images charts =
        Charts.write(dir, file.substring(0, file.length() - 4), ChartData.fromCsv(csv));
    charts.markdownBySuffix().values().forEach(System.out::println);
  }
}
