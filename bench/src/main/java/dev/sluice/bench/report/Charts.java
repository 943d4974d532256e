package dev.sluice.bench.report;

import static java.util.Objects.requireNonNull;

import dev.sluice.bench.report.ChartData.Row;
import dev.sluice.bench.report.ChartData.ScaleRow;
import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.labels.CategoryItemLabelGenerator;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's charts, as PNG files beside its Markdown ({@code <name>-<suffix>.png}), drawn with
 * JFreeChart without a display. A chart is a method from {@link ChartData} to a chart (empty when
 * the run has nothing for it) plus its line in {@link #KINDS}.
 */
public final class Charts {
  static {
    // Before any AWT class asks: the benchmark runs on machines without a display.
    System.setProperty("java.awt.headless", "true");
  }

  private static final int WIDTH = 1200;
  private static final String REFERENCE = "reference";
  private static final BasicStroke SOLID = new BasicStroke(2.5f);
  private static final BasicStroke DASHED =
      new BasicStroke(
          2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f);

  /** One chart of the report: file suffix, alt text in the Markdown, height, how it is drawn. */
  private record Kind(
      String suffix, String alt, int height, Function<ChartData, Optional<JFreeChart>> draw) {}

  private static final List<Kind> KINDS =
      List.of(
          new Kind(
              "throughput",
              "Throughput per scenario and target (ops/s, log scale)",
              620,
              Charts::throughput),
          new Kind(
              "latency",
              "Latency p50, p99 and p99.9 per scenario and target (ms, log scale)",
              1000,
              Charts::latency),
          new Kind(
              "scale",
              "loadTable p50 and p99 against the number of tables in the catalog (ms, log scales)",
              560,
              Charts::scale));

  private Charts() {}

  /** The charts written, by suffix, as Markdown image lines with links relative to the report. */
  public record Images(Map<String, String> markdownBySuffix) {
    public Images {
      markdownBySuffix =
          Collections.unmodifiableMap(
              new LinkedHashMap<>(requireNonNull(markdownBySuffix, "markdownBySuffix")));
    }

    /** The image's Markdown and a blank line; "" when that chart was not drawn. */
    public String markdown(String suffix) {
      String image = markdownBySuffix.get(suffix);
      return image == null ? "" : image + "\n\n";
    }
  }

  /**
   * Draws every chart {@code data} has figures for into {@code dir/<name>-<suffix>.png}, and
   * deletes that name's other charts (left from an earlier run of the same name).
   */
  public static Images write(Path dir, String name, ChartData data) throws IOException {
    requireNonNull(dir, "dir");
    requireNonNull(name, "name");
    requireNonNull(data, "data");
    Map<String, String> written = new LinkedHashMap<>();
    for (Kind kind : KINDS) {
      String file = name + "-" + kind.suffix() + ".png";
      Optional<JFreeChart> chart = kind.draw().apply(data);
      if (chart.isEmpty()) {
        Files.deleteIfExists(dir.resolve(file));
        continue;
      }
      ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart.get(), WIDTH, kind.height());
      written.put(kind.suffix(), "![" + kind.alt() + "](" + file + ")");
    }
    return new Images(written);
  }

  /** Grouped bars of ops/s, labelled with the value and its ratio to the reference. */
  static Optional<JFreeChart> throughput(ChartData data) {
    DefaultCategoryDataset dataset = dataset(data, Row::opsPerSecond);
    if (max(dataset) == 0) {
      return Optional.empty();
    }
    LogAxis axis = ChartStyle.logAxis("ops/s");
    ChartStyle.decades(axis, min(dataset), max(dataset), 0.22);
    BarRenderer renderer = bars();
    renderer.setDefaultItemLabelGenerator(
        labels(
            (target, scenario, value) ->
                ChartStyle.compact(value) + ratio(data, target, scenario, value)));
    CategoryPlot plot = new CategoryPlot(dataset, scenarioAxis(), axis, renderer);
    JFreeChart chart =
        ChartStyle.chart(
            "Throughput",
            "operations per second over all rounds; higher is better; labels: ops/s (÷ reference)",
            plot);
    renderer.setDefaultItemLabelFont(ChartStyle.font(11));
    paint(renderer, dataset, data);
    ChartStyle.minorGridlines(plot);
    return Optional.of(chart);
  }

  /** Three panels of grouped bars, p50, p99 and p99.9, on one shared log scale. */
  static Optional<JFreeChart> latency(ChartData data) {
    List<String> names = List.of("p50", "p99", "p99.9");
    List<ToDoubleFunction<Row>> values = List.of(Row::p50, Row::p99, Row::p999);
    List<DefaultCategoryDataset> datasets = new ArrayList<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (ToDoubleFunction<Row> value : values) {
      DefaultCategoryDataset d = dataset(data, value);
      datasets.add(d);
      min = Math.min(min, min(d));
      max = Math.max(max, max(d));
    }
    if (max == 0) {
      return Optional.empty();
    }
    CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(scenarioAxis());
    plot.setGap(14);
    List<CategoryPlot> panels = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      LogAxis axis = ChartStyle.logAxis(names.get(i) + " ms");
      ChartStyle.decades(axis, min, max, 0.16);
      BarRenderer renderer = bars();
      renderer.setDefaultItemLabelGenerator(
          labels((target, scenario, value) -> ChartStyle.millis(value)));
      CategoryPlot panel = new CategoryPlot(datasets.get(i), null, axis, renderer);
      panels.add(panel);
      plot.add(panel, 1);
    }
    JFreeChart chart =
        ChartStyle.chart(
            "Latency",
            "percentiles of all rounds' operations, ms; lower is better; the three panels share one scale",
            plot);
    for (CategoryPlot panel : panels) {
      BarRenderer renderer = (BarRenderer) panel.getRenderer();
      renderer.setDefaultItemLabelFont(ChartStyle.font(10));
      paint(renderer, panel.getDataset(), data);
      ChartStyle.minorGridlines(panel);
    }
    plot.setFixedLegendItems(panels.get(0).getLegendItems()); // one entry per target, not three
    return Optional.of(chart);
  }

  /** p50 (solid) and p99 (dashed) against the table count, one colour per target. */
  static Optional<JFreeChart> scale(ChartData data) {
    if (data.scale().isEmpty()) {
      return Optional.empty();
    }
    XYSeriesCollection dataset = new XYSeriesCollection();
    XYLineAndShapeRenderer renderer = new SpreadLabels();
    List<String> targets = data.scale().stream().map(s -> s.row().target()).distinct().toList();
    List<String> seriesTargets = new ArrayList<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (String target : targets) {
      for (String percentile : List.of("p50", "p99")) {
        XYSeries series = new XYSeries(target + " " + percentile);
        for (ScaleRow s : data.scale()) {
          double ms = percentile.equals("p50") ? s.row().p50() : s.row().p99();
          if (s.row().target().equals(target) && ms > 0) {
            series.add(s.tables(), ms);
            min = Math.min(min, ms);
            max = Math.max(max, ms);
          }
        }
        dataset.addSeries(series);
        seriesTargets.add(target);
      }
    }
    if (max == 0) {
      return Optional.empty();
    }
    LogAxis tables = ChartStyle.logAxis("tables in the catalog");
    int fewest = data.scale().get(0).tables();
    int most = data.scale().get(data.scale().size() - 1).tables();
    ChartStyle.around(tables, fewest, most, false);
    LogAxis ms = ChartStyle.logAxis("latency ms");
    ChartStyle.around(ms, min, max, true);
    renderer.setDefaultItemLabelGenerator(
        (d, series, item) -> ChartStyle.millis(d.getYValue(series, item)));
    renderer.setDefaultItemLabelsVisible(true);
    XYPlot plot = new XYPlot(dataset, tables, ms, renderer);
    JFreeChart chart =
        ChartStyle.chart(
            "loadTable as the catalog grows",
            "each load picks one of the N tables at random; solid: p50, dashed: p99; lower is better",
            plot);
    renderer.setDefaultItemLabelFont(ChartStyle.font(11));
    renderer.setItemLabelAnchorOffset(6);
    ChartStyle.minorGridlines(plot);
    for (int i = 0; i < seriesTargets.size(); i++) { // p50, p99 of each target in turn
      String target = seriesTargets.get(i);
      renderer.setSeriesPaint(i, ChartStyle.color(target, data.targets().indexOf(target)));
      renderer.setSeriesStroke(i, i % 2 == 0 ? SOLID : DASHED);
    }
    return Optional.of(chart);
  }

  /**
   * Lines with their values as labels: above a point, or below it where another target's same
   * percentile is higher at that x (targets' values are often close, and their labels would
   * overlap). Series alternate p50, p99, so a percentile's series share their index's parity.
   */
  private static final class SpreadLabels extends XYLineAndShapeRenderer {
    private static final ItemLabelPosition ABOVE =
        new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER);
    private static final ItemLabelPosition BELOW =
        new ItemLabelPosition(ItemLabelAnchor.OUTSIDE6, TextAnchor.TOP_CENTER);

    SpreadLabels() {
      super(true, true);
    }

    @Override
    public ItemLabelPosition getPositiveItemLabelPosition(int series, int item) {
      XYDataset d = getPlot().getDataset();
      double x = d.getXValue(series, item);
      double y = d.getYValue(series, item);
      for (int other = series % 2; other < d.getSeriesCount(); other += 2) {
        for (int j = 0; other != series && j < d.getItemCount(other); j++) {
          if (d.getXValue(other, j) == x && d.getYValue(other, j) > y) {
            return BELOW;
          }
        }
      }
      return ABOVE;
    }
  }

  /**
   * The suite's targets as series (rows), its scenarios as categories (columns); no bar where a
   * target did not run a scenario (or had no operations).
   */
  private static DefaultCategoryDataset dataset(ChartData data, ToDoubleFunction<Row> value) {
    DefaultCategoryDataset dataset = new DefaultCategoryDataset();
    List<String> targets = data.suite().stream().map(Row::target).distinct().toList();
    for (String target : targets) {
      for (String scenario : data.scenarios()) {
        double v = find(data, scenario, target).map(value::applyAsDouble).orElse(Double.NaN);
        dataset.addValue(v > 0 ? Double.valueOf(v) : null, target, scenario);
      }
    }
    return dataset;
  }

  private static Optional<Row> find(ChartData data, String scenario, String target) {
    return data.suite().stream()
        .filter(r -> r.scenario().equals(scenario) && r.target().equals(target))
        .findFirst();
  }

  private static BarRenderer bars() {
    BarRenderer renderer = new BarRenderer();
    renderer.setIncludeBaseInRange(false); // a log axis has no 0
    renderer.setItemMargin(0.04);
    renderer.setMaximumBarWidth(0.06);
    renderer.setDefaultItemLabelsVisible(true);
    renderer.setDefaultPositiveItemLabelPosition(
        new ItemLabelPosition(
            ItemLabelAnchor.OUTSIDE12,
            TextAnchor.CENTER_LEFT,
            TextAnchor.CENTER_LEFT,
            -Math.PI / 2));
    return renderer;
  }

  /** Colours by target name, so a target looks the same in every chart. */
  private static void paint(BarRenderer renderer, CategoryDataset dataset, ChartData data) {
    for (int i = 0; i < dataset.getRowCount(); i++) {
      String target = String.valueOf(dataset.getRowKey(i));
      renderer.setSeriesPaint(i, ChartStyle.color(target, data.targets().indexOf(target)));
    }
  }

  private interface Label {
    String of(String target, String scenario, double value);
  }

  private static CategoryItemLabelGenerator labels(Label label) {
    return new CategoryItemLabelGenerator() {
      @Override
      public String generateRowLabel(CategoryDataset dataset, int row) {
        return String.valueOf(dataset.getRowKey(row));
      }

      @Override
      public String generateColumnLabel(CategoryDataset dataset, int column) {
        return String.valueOf(dataset.getColumnKey(column));
      }

      @Override
      public String generateLabel(CategoryDataset dataset, int row, int column) {
        Number value = dataset.getValue(row, column);
        return value == null
            ? null
            : label.of(
                String.valueOf(dataset.getRowKey(row)),
                String.valueOf(dataset.getColumnKey(column)),
                value.doubleValue());
      }
    };
  }

  /** " (5.49×)" for a target other than the reference in a scenario the reference ran. */
  private static String ratio(ChartData data, String target, String scenario, double value) {
    if (target.equals(REFERENCE)) {
      return "";
    }
    return find(data, scenario, REFERENCE)
        .filter(ref -> ref.opsPerSecond() > 0)
        .map(ref -> String.format(Locale.ROOT, " (%.2f×)", value / ref.opsPerSecond()))
        .orElse("");
  }

  private static CategoryAxis scenarioAxis() {
    CategoryAxis axis = new CategoryAxis(null);
    axis.setCategoryMargin(0.18);
    axis.setLowerMargin(0.02);
    axis.setUpperMargin(0.02);
    axis.setMaximumCategoryLabelLines(2);
    return axis;
  }

  /** The smallest value; {@code Double.MAX_VALUE} if there is none. */
  private static double min(CategoryDataset d) {
    double min = Double.MAX_VALUE;
    for (int r = 0; r < d.getRowCount(); r++) {
      for (int c = 0; c < d.getColumnCount(); c++) {
        Number v = d.getValue(r, c);
        if (v != null) {
          min = Math.min(min, v.doubleValue());
        }
      }
    }
    return min;
  }

  /** The largest value; 0 if there is none. */
  private static double max(CategoryDataset d) {
    double max = 0;
    for (int r = 0; r < d.getRowCount(); r++) {
      for (int c = 0; c < d.getColumnCount(); c++) {
        Number v = d.getValue(r, c);
        if (v != null) {
          max = Math.max(max, v.doubleValue());
        }
      }
    }
    return max;
  }
}
