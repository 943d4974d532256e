package dev.sluice.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A left-aligned, space-separated table for list commands; what {@code column -t} would print. */
final class TextTable {
  private static final String GAP = "  ";

  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  TextTable row(String... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
    }
    rows.add(
        Arrays.stream(cells).map(c -> c == null || c.isEmpty() ? "-" : c).toArray(String[]::new));
    return this;
  }

  boolean isEmpty() {
    return rows.size() == 1;
  }

  void print(PrintWriter out) {
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - row[i].length())).append(GAP);
        }
      }
      out.println(line);
    }
  }
}
