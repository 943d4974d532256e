package dev.sluice.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;

/** The charts' common look: DejaVu fonts, white background, one fixed colour per target. */
final class ChartStyle {
  private static final String FONT = "DejaVu Sans";

  /** Fixed colours, so a target looks the same in every chart and every report. */
  private static final Map<String, Color> TARGET_COLORS =
      Map.of(
          "reference", new Color(0x7f7f7f),
          "sluice", new Color(0x9467bd),
          "sluice-rbac", new Color(0x1f77b4),
          "sluice-vended", new Color(0xff7f0e),
          "sluice-pg", new Color(0x2ca02c),
          "sluice-pg-vended", new Color(0x98df8a),
          "sluice-signing", new Color(0xd62728),
          "external", new Color(0x8c564b));

  /** For targets not named above, by their position among the chart's targets. */
  private static final List<Color> OTHER_COLORS =
      List.of(new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22));

  private static final Color MINOR_GRID = new Color(0xf0f0f0);

  private static final StandardChartTheme THEME = theme();

  private ChartStyle() {}

  /** {@code index}: the target's place among the chart's, for targets without a fixed colour. */
  static Paint color(String target, int index) {
    Color c = TARGET_COLORS.get(target);
    return c != null ? c : OTHER_COLORS.get(index % OTHER_COLORS.size());
  }

  /**
   * A chart with this look, its title, and a subtitle saying how to read it. The theme sets every
   * renderer's item label font: callers change those after this.
   */
  static JFreeChart chart(String title, String subtitle, Plot plot) {
    JFreeChart chart = new JFreeChart(title, plot);
    THEME.apply(chart);
    chart.addSubtitle(new TextTitle(subtitle, new Font(FONT, Font.PLAIN, 13)));
    chart.getLegend().setPosition(RectangleEdge.TOP);
    chart.setPadding(new RectangleInsets(8, 8, 8, 16));
    return chart;
  }

  /** Faint lines at 2…9 times each decade, to read values between the decades of a log axis. */
  static void minorGridlines(CategoryPlot plot) {
    plot.setRangeMinorGridlinesVisible(true);
    plot.setRangeMinorGridlinePaint(MINOR_GRID);
  }

  static void minorGridlines(XYPlot plot) {
    plot.setRangeMinorGridlinesVisible(true);
    plot.setRangeMinorGridlinePaint(MINOR_GRID);
    plot.setDomainMinorGridlinesVisible(true);
    plot.setDomainMinorGridlinePaint(MINOR_GRID);
  }

  static Font font(int size) {
    return new Font(FONT, Font.PLAIN, size);
  }

  /**
   * A base-10 logarithmic axis labelled with plain numbers (1, 10, 1,000) rather than powers, for
   * figures that span decades (loads and commits differ a hundredfold).
   */
  static LogAxis logAxis(String label) {
    LogAxis axis = new LogAxis(label);
    axis.setBase(10);
    DecimalFormat format =
        new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT));
    axis.setNumberFormatOverride(format);
    // Labels at whole decades only (the automatic units also label 10^0.5 = 3.162), and
    // unlabelled marks at 2…9 times each.
    axis.setAutoTickUnitSelection(false);
    axis.setTickUnit(new NumberTickUnit(1, format, 10));
    axis.setMinorTickMarksVisible(true);
    return axis;
  }

  /**
   * For bars: from the decade at or below {@code min} (so the shortest bar still shows) to above
   * {@code max}, keeping the top {@code labelShare} of the axis free for the labels over the bars.
   */
  static void decades(LogAxis axis, double min, double max, double labelShare) {
    double lower = Math.pow(10, Math.floor(Math.log10(min)));
    double span = Math.log10(max / lower);
    double headroom = Math.max(0.3, span * labelShare / (1 - labelShare));
    // A hair below the decade: LogAxis computes log10(0.1) as −0.99…98 and would drop its label.
    axis.setRange(lower * 0.999, Math.max(max * Math.pow(10, headroom), lower * 10));
  }

  /**
   * For lines: a margin of a fifth of a decade around [min, max]. With {@code doubling}, labels at
   * 1, 2, 4, 8, … where that is less than three decades (a lone decade label is hard to read).
   */
  static void around(LogAxis axis, double min, double max, boolean doubling) {
    double lower = min / 1.6;
    double upper = max * 1.6;
    if (doubling && Math.log10(upper / lower) < 3) {
      axis.setTickUnit(new NumberTickUnit(Math.log10(2), axis.getNumberFormatOverride(), 1));
    }
    axis.setRange(lower, upper);
  }

  /** 7, 42, 4.1k, 22.7k, 1.2M: short enough for a label above a bar. */
  static String compact(double value) {
    if (value >= 1_000_000) {
      return String.format(Locale.ROOT, "%.1fM", value / 1_000_000);
    }
    if (value >= 1_000) {
      return String.format(Locale.ROOT, "%.1fk", value / 1_000);
    }
    return String.format(Locale.ROOT, value >= 10 ? "%.0f" : "%.1f", value);
  }

  /** Milliseconds with three significant digits: 0.643, 17.4, 1,290. */
  static String millis(double value) {
    if (value >= 100) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    return String.format(Locale.ROOT, value >= 10 ? "%.1f" : value >= 1 ? "%.2f" : "%.3f", value);
  }

  private static StandardChartTheme theme() {
    StandardChartTheme theme = (StandardChartTheme) StandardChartTheme.createJFreeTheme();
    theme.setExtraLargeFont(new Font(FONT, Font.BOLD, 20));
    theme.setLargeFont(new Font(FONT, Font.BOLD, 14));
    theme.setRegularFont(font(12));
    theme.setSmallFont(font(10));
    theme.setChartBackgroundPaint(Color.WHITE);
    theme.setPlotBackgroundPaint(Color.WHITE);
    theme.setDomainGridlinePaint(new Color(0xdddddd));
    theme.setRangeGridlinePaint(new Color(0xcccccc));
    theme.setBarPainter(new StandardBarPainter());
    theme.setShadowVisible(false);
    theme.setAxisOffset(new RectangleInsets(0, 0, 0, 0));
    return theme;
  }
}
