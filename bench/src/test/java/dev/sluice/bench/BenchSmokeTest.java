package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.report.ChartData;
import dev.sluice.bench.scenario.HistoryTable;
import dev.sluice.bench.scenario.LoadTableScale;
import dev.sluice.bench.scenario.Scenario;
import dev.sluice.bench.scenario.Scenarios;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole bench, end to end and short: every scenario on every target of the default set (the
 * reference, Sluice on H2 with RBAC, on PostgreSQL, and vending from Ceph RGW) plus {@code
 * sluice-signing} (the only target that offers sign-objects), half a second measured per run, then
 * the history and scale phases at toy sizes; then the report is read back. What it proves: each
 * scenario produces a measured, error-free row on each target that offers it, in the Markdown
 * results table and in the CSV, and the targets, signing, scale and history sections and the PNG
 * charts are all there. The expected rows come from the bench's own lists ({@link Scenarios#all()},
 * the targets that ran, {@link HistoryPhase#TARGETS}, the scale names): a scenario that silently
 * ran nowhere, or a row the writers dropped, fails here. The figures themselves mean nothing at
 * this length and are not judged (only that they are numbers, and throughput above zero).
 *
 * <p>It needs the test beds that scripts/test-all.sh starts, and fails, not skips, without them:
 * {@code SLUICE_TEST_PG_URL} (PostgreSQL, for {@code sluice-pg}) and {@code CEPH_RGW_*} (the Ceph
 * RGW, for the vended and signing targets; the bench reads those names, test-all.sh exports them),
 * and the server built in {@code server/target} (the reactor packages it before this module).
 */
@Tag("bed") // the bed lane (failsafe): it needs PostgreSQL and RGW
class BenchSmokeTest {
  private static final String NAME = "smoke";
  private static final String REFERENCE = "reference";
  private static final String SIGNING = "sluice-signing";

  /** The targets whose store the scale phase seeds (Targets.scaleDatabases). */
  private static final List<String> SCALE_TARGETS = List.of("sluice-rbac", "sluice-pg");

  private static final List<Integer> HISTORY = List.of(30, 60);
  private static final int HISTORY_COMMITS = 5;
  private static final List<Integer> SCALE = List.of(1_000, 2_000); // 2k: also a 1k working set

  /** Each chart and its height in pixels (report/Charts: KINDS); all are 1200 wide. */
  private static final Map<String, Integer> CHARTS =
      Map.of("throughput", 620, "latency", 1000, "scale", 560);

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void everyScenarioOnEveryTargetHasItsRowsInTheReport(
      // Kept when the test fails: the report, the CSV and the servers' logs (the bench prints
      // where).
      @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) throws Exception {
    String postgres = requiredEnv("SLUICE_TEST_PG_URL", "PostgreSQL, for sluice-pg");
    requiredEnv("CEPH_RGW_ENDPOINT", "the Ceph RGW, for the vended and signing targets");
    String repoRoot = System.getProperty("sluice.repo.root");
    assertThat(repoRoot).as("system property sluice.repo.root (bench/pom.xml sets it)").isNotNull();

    List<String> defaults = BenchOptions.parse(new String[] {"--postgres-url", postgres}).targets();
    assertThat(defaults)
        .as("the bench's default targets with both test beds")
        .contains(REFERENCE, "sluice-rbac", "sluice-vended", "sluice-pg", "sluice-pg-vended");
    List<String> targets = new ArrayList<>(defaults);
    targets.add(SIGNING);

    BenchOptions options = BenchOptions.parse(arguments(repoRoot, dir, postgres, targets));
    long t0 = System.nanoTime();
    BenchMain.run(options);
    System.out.printf(
        Locale.ROOT, "BenchSmokeTest: the bench ran in %.1f s%n", (System.nanoTime() - t0) / 1e9);

    Path results = dir.resolve("results");
    Expected expected = Expected.of(targets);
    MarkdownSections report = new MarkdownSections(Files.readString(results.resolve(NAME + ".md")));
    Path csv = results.resolve(NAME + ".csv");

    assertResultsTable(report, expected);
    assertCsv(csv, expected);
    assertThat(pairs(MarkdownSections.tableRows(report.section("### Throughput per round"))))
        .as("rows of the per-round table")
        .containsExactlyInAnyOrderElementsOf(expected.all());
    assertThat(report.has("## Errors")).as("the report lists failed operations").isFalse();
    ReportSectionChecks.targets(report, expected, HISTORY, SCALE);
    ReportSectionChecks.signing(report, SIGNING);
    ReportSectionChecks.scale(report, SCALE_TARGETS, SCALE);
    ReportSectionChecks.history(report, expected.history(), HISTORY, HISTORY_COMMITS);
    ReportSectionChecks.servers(report, List.of(REFERENCE, "sluice", "sluice-pg"));
    assertCharts(results, report);
    assertChartDataFromCsv(csv, expected);
  }

  /** The bench's arguments: every phase, at toy sizes, with no waiting for a quiet machine. */
  private static String[] arguments(String repoRoot, Path dir, String postgres, List<String> on) {
    return new String[] {
      "--repo-root", repoRoot,
      "--results-dir", dir.resolve("results").toString(),
      "--work-dir", dir.resolve("work").toString(),
      "--name", NAME,
      "--postgres-url", postgres,
      "--targets", String.join(",", on),
      "--clients", "4",
      "--rounds", "1",
      "--warmup", "0.1",
      "--duration", "0.5",
      "--server-warmup", "0",
      "--startup-settle", "0",
      "--tables", "12",
      "--page-size", "5",
      "--large-snapshots", "20",
      "--history", HISTORY.stream().map(String::valueOf).collect(Collectors.joining(",")),
      "--history-commits", Integer.toString(HISTORY_COMMITS),
      "--history-warmup", "5",
      "--scale", SCALE.stream().map(String::valueOf).collect(Collectors.joining(",")),
      "--scale-warmup", "0.1",
      // The plan phase is left out: at toy size (20 snapshots, 200 files, 4 runs of 0.5 s) it
      // took 11.7 s, most of it the Iceberg client's cold start; bench/README.md, "Scan planning".
      "--plan-snapshots", "0"
    };
  }

  /** The (scenario, target) pairs the run must have produced, from the bench's own lists. */
  record Expected(List<String> targets, Set<Pair> suite, Set<Pair> history, Set<Pair> scale) {
    static Expected of(List<String> targets) {
      Set<Pair> suite = new LinkedHashSet<>();
      for (Scenario scenario : Scenarios.all()) {
        for (String target : targets) {
          if (offers(target, scenario.name())) {
            suite.add(new Pair(scenario.name(), target));
          }
        }
      }
      Set<Pair> history = new LinkedHashSet<>();
      for (int size : HISTORY) {
        for (String target : HistoryPhase.TARGETS) {
          if (targets.contains(target)) {
            history.add(new Pair(HistoryTable.nameFor(size), target));
          }
        }
      }
      Set<Pair> scale = new LinkedHashSet<>();
      for (int tables : SCALE) {
        for (String target : SCALE_TARGETS) {
          scale.add(new Pair(LoadTableScale.nameFor(tables), target));
          if (tables > LoadTableScale.WORKING_SET) {
            scale.add(new Pair(LoadTableScale.nameFor(tables, LoadTableScale.WORKING_SET), target));
          }
        }
      }
      return new Expected(List.copyOf(targets), suite, history, scale);
    }

    /**
     * Where a scenario runs, as the README promises: sign-objects only where the catalog offers
     * remote signing; the 304 scenarios where loads carry an ETag, which since Iceberg 1.11 is
     * every target (the reference server answers 304 too).
     */
    private static boolean offers(String target, String scenario) {
      if (scenario.equals("sign-objects")) {
        return target.equals(SIGNING);
      }
      return true;
    }

    Set<Pair> all() {
      Set<Pair> all = new LinkedHashSet<>(suite);
      all.addAll(history);
      all.addAll(scale);
      return all;
    }
  }

  record Pair(String scenario, String target) {
    @Override
    public String toString() {
      return scenario + " on " + target;
    }
  }

  private static void assertResultsTable(MarkdownSections report, Expected expected) {
    List<List<String>> rows = MarkdownSections.tableRows(report.section("## Results"));
    assertThat(pairs(rows))
        .as("(scenario, target) rows of the report's Results table")
        .containsExactlyInAnyOrderElementsOf(expected.all());
    for (List<String> row : rows) {
      assertThat(row.get(1)).as("failed requests in row %s", row).doesNotContain("⚠");
      assertThat(number(row.get(2))).as("ops/s in row %s", row).isPositive();
      assertThat(number(row.get(3))).as("p50 ms in row %s", row).isPositive();
    }
  }

  private static void assertCsv(Path csv, Expected expected) throws Exception {
    List<String> lines = Files.readAllLines(csv);
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertThat(cells).as("cells of CSV line %s", line).hasSameSizeAs(header);
      rows.add(
          header.stream()
              .collect(Collectors.toMap(h -> h, h -> cells[header.indexOf(h)], (a, b) -> a)));
    }
    for (String round : List.of("1", "all")) {
      List<Map<String, String>> ofRound =
          rows.stream().filter(r -> r.get("round").equals(round)).toList();
      assertThat(ofRound.stream().map(r -> new Pair(r.get("scenario"), r.get("target"))).toList())
          .as("(scenario, target) rows of the CSV with round = %s", round)
          .containsExactlyInAnyOrderElementsOf(expected.all());
      for (Map<String, String> r : ofRound) {
        assertThat(Long.parseLong(r.get("operations"))).as("operations in %s", r).isPositive();
        assertThat(number(r.get("ops_per_s"))).as("ops_per_s in %s", r).isPositive();
        assertThat(number(r.get("p50_ms"))).as("p50_ms in %s", r).isPositive();
        assertThat(r.get("errors")).as("failed requests in %s", r).isEqualTo("0");
      }
    }
  }

  private static void assertCharts(Path results, MarkdownSections report) throws Exception {
    List<String> images = report.lines().stream().filter(l -> l.startsWith("![")).toList();
    for (Map.Entry<String, Integer> chart : CHARTS.entrySet()) {
      String file = NAME + "-" + chart.getKey() + ".png";
      Path png = results.resolve(file);
      assertThat(png).as("chart %s", file).isRegularFile();
      byte[] bytes = Files.readAllBytes(png);
      assertThat(Arrays.copyOf(bytes, 8))
          .as("PNG signature of %s", file)
          .containsExactly(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
      BufferedImage image = ImageIO.read(png.toFile());
      assertThat(image).as("%s decodes as an image", file).isNotNull();
      assertThat(image.getWidth()).as("width of %s", file).isEqualTo(1200);
      assertThat(image.getHeight()).as("height of %s", file).isEqualTo(chart.getValue());
      assertThat(images)
          .as("image lines of the report: one embeds %s", file)
          .anyMatch(l -> l.endsWith("](" + file + ")"));
    }
  }

  /** The CSV read back as the charts' data (--charts-from): suite and scale rows where they go. */
  private static void assertChartDataFromCsv(Path csv, Expected expected) throws Exception {
    ChartData data = ChartData.fromCsv(csv);
    Set<Pair> suite = new LinkedHashSet<>(expected.suite());
    suite.addAll(expected.history());
    assertThat(data.suite().stream().map(r -> new Pair(r.scenario(), r.target())).toList())
        .as("suite rows of ChartData.fromCsv")
        .containsExactlyInAnyOrderElementsOf(suite);
    assertThat(
            data.scale().stream()
                .map(s -> s.tables() + " " + s.row().target() + " " + s.row().scenario())
                .toList())
        .as("scale rows of ChartData.fromCsv (working sets are in the Markdown only)")
        .containsExactlyInAnyOrderElementsOf(
            SCALE.stream()
                .flatMap(
                    n ->
                        SCALE_TARGETS.stream()
                            .map(t -> n + " " + t + " " + LoadTableScale.nameFor(n)))
                .toList());
  }

  private static List<Pair> pairs(List<List<String>> rows) {
    // A target cell may carry " ⚠ N errors"; the pair is its first word.
    return rows.stream().map(r -> new Pair(r.get(0), r.get(1).split(" ")[0])).toList();
  }

  static double number(String cell) {
    try {
      return Double.parseDouble(cell.replace("×", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new AssertionError("Not a number: \"" + cell + "\"", e);
    }
  }

  private static String requiredEnv(String variable, String what) {
    String value = System.getenv(variable);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          variable
              + " is not set: BenchSmokeTest runs the bench against the test beds of"
              + " scripts/test-all.sh ("
              + what
              + "). Run ./scripts/test-all.sh, or start the beds (source scripts/testbeds.sh;"
              + " testbeds_start) and run the test in that shell");
    }
    return value;
  }
}
