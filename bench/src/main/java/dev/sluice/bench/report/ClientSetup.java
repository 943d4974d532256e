package dev.sluice.bench.report;

import dev.sluice.bench.load.RunResult;
import dev.sluice.bench.scenario.HistoryTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's words for the load generator's client: the {@code --client} asked for and, with
 * {@code loop}, which scenarios ran on the event loop and which fell back to threads.
 */
final class ClientSetup {
  private ClientSetup() {}

  /**
   * The history phase is left out: it is one client on one raw connection whatever {@code --client}
   * says, and its section says so.
   */
  static String describe(String requested, List<RunResult> allRuns) {
    List<RunResult> runs =
        allRuns.stream().filter(r -> !HistoryTable.isHistory(r.scenario())).toList();
    if (!requested.equals("loop")) {
      return "(`--client " + requested + "`, one thread per client)";
    }
    Map<String, List<String>> byKind = new LinkedHashMap<>();
    for (RunResult r : runs) {
      List<String> scenarios = byKind.computeIfAbsent(r.clientKind(), k -> new ArrayList<>());
      if (!scenarios.contains(r.scenario())) {
        scenarios.add(r.scenario());
      }
    }
    StringBuilder text =
        new StringBuilder(
            "(`--client loop`: one event-loop thread drives all connections, as wrk does");
    List<String> loop = byKind.getOrDefault("loop", List.of());
    text.append(loop.isEmpty() ? ", for no scenario of this run" : ", for " + names(loop));
    byKind.forEach(
        (kind, scenarios) -> {
          if (!kind.equals("loop")) {
            text.append("; ")
                .append(names(scenarios))
                .append(" fell back to one thread per client with the `")
                .append(kind)
                .append("` client (no single-request form)");
          }
        });
    return text.append(")").toString();
  }

  private static String names(List<String> scenarios) {
    return String.join(", ", scenarios.stream().map(s -> "`" + s + "`").toList());
  }
}
