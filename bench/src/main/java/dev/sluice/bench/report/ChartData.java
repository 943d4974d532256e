package dev.sluice.bench.report;

import static java.util.Objects.requireNonNull;

import dev.sluice.bench.scenario.LoadTableScale;
import dev.sluice.bench.scenario.Scenario;
import dev.sluice.bench.scenario.Scenarios;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the charts are drawn from: per (scenario, target) over all rounds, the figures the report's
 * tables show. Built from a run's aggregates, or read back from its CSV's {@code round = all} rows
 * (the same numbers, rounded to the µs), so that charts can be redrawn for an old report.
 *
 * @param suite the suite's scenarios, in the order they ran
 * @param scale the scale phase's loads, smallest catalog first (empty when it did not run)
 */
public record ChartData(List<Row> suite, List<ScaleRow> scale) {

  /** One scenario on one target: ops/s and latency percentiles in ms (NaN: no operations). */
  public record Row(
      String scenario, String target, double opsPerSecond, double p50, double p99, double p999) {
    public Row {
      requireNonNull(scenario, "scenario");
      requireNonNull(target, "target");
    }

    static Row of(Aggregate a) {
      return new Row(
          a.scenario(),
          a.target(),
          a.throughput(),
          a.percentileMillis(50),
          a.percentileMillis(99),
          a.percentileMillis(99.9));
    }
  }

  /** A load of the scale phase, with the catalog's table count. */
  public record ScaleRow(int tables, Row row) {
    public ScaleRow {
      requireNonNull(row, "row");
    }
  }

  /** {@code loadTable-1k}, {@code loadTable-100k}, {@code loadTable-1M}, {@code loadTable-1500}. */
  private static final Pattern SCALE_NAME = Pattern.compile("loadTable-(\\d+)([kM]?)");

  private static final Pattern WORKING_SET_NAME =
      Pattern.compile("loadTable-\\d+[kM]?-hot\\d+[kM]?");

  public ChartData {
    suite = List.copyOf(suite);
    scale = List.copyOf(scale);
  }

  /** From a run: the aggregates the Markdown report is written from. */
  public static ChartData of(ReportInput in, List<Aggregate> aggregates) {
    List<ScaleRow> scale = new ArrayList<>();
    for (int tables : in.options().scale()) {
      String name = LoadTableScale.nameFor(tables);
      aggregates.stream()
          .filter(a -> a.scenario().equals(name))
          .forEach(a -> scale.add(new ScaleRow(tables, Row.of(a))));
    }
    Set<String> scaleNames =
        scale.stream().map(s -> s.row().scenario()).collect(Collectors.toCollection(HashSet::new));
    // The working-set loads are in the Markdown's scale section only.
    in.options().scale().stream()
        .filter(n -> n > LoadTableScale.WORKING_SET)
        .forEach(n -> scaleNames.add(LoadTableScale.nameFor(n, LoadTableScale.WORKING_SET)));
    List<Row> suite =
        aggregates.stream().filter(a -> !scaleNames.contains(a.scenario())).map(Row::of).toList();
    return new ChartData(suite, scale);
  }

  /**
   * From a report's CSV ({@link CsvReport}): its {@code round = all} rows. A scenario is of the
   * scale phase if it is not one of the suite's and is named as {@link LoadTableScale#nameFor}
   * names them (the suite's {@code loadTable-304} is not).
   */
  public static ChartData fromCsv(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("Empty CSV: " + csv);
    }
    List<String> header = Arrays.asList(lines.get(0).split(",", -1));
    Set<String> suiteNames =
        Scenarios.all().stream().map(Scenario::name).collect(Collectors.toSet());
    List<Row> suite = new ArrayList<>();
    List<ScaleRow> scale = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.isBlank()) {
        continue;
      }
      String[] cells = line.split(",", -1);
      if (!cell(header, cells, "round", csv).equals("all")) {
        continue;
      }
      Row row =
          new Row(
              cell(header, cells, "scenario", csv),
              cell(header, cells, "target", csv),
              number(header, cells, "ops_per_s", csv),
              number(header, cells, "p50_ms", csv),
              number(header, cells, "p99_ms", csv),
              number(header, cells, "p999_ms", csv));
      Matcher m = SCALE_NAME.matcher(row.scenario());
      if (WORKING_SET_NAME.matcher(row.scenario()).matches()) {
        continue; // in the Markdown's scale section only
      }
      if (!suiteNames.contains(row.scenario()) && m.matches()) {
        int unit = m.group(2).equals("M") ? 1_000_000 : m.group(2).equals("k") ? 1_000 : 1;
        scale.add(new ScaleRow(Integer.parseInt(m.group(1)) * unit, row));
      } else {
        suite.add(row);
      }
    }
    scale.sort((a, b) -> Integer.compare(a.tables(), b.tables()));
    return new ChartData(suite, scale);
  }

  /** The suite's scenarios, in the order they first appear. */
  List<String> scenarios() {
    return suite.stream().map(Row::scenario).distinct().toList();
  }

  /** Targets of the suite and then of the scale phase, in the order they first appear. */
  List<String> targets() {
    List<String> targets = new ArrayList<>();
    suite.forEach(r -> addNew(targets, r.target()));
    scale.forEach(s -> addNew(targets, s.row().target()));
    return targets;
  }

  private static void addNew(List<String> list, String value) {
    if (!list.contains(value)) {
      list.add(value);
    }
  }

  private static String cell(List<String> header, String[] cells, String column, Path csv) {
    int i = header.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException("No column " + column + " in " + csv);
    }
    return i < cells.length ? cells[i] : "";
  }

  private static double number(List<String> header, String[] cells, String column, Path csv) {
    String value = cell(header, cells, column, csv);
    return value.isEmpty() || value.equals("NaN") ? Double.NaN : Double.parseDouble(value);
  }
}
