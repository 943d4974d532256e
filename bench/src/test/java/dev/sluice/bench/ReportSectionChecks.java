package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.BenchSmokeTest.Expected;
import dev.sluice.bench.BenchSmokeTest.Pair;
import dev.sluice.bench.scenario.LoadTableScale;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * What {@link BenchSmokeTest} asks of the report's sections beside the results table: each has the
 * rows of every target that ran what the section is about.
 */
final class ReportSectionChecks {
  private ReportSectionChecks() {}

  /** "Against the targets": one bar per Sluice target, server, scale target and history target. */
  static void targets(
      MarkdownSections report, Expected expected, List<Integer> history, List<Integer> scale) {
    List<List<String>> rows = MarkdownSections.tableRows(report.section("## Against the targets"));
    for (List<String> row : rows) {
      assertThat(row).as("cells of targets row %s", row).hasSize(3);
      assertThat(row.get(1)).as("measured value of %s", row).containsPattern("\\d");
      assertThat(row.get(1)).as("measured value of %s", row).doesNotContain("–");
      assertThat(row.get(2)).as("met? of %s", row).isIn("yes", "**no**");
    }
    List<String> labels = rows.stream().map(r -> r.get(0)).toList();
    List<String> wanted = new ArrayList<>();
    for (Pair p : expected.suite()) {
      if (p.target().equals("reference")) {
        continue;
      }
      if (p.scenario().equals("loadTable-hot") && !p.target().equals("sluice-signing")) {
        wanted.add("loadTable-hot on `" + p.target() + "` ≥ 4×");
      }
      if (p.scenario().equals("listTables-paged")) {
        wanted.add("listTables-paged on `" + p.target() + "` ≥ 4×");
      }
      if (p.scenario().equals("loadTable-large-304")) {
        wanted.add("loadTable-large-304 on `" + p.target() + "` ≥ 2×");
      }
      if (p.scenario().equals("sign-objects")) {
        wanted.add("sign-objects on `" + p.target() + "` ≥ 15,000 signs/s");
      }
    }
    for (String server : List.of("sluice", "sluice-pg")) {
      wanted.add("`" + server + "` start-up to ready");
      wanted.add("`" + server + "` idle RSS");
    }
    String small = size(scale.get(0));
    String large = size(scale.get(scale.size() - 1));
    String hot = large + "-hot" + size(LoadTableScale.WORKING_SET);
    for (Pair p : expected.scale()) {
      if (p.scenario().equals(LoadTableScale.nameFor(scale.get(0)))) {
        // Judged at every size on PostgreSQL, up to 100k tables on the embedded store: the smoke
        // test's sizes are below that.
        wanted.add("`" + p.target() + "` loadTable p99, " + small + " tables → " + hot);
      }
    }
    for (String target : expected.history().stream().map(Pair::target).distinct().toList()) {
      if (!target.equals("reference")) {
        wanted.add("`" + target + "` commit p50 as history grows");
        wanted.add(
            String.format(
                Locale.ROOT,
                "`%s` commit p50 at %,d snapshots ≥ 5×",
                target,
                history.get(history.size() - 1)));
      }
    }
    for (String w : wanted) {
      assertThat(labels).as("rows of \"Against the targets\"").anyMatch(l -> l.startsWith(w));
    }
  }

  /** "Remote signing": the signing target's row, next to its loadTable-hot. */
  static void signing(MarkdownSections report, String target) {
    List<List<String>> rows =
        MarkdownSections.tableRows(report.section("## Remote signing vs a warm loadTable"));
    assertThat(rows.stream().map(r -> r.get(0)).toList())
        .as("targets of the signing section")
        .containsExactly(target);
    assertThat(BenchSmokeTest.number(rows.get(0).get(1))).as("sign ops/s").isPositive();
    assertThat(BenchSmokeTest.number(rows.get(0).get(4))).as("load ops/s").isPositive();
  }

  /** "Scale": every size on every scale target, and the working set above it. */
  static void scale(MarkdownSections report, List<String> targets, List<Integer> sizes) {
    List<List<String>> rows =
        MarkdownSections.tableRows(report.section("## Scale: loadTable as the catalog grows"));
    List<String> wanted = new ArrayList<>();
    for (String target : targets) {
      for (int n : sizes) {
        wanted.add(target + " " + size(n));
        if (n > LoadTableScale.WORKING_SET) {
          wanted.add(target + " " + size(n) + "-hot" + size(LoadTableScale.WORKING_SET));
        }
      }
    }
    assertThat(rows.stream().map(r -> r.get(0) + " " + r.get(1)).toList())
        .as("(target, tables) rows of the scale section")
        .containsExactlyInAnyOrderElementsOf(wanted);
    for (List<String> row : rows) {
      assertThat(BenchSmokeTest.number(row.get(2))).as("ops/s in scale row %s", row).isPositive();
    }
  }

  /** "History": a table per size with every history target, and the growth table. */
  static void history(
      MarkdownSections report, Collection<Pair> pairs, List<Integer> sizes, int commits) {
    List<String> targets = pairs.stream().map(Pair::target).distinct().toList();
    report.section("## History: commit latency as a table's history grows");
    for (int n : sizes) {
      List<List<String>> rows =
          MarkdownSections.tableRows(
              report.section(String.format(Locale.ROOT, "### %,d snapshots", n)));
      assertThat(rows.stream().map(r -> r.get(0)).toList())
          .as("targets of the history table at %d snapshots", n)
          .containsExactlyElementsOf(targets);
      for (List<String> row : rows) {
        assertThat(row.get(1)).as("commits landed in %s", row).isEqualTo(Integer.toString(commits));
      }
    }
    List<List<String>> growth = MarkdownSections.tableRows(report.section("### Growth"));
    assertThat(growth.stream().map(r -> r.get(0)).toList())
        .as("targets of the history growth table")
        .containsExactlyElementsOf(targets);
  }

  /** "Server processes": one row per server process started. */
  static void servers(MarkdownSections report, List<String> servers) {
    List<List<String>> rows = MarkdownSections.tableRows(report.section("## Server processes"));
    assertThat(rows.stream().map(r -> r.get(0)).toList())
        .as("rows of the server processes table")
        .containsExactlyInAnyOrderElementsOf(servers);
  }

  /** The table count as the scale phase names it: 1k, 2k, 1M, 1500. */
  private static String size(int n) {
    return LoadTableScale.nameFor(n).substring("loadTable-".length());
  }
}
