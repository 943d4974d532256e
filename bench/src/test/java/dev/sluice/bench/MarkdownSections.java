package dev.sluice.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A Markdown report read back by its headings and tables, for {@link BenchSmokeTest}. */
final class MarkdownSections {
  private final List<String> lines;

  MarkdownSections(String markdown) {
    this.lines = List.of(requireNonNull(markdown, "markdown").split("\n", -1));
  }

  /**
   * The lines under the first heading that starts with {@code heading} (e.g. {@code "## Results"}),
   * up to the next heading of the same or a higher level; fails if there is no such heading.
   */
  List<String> section(String heading) {
    int level = level(heading);
    if (level == 0) {
      throw new IllegalArgumentException("Not a heading: " + heading);
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(heading)) {
        int end = i + 1;
        while (end < lines.size()) {
          int l = level(lines.get(end));
          if (l > 0 && l <= level) {
            break;
          }
          end++;
        }
        return lines.subList(i + 1, end);
      }
    }
    throw new AssertionError("The report has no section \"" + heading + "\"");
  }

  List<String> lines() {
    return lines;
  }

  boolean has(String heading) {
    return lines.stream().anyMatch(l -> l.startsWith(heading));
  }

  /** The body rows of every table in {@code section} (header and rule left out), cells trimmed. */
  static List<List<String>> tableRows(List<String> section) {
    List<List<String>> rows = new ArrayList<>();
    boolean inTable = false;
    int row = 0;
    for (String line : section) {
      if (!line.startsWith("|")) {
        inTable = false;
        continue;
      }
      row = inTable ? row + 1 : 0;
      inTable = true;
      if (row >= 2) { // 0: header, 1: |---|
        String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        rows.add(Arrays.stream(inner.split("\\|", -1)).map(String::trim).toList());
      }
    }
    return rows;
  }

  /** 1 for "# …", 2 for "## …", …; 0 if {@code line} is no heading. */
  private static int level(String line) {
    int n = 0;
    while (n < line.length() && line.charAt(n) == '#') {
      n++;
    }
    return n > 0 && n < line.length() && line.charAt(n) == ' ' ? n : 0;
  }
}
